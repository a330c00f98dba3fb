"""Presence kept by one server process for all its match sockets, so that no cost grows with
them: one presence write per beat for all the process's sockets, a sweep of rows a dead
process left behind, and presence re-read for the matches served here and broadcast only when
it changed, coalesced (a crowd arriving costs one broadcast, not one each)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings

from game import clock, presence
from game.broadcast import LATEST, tell_presence
from game.fanout import FANOUT
from game.greetings import TABLES
from game.models import Match
from game.protocol import CLOSE_UNAVAILABLE, server_out
from game.shotclocks import CLOCKS
from game.signals import match_changed
from game.supervise import Watch
from game.work import cancel, keep_presence

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
        self.seats: dict[str, str] = {}  # the others': channel name -> the seat its row holds
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
        self.watch = Watch("presence heartbeat", lambda: settings.SNOOKER["HEARTBEAT"] / 2)
        self.watch.wanted = lambda: bool(self.channels)
        # The beat's broadcast, apart from its writes: a channel layer that hangs (Redis
        # stopped, not gone) holds up the telling, never the next write (issue 37).
        self.telling: asyncio.Task[None] | None = None
        self.told = Watch("presence broadcast", lambda: settings.SNOOKER["HEARTBEAT"] / 2)
        self.told.wanted = lambda: bool(self.channels)
        self.told.alive = lambda: self.task is not None and not self.task.done()

    def add(self, channel_name: str, match_id: int, seat: str) -> None:
        """A greeted socket, with the seat its row holds ("" for a spectator); a spectator's
        row is written with the next presence flush (a player's was written by
        `presence.connect`: their arrival counts at once)."""
        self.channels[channel_name] = match_id
        if seat:
            self.seats[channel_name] = seat
        else:
            self.spectators.add(channel_name)
            self.arrived[channel_name] = match_id
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = self.watch.task = loop.create_task(self._run())
        self.changed(match_id)

    def discard(self, channel_name: str) -> None:
        match_id = self.channels.pop(channel_name, None)
        if match_id is None:
            return
        self.seats.pop(channel_name, None)
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
        for task in (self.task, self.flushing, self.telling, *self.held.values()):
            cancel(task)
        self.__init__()  # type: ignore[misc]

    def changed(self, match_id: int) -> None:
        """Someone came or went: broadcast the match's presence soon, once for a crowd."""
        self.dirty.add(match_id)
        if self.flushing is None or self.flushing.done():
            self.flushing = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        # Until nothing is left: a coming or going while the last flush was being read finds
        # this task still running (`changed` starts none), and must not wait for the beat.
        while self.dirty:
            await clock.sleep(settings.SNOOKER["PRESENCE_COALESCE"])
            try:
                await self._flush(beat=False)
            except Exception as exc:  # the next beat flushes what is left (`dirty`)
                self.told.failed(exc)
                return

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
        # What was told of a match no socket here serves any more (its last one's going, told
        # above) is forgotten: the process keeps presence for the matches it serves, not for
        # every match it ever served (a held going keeps it until it is told).
        served = set(self.channels.values())
        for match_id in matches:
            if match_id not in served and match_id not in self.held:
                self.presence.pop(match_id, None)
                self.counted.pop(match_id, None)

    async def _look_again(self, wait: float, match_id: int) -> None:
        await clock.sleep(wait)
        self.held.pop(match_id, None)
        self.changed(match_id)

    async def _write(self, then: Callable[[_K], _T], keys: _K) -> _T:
        """Write the spectators' comings and goings since the last time, then `then(keys)`,
        in one trip to the database thread."""
        arrived, left = self.arrived, self.left
        self.arrived, self.left, self.writing = {}, set(), set(arrived)

        def write() -> _T:
            presence.spectators(arrived, sorted(left))
            return then(keys)

        try:
            return await keep_presence(write)
        except BaseException:
            # Not written: keep them for the next time (those gone meanwhile, as gone).
            self.arrived |= {c: m for c, m in arrived.items() if c in self.spectators}
            self.left |= left | {c for c in arrived if c not in self.spectators}
            raise
        finally:
            self.writing = set()

    async def _close_all(self) -> None:
        """This process has not written its sockets' rows for longer than the stale limit:
        the other processes take them for a dead process's. So they are: each of its match
        sockets is closed with the code its page reconnects on, through the proxy, to a
        process that can write (or to this one once it can). A player cut off with this
        process alone is then back at the table within the grace, and cannot be claimed
        against for it (issue 37)."""
        sockets = [
            s for relay in FANOUT.relays.values() for s in (*relay.players, *relay.spectators)
        ]
        for socket in sockets:
            with contextlib.suppress(Exception):
                await socket.close(code=CLOSE_UNAVAILABLE)

    def _sockets(self) -> dict[str, tuple[int, str]]:
        """Every socket here: channel name -> match id and the seat its row holds."""
        return {c: (m, self.seats.get(c, "")) for c, m in sorted(self.channels.items())}

    async def _run(self) -> None:
        # Half a heartbeat between looks: a dead process's rows are stale 1.5 beats after its
        # last write and seen here within half a beat more, two beats in all. A beat that
        # fails (the database away) ends nothing: the next one writes again, and re-creates
        # the rows another process swept meanwhile (`presence.beat`). The writes wait for
        # nothing else: not for the broadcast of what they found (`_tell`), nor behind other
        # database work (their own thread): a Redis that hangs must not leave a connected
        # player's rows stale for the other processes to sweep and claim against (issue 37).
        while self.channels:
            await clock.sleep(settings.SNOOKER["HEARTBEAT"] / 2)
            if not self.channels:
                break
            try:
                versions = await self._write(presence.beat, self._sockets())
            except Exception as exc:
                self.dirty.update(self.channels.values())
                self.watch.failed(exc)
                if self.watch.failing_for() > settings.SNOOKER["CONNECTION_STALE"]:
                    await self._close_all()
                continue
            self.watch.ok()
            LATEST.update({m: max(v, LATEST.get(m, 0)) for m, v in versions.items()})
            self.dirty.update(self.channels.values())
            if self.telling is None or self.telling.done():
                self.telling = asyncio.get_running_loop().create_task(self._tell())
        self.presence.clear()
        self.counted.clear()

    async def _tell(self) -> None:
        """The beat's presence, read and broadcast where it changed; a failure is tried again
        with the next beat (`dirty` keeps what is left)."""
        try:
            await self._flush(beat=True)
        except Exception as exc:
            self.dirty.update(self.channels.values())
            self.told.failed(exc)
        else:
            self.told.ok()


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
