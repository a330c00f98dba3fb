"""What one server process keeps across its match sockets, so that no cost grows with them.

- `HEARTBEATS`: one presence write per beat for all the process's sockets, a sweep of rows a
  dead process left behind, and presence re-read for the matches served here and broadcast
  only when it changed, coalesced (a crowd arriving costs one broadcast, not one each).
- `CLOCKS`: one shot-clock timer per match, not one per socket.
- `GATE`: how many sockets each address and each match holds here, against the caps.
- `LATEST`: the newest event version known per match, so a ping costs no database read unless
  the socket is behind.
- `play`: the players' requests run on a database thread of their own, so that no crowd's
  comings and goings (queued on channels' one shared database thread) delay a stroke.

The channel layer carries events between processes; the database holds the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, TypedDict, TypeVar

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.db import connection
from django.utils import timezone

from game import service
from game.models import Match
from game.protocol import server_out
from game.signals import match_changed
from rules.state import Player

_T = TypeVar("_T")
_PLAY = ThreadPoolExecutor(max_workers=1, thread_name_prefix="play")


async def play(work: Callable[..., _T], *args: Any) -> _T:
    """Run a player's request (or the shot clock's) on the players' own database thread. On
    SQLite, which takes one writer at a time whatever the threads (and whose shared in-memory
    test database answers a second thread's write with "table is locked"), on the shared one."""
    if connection.vendor == "sqlite":
        run = DatabaseSyncToAsync(work)
    else:
        run = DatabaseSyncToAsync(work, thread_sensitive=False, executor=_PLAY)
    result: _T = await run(*args)
    return result


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


# --- what travels on the channel layer between processes (msgpack: no datetimes) -------------
class EventMessage(TypedDict):
    type: str  # "match.event"
    version: int
    text: str  # the stored event, sent as is
    deadline: float | None  # the shot clock's deadline after it, as a POSIX time
    aimer: Player | None  # who may aim after it
    in_hand: bool


class AimMessage(TypedDict):
    type: str  # "match.aim"
    text: str
    sender: str  # the striker's own channel, which does not echo it back


class PresenceMessage(TypedDict):
    type: str  # "match.presence"
    text: str


class ClockMessage(TypedDict):
    type: str  # "match.clock"
    version: int
    deadline: float  # POSIX time


async def start_clock(match_id: int, start: service.ClockStart) -> None:
    """The shot clock started without an event (both players are here): every socket of the
    match arms its process's timer and tells its browser."""
    message: ClockMessage = {
        "type": "match.clock", "version": start.version, "deadline": start.deadline.timestamp(),
    }  # fmt: skip
    await _layer().group_send(group_name(match_id), dict(message))


async def publish(match_id: int, stored: service.Stored) -> None:
    """Send a stored event to every socket of the match, in every process."""
    turn = stored.turn
    message: EventMessage = {
        "type": "match.event", "version": stored.version, "text": stored.text,
        "deadline": turn.deadline.timestamp() if turn.deadline else None,
        "aimer": turn.aimer, "in_hand": turn.in_hand,
    }  # fmt: skip
    await _layer().group_send(group_name(match_id), dict(message))
    match_changed.send(sender=Match, match_id=match_id)


def turn_of(message: EventMessage) -> service.Turn:
    stamp = message["deadline"]
    deadline = datetime.fromtimestamp(stamp, UTC) if stamp is not None else None
    return service.Turn(deadline, message["aimer"], message["in_hand"])


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer


# --- presence --------------------------------------------------------------------------------
class _Heartbeats:
    """Presence rows refreshed by one write per beat, so a dead process's rows go stale; the
    same beat sweeps stale rows away and re-reads presence for the matches served here, so a
    player whose process died (and who did not come back) turns absent for everyone. A
    socket's row leaves this registry however its consumer ends, and is never refreshed again.
    """

    def __init__(self) -> None:
        self.channels: dict[str, int] = {}  # channel name -> match id
        self.presence: dict[int, server_out.Presence] = {}  # match id -> last presence sent
        self.dirty: set[int] = set()  # matches whose presence may have changed
        self.flushing: asyncio.Task[None] | None = None
        self.task: asyncio.Task[None] | None = None

    def add(self, channel_name: str, match_id: int) -> None:
        self.channels[channel_name] = match_id
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def discard(self, channel_name: str) -> None:
        match_id = self.channels.pop(channel_name, None)
        if match_id is not None and match_id not in self.channels.values():
            CLOCKS.release(match_id)  # the last socket of that match here has gone
            LATEST.pop(match_id, None)

    def reset(self) -> None:
        """Forget every socket and stop beating (tests start each from a clean process)."""
        for task in (self.task, self.flushing):
            _cancel(task)
        self.__init__()  # type: ignore[misc]

    def changed(self, match_id: int) -> None:
        """Someone came or went: broadcast the match's presence soon, once for a crowd."""
        self.dirty.add(match_id)
        if self.flushing is None or self.flushing.done():
            self.flushing = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await asyncio.sleep(settings.SNOOKER["PRESENCE_COALESCE"])
        await self._flush(beat=False)

    async def _flush(self, beat: bool) -> None:
        """Broadcast the presence that changed: a player's coming or going at once, a new
        count of spectators only with the heartbeat (a crowd's churn would otherwise cost a
        message to every socket twice a second)."""
        matches = sorted(self.dirty)
        self.dirty.clear()
        if not matches:
            return
        infos = await database_sync_to_async(service.presences)(matches)
        for match_id, info in zip(matches, infos, strict=True):
            last = self.presence.get(match_id)
            if last == info or (not beat and last is not None and last.players == info.players):
                continue
            self.presence[match_id] = info
            message: PresenceMessage = {"type": "match.presence", "text": info.text()}
            await _layer().group_send(group_name(match_id), dict(message))
            if last is None or last.spectators != info.spectators:
                match_changed.send(sender=Match, match_id=match_id)  # the number watching

    async def _run(self) -> None:
        # Half a heartbeat between looks: a dead process's rows are stale 1.5 beats after its
        # last write and seen here within half a beat more, two beats in all.
        while self.channels:
            await asyncio.sleep(settings.SNOOKER["HEARTBEAT"] / 2)
            if not self.channels:
                break
            versions = await database_sync_to_async(service.beat)(sorted(self.channels))
            LATEST.update({m: max(v, LATEST.get(m, 0)) for m, v in versions.items()})
            self.dirty.update(self.channels.values())
            await self._flush(beat=True)
        self.presence.clear()


HEARTBEATS = _Heartbeats()


# --- the shot clock ----------------------------------------------------------------------------
class _ShotClocks:
    """One shot-clock timer per match per process, however many of its sockets are here.

    Every event tells the sockets the new deadline; the first to hear of a version arms the
    match's timer and the others find it armed. When it fires, the service settles the time
    foul; its version check makes that happen once across all processes.
    """

    def __init__(self) -> None:
        self.timers: dict[int, tuple[int, asyncio.Task[None]]] = {}  # match id -> version, timer

    def arm(self, match_id: int, version: int, deadline: datetime | None) -> None:
        armed = self.timers.get(match_id)
        if armed is not None:
            if armed[0] >= version:
                return  # armed for this version already, or for a later one
            armed[1].cancel()
            del self.timers[match_id]
        if deadline is not None:
            task = asyncio.get_running_loop().create_task(self._expire(match_id, version, deadline))
            self.timers[match_id] = (version, task)

    def release(self, match_id: int) -> None:
        armed = self.timers.pop(match_id, None)
        if armed is not None:
            armed[1].cancel()

    def reset(self) -> None:
        for _, task in self.timers.values():
            _cancel(task)
        self.timers.clear()

    async def _expire(self, match_id: int, version: int, deadline: datetime) -> None:
        await asyncio.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 0.05)
        with contextlib.suppress(Match.DoesNotExist):
            expired = await play(service.expire_shot_clock, match_id, version)
            for stored in expired:
                await publish(match_id, stored)


CLOCKS = _ShotClocks()


# --- admission -----------------------------------------------------------------------------------
class _Gate:
    """Sockets held here per address and per match, against the caps; addresses that flooded
    wait a while. Players are exempt: a crowd must never keep them from their own table."""

    def __init__(self) -> None:
        self.addresses: Counter[str] = Counter()
        self.matches: Counter[int] = Counter()
        self.penalised: dict[str, float] = {}  # address -> until when it is turned away

    def admit(
        self, address: str, match_id: int, seated: bool, cap: int | None = None
    ) -> str | None:
        """Take a place, or say why not. A player always gets one: their own rate limit
        bounds what they cost, and nobody sharing their address may keep them out. `match_id`
        is any room's key (the club's sockets use negative ones, with a `cap` of their own)."""
        conf = settings.SNOOKER
        if not seated:
            if self.turned_away(address):
                return "this address flooded a match; wait a little"
            if self.addresses[address] >= conf["MAX_SOCKETS_PER_ADDRESS"]:
                return "too many connections from this address"
            if self.matches[match_id] >= (cap or conf["MAX_SOCKETS_PER_MATCH"]):
                return "this room has as many sockets as it can take"
        self.addresses[address] += 1
        self.matches[match_id] += 1
        return None

    def turned_away(self, address: str) -> bool:
        until = self.penalised.get(address)
        if until is not None and until <= time.monotonic():
            del self.penalised[address]
            return False
        return until is not None

    def penalise(self, address: str) -> None:
        """A socket from `address` was closed for flooding: its sockets that reconnect at once
        would cost a handshake and a hello each, so the address waits a while."""
        self.penalised[address] = time.monotonic() + settings.SNOOKER["FLOOD_PENALTY"]

    def leave(self, address: str, match_id: int) -> None:
        self.addresses[address] -= 1
        self.matches[match_id] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]
        if self.matches[match_id] <= 0:
            del self.matches[match_id]

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]


GATE = _Gate()


class TurnAway:
    """ASGI middleware in front of the websocket stack: a handshake from an address that was
    turned away for flooding, and that carries no session (so cannot be a player's), is
    refused before sessions, authentication and a consumer are set up for it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and GATE.penalised:
            client = scope.get("client") or ("unknown", 0)
            cookies = dict(scope.get("headers", ())).get(b"cookie", b"")
            member = settings.SESSION_COOKIE_NAME.encode() in cookies
            if not member and GATE.turned_away(client[0]):
                await WebsocketDenier()(scope, receive, send)
                return
        await self.app(scope, receive, send)

# The newest event version this process knows of, per match it serves.
LATEST: dict[int, int] = {}


# --- flood control ---------------------------------------------------------------------------
class Bucket:
    """Token bucket: `burst` messages at once, refilled at `rate` per second."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Flood:
    """A run of refused messages with no pause as long as `gap` between them. A run that
    lasts `limit` seconds is a flood, at whatever rate it comes (a sender just over the rate
    is refused about once a second; one far over it, all the time)."""

    def __init__(self, limit: float, gap: float = 2.0) -> None:
        self.limit, self.gap = limit, gap
        self.started: float | None = None
        self.last = 0.0

    def refused(self) -> tuple[bool, bool]:
        """Count a refusal: (the first of a run, the run is a flood)."""
        now = time.monotonic()
        first = self.started is None or now - self.last > self.gap
        if first:
            self.started = now
        self.last = now
        assert self.started is not None
        return first, now - self.started >= self.limit


# Tasks that outlive their consumer (its clean-up after it was cancelled), kept from the
# garbage collector until they finish.
_DETACHED: set[asyncio.Task[None]] = set()


def detach(work: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(work)
    _DETACHED.add(task)
    task.add_done_callback(_DETACHED.discard)


def _cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None and not task.get_loop().is_closed():
        task.cancel()


def reset() -> None:
    """A clean process (tests: each runs on its own event loop)."""
    for task in list(_DETACHED):
        _cancel(task)
    _DETACHED.clear()
    HEARTBEATS.reset()
    CLOCKS.reset()
    GATE.reset()
    LATEST.clear()
