"""The spectators' chat room greeted from what this process holds, so that a crowd arriving
(or reconnecting at once) costs one database read a match, not one a spectator, as the table
does (game/greetings.py).

`HELD` keeps, per match served here, the spectators' room's latest lines, trolls' included
with their authors (each reader is sent theirs alone): read from the database for the
match's first spectator here, then moved on with each line the process's relay hears
(game/fanout.py). Lines heard while the first read is under way are merged with it by id.
A line a moderator deleted leaves what is held as the relay hears of it (`match.moderated`);
what is held is read again after `FRESH` seconds all the same (a member marked a troll).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from chat.service import shown_to
from game import clock
from game.protocol import server_out
from rules.chat import HISTORY

FRESH = 60.0  # seconds a room's lines are held before they are read again
KEPT = 2 * HISTORY  # lines held a room: room for a troll's, which most readers do not get


@dataclass(frozen=True, slots=True)
class HeldLine:
    id: int
    author: int  # the author's user id
    shadow: bool
    line: dict[str, Any]  # the `line` of a `line` message, as sent


@dataclass(slots=True)
class _Room:
    read_at: float
    ready: asyncio.Future[None]
    lines: dict[int, HeldLine] = field(default_factory=dict)

    def add(self, line: HeldLine) -> None:
        self.lines[line.id] = line
        if len(self.lines) > KEPT:
            for old in sorted(self.lines)[: len(self.lines) - KEPT]:
                del self.lines[old]


class _Held:
    def __init__(self) -> None:
        self.rooms: dict[int, _Room] = {}

    def heard(self, match_id: int, message: dict[str, Any]) -> None:
        """A `match.line` the relay heard: held, if this match's spectators' room is."""
        room = self.rooms.get(match_id)
        if room is None or message["room"] != "spectators":
            return
        line = json.loads(message["text"])["line"]
        room.add(HeldLine(line["id"], message["author"], message["shadow"], line))

    def deleted(self, match_id: int, message: dict[str, Any]) -> None:
        """A `match.moderated` the relay heard: a deleted line of the spectators' room goes."""
        room = self.rooms.get(match_id)
        if room is not None and message["room"] == "spectators" and message["line"] is not None:
            room.lines.pop(message["line"], None)

    async def lines(
        self,
        match_id: int,
        reader: int | None,
        read: Callable[[], Awaitable[list[HeldLine]]],
        blocked: frozenset[int] = frozenset(),
    ) -> str:
        """The spectators' room's `lines` message for `reader` (a user id, or None, who
        blocked the members `blocked`), read with `read()` when nothing fresh is held."""
        room = self.rooms.get(match_id)
        if room is None or (room.ready.done() and clock.monotonic() - room.read_at > FRESH):
            loop = asyncio.get_running_loop()
            room = self.rooms[match_id] = _Room(clock.monotonic(), loop.create_future())
            try:
                for line in await read():
                    room.add(line)
            except BaseException as exc:
                if self.rooms.get(match_id) is room:
                    del self.rooms[match_id]
                room.ready.set_exception(exc)
                room.ready.exception()  # retrieved, though nobody may be waiting
                raise
            room.ready.set_result(None)
        else:
            await asyncio.shield(room.ready)
        shown = [
            held.line
            for _, held in sorted(room.lines.items())
            if shown_to(held.author, held.shadow, reader, blocked)
        ][-HISTORY:]
        lines = [server_out.LineOut.model_validate(line) for line in shown]
        return server_out.Lines(room="spectators", lines=lines).text()

    def forget(self, match_id: int) -> None:
        self.rooms.pop(match_id, None)

    def reset(self) -> None:
        self.rooms.clear()


HELD = _Held()
