"""Greeting spectators from what this process already holds, so that a crowd (or a storm of
strangers) arriving or catching up costs no database read while play goes on.

`TABLES` holds, per match, the spectators' welcome at the newest version known here
(game/broadcast.py's `LATEST`) and the latest events heard. Each event carries the whole
public state after it and the stroke its log entry tells, so the welcome moves on with the
events heard: the database is read for a match's first spectator here, at a new frame, and
after a gap in what this process heard.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game import logs
from game.broadcast import LATEST
from game.protocol import server_out
from game.protocol.server_out import Seat
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
    players: dict[Seat, str]


@dataclass(slots=True)
class _Table:
    full: Greeting  # a spectator's, with the snapshot and the frame's log
    events: dict[int, tuple[str, Turn]] = field(default_factory=dict)  # the latest
    log: server_out.Log | None = None  # `full`'s story, once read to be moved on


class _Tables:
    """Per match served here: the spectators' welcome at the newest version this process
    knows of (`LATEST`), and the texts of the latest events heard. A spectator's hello, and a
    socket catching up on events this process heard, need no database: a crowd arriving costs
    a read for the match's first spectator here, not one a version, however many strangers
    it holds (each read also held the shared database thread, where the crowd's other work
    waits)."""

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
                full = table.full
                texts = tuple(missed.texts)
                return Greeting(missed.version, full.bare, full.bare, None, texts, missed.turn,
                                full.players)  # fmt: skip
        newest = max(LATEST.get(match_id, 0), last or 0)  # (the browser's own may be newer)
        if table.full.version < newest and not self._move_on(match_id, table, newest):
            return None
        return table.full

    @staticmethod
    def _move_on(match_id: int, table: _Table, newest: int) -> bool:
        """Bring the kept welcome and log to `newest` with the events heard since, in the
        frame they tell; False if one was not heard here, or starts or ends a frame (whose
        log is another's: read it)."""
        full = table.full
        heard = [table.events.get(v) for v in range(full.version + 1, newest + 1)]
        if not heard or any(h is None for h in heard):
            return False
        told = [h for h in heard if h is not None]
        log = table.log or server_out.Log.model_validate_json(full.story or "")
        entries = list(log.entries)
        for text, _ in told:
            event = server_out.StoredEvent.read(text)
            if event.kind == "start" or event.frame_end is not None or event.match_end is not None:
                return False
            entries.append(server_out.LogEntry.of(event, entries[-1].brk if entries else 0))
        # As logs.frame_log keeps a long frame's: its last LOG_ENTRIES, the rest counted.
        kept = logs.LOG_ENTRIES
        omitted = log.omitted + max(0, len(entries) - kept)
        log = log.model_copy(update={"entries": entries[-kept:], "omitted": omitted})
        text, turn = told[-1]
        snapshot = server_out.EventSnapshot.read(text)
        welcome = server_out.Welcome(match=match_id, seat=None, players=full.players,
                                     snapshot=snapshot).text()  # fmt: skip
        table.full = Greeting(newest, welcome, full.bare, log.text(), None, turn, full.players)
        table.log = log
        return True

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
