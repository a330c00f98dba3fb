"""The spectators' chat rooms greeted from what this process holds, so that a crowd arriving
(or reconnecting at once) costs one database read a match, not one a spectator, as the table
does (game/greetings.py).

`HELD` keeps, per match served here, what its spectators read: the spectators' room's latest
lines, and the players' room's when the club and both players let spectators read it
(`players_shown`, game/chat.py), trolls' included with their authors (each reader is sent
theirs alone). Read from the database for the match's first spectator here, then moved on
with each line the process's relay hears (game/fanout.py); lines heard while the first read
is under way are merged with it by id. A line a moderator deleted leaves what is held as the
relay hears of it, and a member marked a troll has their lines held as a troll's from then
(`match.moderated`). A players' line heard with the players' room no longer shown drops that
room at once; one heard shown while it was not has the next greeting read both again. What
is held is read again after `FRESH` seconds all the same (a player's change of their setting
with no line said since).
"""

from __future__ import annotations

import asyncio
import dataclasses
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


@dataclass(frozen=True, slots=True)
class HeldRooms:
    """What a process reads to hold a match's spectators' rooms (game/chat.py)."""

    players_shown: bool  # the players' room is shown to the spectators
    spectators: list[HeldLine]
    players: list[HeldLine]  # none unless shown


@dataclass(frozen=True, slots=True)
class Greeting:
    """A spectator's chat after a welcome: one `lines` message per room it reads."""

    texts: list[str]
    players_shown: bool


def _add(lines: dict[int, HeldLine], line: HeldLine) -> None:
    lines[line.id] = line
    if len(lines) > KEPT:
        for old in sorted(lines)[: len(lines) - KEPT]:
            del lines[old]


@dataclass(slots=True)
class _Room:
    read_at: float
    ready: asyncio.Future[None]
    # The players' room shown to the spectators (None: not known until the first read ends)
    players_shown: bool | None = None
    spectators: dict[int, HeldLine] = field(default_factory=dict)
    players: dict[int, HeldLine] = field(default_factory=dict)

    def lines(self, room: str) -> dict[int, HeldLine]:
        return self.players if room == "players" else self.spectators


class _Held:
    def __init__(self) -> None:
        self.rooms: dict[int, _Room] = {}

    def heard(self, match_id: int, message: dict[str, Any]) -> None:
        """A `match.line` the relay heard: held, if this match's rooms are and its room is
        the spectators' to read."""
        room = self.rooms.get(match_id)
        if room is None:
            return
        if message["room"] == "players":
            if not message["players_shown"]:
                room.players_shown = False
                room.players.clear()
                return
            if room.players_shown is False:
                room.read_at = float("-inf")  # shown from now: read both at the next greeting
                return
        line = json.loads(message["text"])["line"]
        _add(room.lines(message["room"]), HeldLine(line["id"], message["author"],
                                                   message["shadow"], line))  # fmt: skip

    def moderated(self, match_id: int, message: dict[str, Any]) -> None:
        """A `match.moderated` the relay heard: a deleted line goes, a troll's are held as a
        troll's (shown to the troll alone)."""
        room = self.rooms.get(match_id)
        if room is None:
            return
        lines = room.lines(message["room"])
        if message["kind"] == "hide" and message["line"] is not None:
            lines.pop(message["line"], None)
        elif message["kind"] == "troll":
            for held in [h for h in lines.values() if h.author == message["member"]]:
                lines[held.id] = dataclasses.replace(held, shadow=True)

    async def lines(
        self,
        match_id: int,
        reader: int | None,
        read: Callable[[], Awaitable[HeldRooms]],
        blocked: frozenset[int] = frozenset(),
    ) -> Greeting:
        """The `lines` messages for a spectator `reader` (a user id, or None, who blocked
        the members `blocked`), read with `read()` when nothing fresh is held: the
        spectators' room's, then the players' room's when it is shown to them."""
        room = self.rooms.get(match_id)
        if room is None or (room.ready.done() and clock.monotonic() - room.read_at > FRESH):
            loop = asyncio.get_running_loop()
            room = self.rooms[match_id] = _Room(clock.monotonic(), loop.create_future())
            try:
                found = await read()
            except BaseException as exc:
                if self.rooms.get(match_id) is room:
                    del self.rooms[match_id]
                room.ready.set_exception(exc)
                room.ready.exception()  # retrieved, though nobody may be waiting
                raise
            # Lines heard meanwhile are merged by id; a players' line heard meanwhile saying
            # the players' room is no longer shown has the last word, and one saying it is
            # shown when the read found it was not has the next greeting read again.
            if room.players_shown is None:
                room.players_shown = found.players_shown
                if not found.players_shown and room.players:
                    room.players.clear()
                    room.read_at = float("-inf")
            for line in found.spectators:
                _add(room.spectators, line)
            for line in found.players if room.players_shown else ():
                _add(room.players, line)
            room.ready.set_result(None)
        else:
            await asyncio.shield(room.ready)
        texts = [self._lines(room, "spectators", reader, blocked)]
        if room.players_shown:
            texts.append(self._lines(room, "players", reader, blocked))
        return Greeting(texts, bool(room.players_shown))

    @staticmethod
    def _lines(room: _Room, which: server_out.ChatRoom, reader: int | None,
               blocked: frozenset[int]) -> str:  # fmt: skip
        shown = [
            held.line
            for _, held in sorted(room.lines(which).items())
            if shown_to(held.author, held.shadow, reader, blocked)
        ][-HISTORY:]
        lines = [server_out.LineOut.model_validate(line) for line in shown]
        return server_out.Lines(room=which, lines=lines).text()

    def forget(self, match_id: int) -> None:
        self.rooms.pop(match_id, None)

    def reset(self) -> None:
        self.rooms.clear()


HELD = _Held()
