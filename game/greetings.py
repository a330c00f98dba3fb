"""Greeting spectators from what this process already holds, so that a crowd (or a storm of
strangers) arriving or catching up costs one database read per version, not one each.

`TABLES` holds, per match, the spectators' welcome at the newest version known here
(game/broadcast.py's `LATEST`) and the latest events heard.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.broadcast import LATEST
from game.service import Missed
from game.turns import Turn


@dataclass(frozen=True, slots=True)
class Greeting:
    """What a socket is sent on its hello: the welcome (with the snapshot, and after it the
    frame's referee log; or without, and the events it missed), at `version`, where `turn`
    holds."""

    version: int
    welcome: str
    bare: str  # the welcome without a snapshot
    story: str | None
    missed: tuple[str, ...] | None
    turn: Turn


@dataclass(slots=True)
class _Table:
    full: Greeting  # a spectator's, with the snapshot and the frame's log, read from the database
    events: dict[int, tuple[str, Turn]] = field(default_factory=dict)  # the latest


class _Tables:
    """Per match served here: the spectators' welcome at the newest version this process
    knows of (`LATEST`), and the texts of the latest events heard. A spectator's hello, and a
    socket catching up on events this process heard, need no database: a crowd arriving at
    one version costs one read, however many strangers it holds."""

    EVENTS_KEPT = 30  # a minute or two of play: what a browser that lost its socket missed

    def __init__(self) -> None:
        self.tables: dict[int, _Table] = {}

    def keep(self, match_id: int, greeting: Greeting) -> None:
        """A spectator's greeting read from the database (with a snapshot, so in full)."""
        assert greeting.missed is None and greeting.story is not None
        table = self.tables.get(match_id)
        if table is not None and table.full.version > greeting.version:
            return  # a newer one was read meanwhile
        self.tables[match_id] = _Table(greeting, table.events if table is not None else {})

    def heard(self, match_id: int, version: int, text: str, turn: Turn) -> None:
        """An event reached a socket here (every socket calls this: the first keeps it)."""
        table = self.tables.get(match_id)
        if table is None or version in table.events:
            return
        table.events[version] = (text, turn)
        if len(table.events) > self.EVENTS_KEPT:
            del table.events[min(table.events)]

    def greeting(self, match_id: int, last: int | None) -> Greeting | None:
        """A spectator's greeting without the database, or None: the events after `last` if
        all of them were heard here, else the snapshot if it is at the newest version known
        here."""
        table = self.tables.get(match_id)
        if table is None:
            return None
        if last is not None:
            missed = self.after(match_id, last)
            if missed is not None:
                bare = table.full.bare
                return Greeting(missed.version, bare, bare, None, tuple(missed.texts), missed.turn)
        if table.full.version < max(LATEST.get(match_id, 0), last or 0):
            return None  # not the newest (the browser's own may be newer: another process's)
        return table.full

    def after(self, match_id: int, version: int) -> Missed | None:
        """The events after `version` up to the newest known here, if all were heard here."""
        table = self.tables.get(match_id)
        newest = LATEST.get(match_id, 0)
        if table is None or not 0 <= newest - version <= self.EVENTS_KEPT:
            return None
        heard = [table.events.get(v) for v in range(version + 1, newest + 1)]
        if newest in table.events:
            turn = table.events[newest][1]
        elif newest == table.full.version:
            turn = table.full.turn
        else:
            return None
        texts = [h[0] for h in heard if h is not None]
        return Missed(texts, newest, turn) if len(texts) == len(heard) else None

    def forget(self, match_id: int) -> None:
        self.tables.pop(match_id, None)

    def reset(self) -> None:
        self.tables.clear()


TABLES = _Tables()
