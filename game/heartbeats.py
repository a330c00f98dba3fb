"""Presence kept by one server process for all its match sockets, so that no cost grows with
them: one presence write per beat for all the process's sockets, a sweep of rows a dead
process left behind, and presence re-read for the matches served here and broadcast only when
it changed, coalesced (a crowd arriving costs one broadcast, not one each)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

from game import clock, presence
from game.broadcast import LATEST, tell_presence
from game.greetings import TABLES
from game.models import Match
from game.protocol import server_out
from game.shotclocks import CLOCKS
from game.signals import match_changed
from game.work import cancel

_T = TypeVar("_T")
_K = TypeVar("_K")


class _Heartbeats:
    """Presence rows refreshed by one write per beat, so a dead process's rows go stale; the
    same beat sweeps stale rows away and re-reads presence for the matches served here, so a
    player whose process died (and who did not come back) turns absent for everyone. A
    socket's row leaves this registry however its consumer ends, and is never refreshed again.
    """

    def __init__(self) -> None:
        self.channels: dict[str, int] = {}  # channel name -> match id
        self.spectators: set[str] = set()  # channels of the above that hold no seat
        # Spectators' rows are written with the next presence broadcast, all in one go.
        self.arrived: dict[str, int] = {}  # not written yet: channel name -> match id
        self.writing: set[str] = set()  # being written now
        self.left: set[str] = set()  # written, to be deleted
        self.presence: dict[int, server_out.Presence] = {}  # match id -> last presence sent
        self.counted: dict[int, float] = {}  # match id -> when a new count alone was sent
        self.dirty: set[int] = set()  # matches whose presence may have changed
        self.held: dict[int, asyncio.Task[None]] = {}  # a going not told yet: `_told_later`
        self.flushing: asyncio.Task[None] | None = None
        self.task: asyncio.Task[None] | None = None

    def add(self, channel_name: str, match_id: int, seated: bool) -> None:
        """A greeted socket; a spectator's row is written with the next presence flush (a
        player's was written by `presence.connect`: their arrival counts at once)."""
        self.channels[channel_name] = match_id
        if not seated:
            self.spectators.add(channel_name)
            self.arrived[channel_name] = match_id
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())
        self.changed(match_id)

    def discard(self, channel_name: str) -> None:
        match_id = self.channels.pop(channel_name, None)
        if match_id is None:
            return
        if channel_name in self.spectators:
            self.spectators.discard(channel_name)
            if self.arrived.pop(channel_name, None) is None or channel_name in self.writing:
                self.left.add(channel_name)  # its row is (or is being) written: delete it
            self.changed(match_id)
        if match_id not in self.channels.values():
            CLOCKS.release(match_id)  # the last socket of that match here has gone
            LATEST.pop(match_id, None)
            TABLES.forget(match_id)
            self.counted.pop(match_id, None)

    def reset(self) -> None:
        """Forget every socket and stop beating (tests start each from a clean process)."""
        for task in (self.task, self.flushing, *self.held.values()):
            cancel(task)
        self.__init__()  # type: ignore[misc]

    def changed(self, match_id: int) -> None:
        """Someone came or went: broadcast the match's presence soon, once for a crowd."""
        self.dirty.add(match_id)
        if self.flushing is None or self.flushing.done():
            self.flushing = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await clock.sleep(settings.SNOOKER["PRESENCE_COALESCE"])
        await self._flush(beat=False)

    async def _flush(self, beat: bool) -> None:
        """Broadcast the presence that changed: a player's coming or going at once, a new
        count of spectators only with the heartbeat, and then at most once every
        `SPECTATOR_COUNT_EVERY` seconds. Each broadcast is a message to every socket of the
        match (a thousand of them take the event loop a tenth of a second): a crowd's churn
        must not cost that every beat, nor hold up the players' strokes behind it."""
        matches = sorted(self.dirty)
        self.dirty.clear()
        if not matches:
            return
        infos = await self._write(presence.presences, matches)
        now = clock.monotonic()
        for match_id, info in zip(matches, infos, strict=True):
            last = self.presence.get(match_id)
            if last == info:
                continue
            wait = _told_later(last, info)
            if wait is not None:  # looked at again then: by then a reload has come back
                cancel(self.held.get(match_id))
                loop = asyncio.get_running_loop()
                self.held[match_id] = loop.create_task(self._look_again(wait, match_id))
                continue
            if last is not None and last.players == info.players:
                counted = self.counted.get(match_id)
                every = settings.SNOOKER["SPECTATOR_COUNT_EVERY"]
                if not beat or (counted is not None and now - counted < every):
                    continue
                self.counted[match_id] = now
            self.presence[match_id] = info
            await tell_presence(match_id, info)
            if last is None or last.spectators != info.spectators:
                match_changed.send(sender=Match, match_id=match_id)  # the number watching

    async def _look_again(self, wait: float, match_id: int) -> None:
        await clock.sleep(wait)
        self.held.pop(match_id, None)
        self.changed(match_id)

    async def _write(self, then: Callable[[list[_K]], _T], keys: list[_K]) -> _T:
        """Write the spectators' comings and goings since the last time, then `then(keys)`,
        in one trip to the database thread."""
        arrived, left = self.arrived, self.left
        self.arrived, self.left, self.writing = {}, set(), set(arrived)

        def write() -> _T:
            presence.spectators(arrived, sorted(left))
            return then(keys)

        try:
            return await database_sync_to_async(write)()
        except BaseException:
            # Not written: keep them for the next time (those gone meanwhile, as gone).
            self.arrived |= {c: m for c, m in arrived.items() if c in self.spectators}
            self.left |= left | {c for c in arrived if c not in self.spectators}
            raise
        finally:
            self.writing = set()

    async def _run(self) -> None:
        # Half a heartbeat between looks: a dead process's rows are stale 1.5 beats after its
        # last write and seen here within half a beat more, two beats in all.
        while self.channels:
            await clock.sleep(settings.SNOOKER["HEARTBEAT"] / 2)
            if not self.channels:
                break
            versions = await self._write(presence.beat, sorted(self.channels))
            LATEST.update({m: max(v, LATEST.get(m, 0)) for m, v in versions.items()})
            self.dirty.update(self.channels.values())
            await self._flush(beat=True)
        self.presence.clear()
        self.counted.clear()


HEARTBEATS = _Heartbeats()


def _told_later(last: server_out.Presence | None, info: server_out.Presence) -> float | None:
    """Seconds to wait before telling `info`, when it says that a player who was at the table
    went away less than `AWAY_NOTICE` ago. A reload closes the page's socket and opens another
    a second or so later: told at once, the opponent read that they had left and might be
    claimed against. The claim rule reads the stored absence from its start
    (rules/presence.py): only the telling waits, and a player back in time is never told gone.
    """
    if last is None:
        return None
    notice = settings.SNOOKER["AWAY_NOTICE"]
    now = clock.now()
    wait = 0.0
    for seat, seen in info.players.items():
        if last.players[seat].online and not seen.online and seen.away_since is not None:
            wait = max(wait, notice - (now - seen.away_since).total_seconds())
    return wait if wait > 0 else None
