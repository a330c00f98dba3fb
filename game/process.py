"""What one server process keeps across its match sockets, so that no cost grows with them.

- `HEARTBEATS`: one presence write per beat for all the process's sockets, a sweep of rows a
  dead process left behind, and presence re-read for the matches served here and broadcast
  only when it changed, coalesced (a crowd arriving costs one broadcast, not one each).
- `CLOCKS`: one shot-clock timer per match, not one per socket.
- `GATE`: how many sockets each address and each match holds here, against the caps.
- `LATEST`: the newest event version known per match, so a ping costs no database read unless
  the socket is behind.
- `TABLES`: per match, the spectators' welcome at the newest version and the latest events,
  so a crowd (or a storm of strangers) arriving or catching up costs one read per version.
- `FANOUT` (game/fanout.py): one channel per process in each match group it serves, and a
  relay that hands each broadcast to the match's sockets here.
- `play`: the players' requests run on a database thread of their own, so that no crowd's
  comings and goings (queued on channels' one shared database thread) delay a stroke.

The channel layer carries events between processes; the database holds the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import import_module
from typing import Any, TypedDict, TypeVar

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from django.http.cookie import parse_cookie
from django.utils import timezone

from game import addresses, service
from game.models import Match
from game.origins import refuse
from game.protocol import server_out
from game.signals import match_changed
from rules.state import Player

log = logging.getLogger(__name__)
_T = TypeVar("_T")
_K = TypeVar("_K")
_PLAY = ThreadPoolExecutor(max_workers=1, thread_name_prefix="play")


async def play(work: Callable[..., _T], *args: Any) -> _T:
    """Run a player's request (or the shot clock's) on the players' own database thread, not
    queued behind a crowd's work on channels' shared one. SQLite's shared in-memory test
    database answers a second thread's write with "table is locked": there, the shared one
    (a file waits its turn for the write lock: WAL and IMMEDIATE transactions, settings.py)."""
    db = connections[DEFAULT_DB_ALIAS]
    if isinstance(db, SQLiteWrapper) and db.is_in_memory_db():
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


async def tell_presence(match_id: int, presence: server_out.Presence) -> None:
    """Send a match's presence to every socket of it, in every process."""
    message: PresenceMessage = {"type": "match.presence", "text": presence.text()}
    await _layer().group_send(group_name(match_id), dict(message))


async def publish(
    match_id: int,
    stored: service.Stored,
    first: Callable[[EventMessage], Awaitable[None]] | None = None,
) -> None:
    """Send a stored event to every socket of the match, in every process: to `first` (the
    striker's own socket) before the channel layer's round trip."""
    turn = stored.turn
    # Known here before any socket hears it: a spectator greeted meanwhile from TABLES must
    # not be given the version before it (the event may reach the group before the socket).
    LATEST[match_id] = max(stored.version, LATEST.get(match_id, 0))
    message: EventMessage = {
        "type": "match.event", "version": stored.version, "text": stored.text,
        "deadline": turn.deadline.timestamp() if turn.deadline else None,
        "aimer": turn.aimer, "in_hand": turn.in_hand,
    }  # fmt: skip
    if first is not None:
        try:
            await first(message)
        except Exception:  # the striker's socket failing must not keep it from the others
            log.exception("the striker's socket failed to take event %s", stored.version)
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
        self.spectators: set[str] = set()  # channels of the above that hold no seat
        # Spectators' rows are written with the next presence broadcast, all in one go.
        self.arrived: dict[str, int] = {}  # not written yet: channel name -> match id
        self.writing: set[str] = set()  # being written now
        self.left: set[str] = set()  # written, to be deleted
        self.presence: dict[int, server_out.Presence] = {}  # match id -> last presence sent
        self.counted: dict[int, float] = {}  # match id -> when a new count alone was sent
        self.dirty: set[int] = set()  # matches whose presence may have changed
        self.held: dict[int, asyncio.TimerHandle] = {}  # a going not told yet: `_told_later`
        self.flushing: asyncio.Task[None] | None = None
        self.task: asyncio.Task[None] | None = None

    def add(self, channel_name: str, match_id: int, seated: bool) -> None:
        """A greeted socket; a spectator's row is written with the next presence flush (a
        player's was written by `service.connect`: their arrival counts at once)."""
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
        for task in (self.task, self.flushing):
            _cancel(task)
        for handle in self.held.values():
            handle.cancel()
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
        count of spectators only with the heartbeat, and then at most once every
        `SPECTATOR_COUNT_EVERY` seconds. Each broadcast is a message to every socket of the
        match (a thousand of them take the event loop a tenth of a second): a crowd's churn
        must not cost that every beat, nor hold up the players' strokes behind it."""
        matches = sorted(self.dirty)
        self.dirty.clear()
        if not matches:
            return
        infos = await self._write(service.presences, matches)
        now = time.monotonic()
        for match_id, info in zip(matches, infos, strict=True):
            last = self.presence.get(match_id)
            if last == info:
                continue
            wait = _told_later(last, info)
            if wait is not None:  # looked at again then: by then a reload has come back
                if match_id in self.held:
                    self.held[match_id].cancel()
                loop = asyncio.get_running_loop()
                self.held[match_id] = loop.call_later(wait, self.changed, match_id)
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

    async def _write(self, then: Callable[[list[_K]], _T], keys: list[_K]) -> _T:
        """Write the spectators' comings and goings since the last time, then `then(keys)`,
        in one trip to the database thread."""
        arrived, left = self.arrived, self.left
        self.arrived, self.left, self.writing = {}, set(), set(arrived)

        def write() -> _T:
            service.spectators(arrived, sorted(left))
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
            await asyncio.sleep(settings.SNOOKER["HEARTBEAT"] / 2)
            if not self.channels:
                break
            versions = await self._write(service.beat, sorted(self.channels))
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
    now = timezone.now()
    wait = 0.0
    for seat, seen in info.players.items():
        if last.players[seat].online and not seen.online and seen.away_since is not None:
            wait = max(wait, notice - (now - seen.away_since).total_seconds())
    return wait if wait > 0 else None


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
    """Sockets held here per address and per match, against the caps; how fast each address
    opens new ones; addresses that flooded wait a while, longer each time they come back to
    flood again. Players are exempt: a crowd must never keep them from their own table."""

    def __init__(self) -> None:
        self.addresses: Counter[str] = Counter()
        self.matches: Counter[int] = Counter()
        self.penalised: dict[str, float] = {}  # address -> until when it is turned away
        self.strikes: dict[str, tuple[int, float]] = {}  # address -> floods, last one's end
        self.knocks: dict[str, Bucket] = {}  # address -> its strangers' handshakes
        self.lookups: dict[str, Bucket] = {}  # address -> its session cookies read
        self.swept = time.monotonic()

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

    def knock(self, address: str) -> bool:
        """A stranger's handshake from `address`, within the address's rate or not. Each one
        let in costs a handshake, a consumer and a hello: a storm of them (a crowd of sockets
        coming back together) would hold up every match on the process."""
        return self._take(self.knocks, address)

    def look_up(self, address: str) -> bool:
        """A session cookie from `address` not yet known to this process may be read (one
        database read each): at the strangers' rate too, so that made-up cookies cost no more
        than strangers' handshakes."""
        return self._take(self.lookups, address)

    def _take(self, buckets: dict[str, Bucket], address: str) -> bool:
        now = time.monotonic()
        if now - self.swept > 60:
            self._sweep(now)
        bucket = buckets.get(address)
        if bucket is None:
            conf = settings.SNOOKER
            bucket = buckets[address] = Bucket(
                conf["HANDSHAKE_BURST"], conf["HANDSHAKE_PER_SECOND"]
            )
        return bucket.take()

    def turned_away(self, address: str) -> bool:
        until = self.penalised.get(address)
        if until is not None and until <= time.monotonic():
            del self.penalised[address]
            return False
        return until is not None

    def penalise(self, address: str) -> None:
        """A socket from `address` was closed for flooding: its sockets that reconnect at once
        would cost a handshake and a hello each, so the address waits a while: twice as long
        as last time if it floods again soon after its wait (up to a limit), and a random
        part longer or shorter, so that addresses caught together do not come back together.
        Its other sockets flooding meanwhile are the same offence."""
        if self.turned_away(address):
            return
        conf, now = settings.SNOOKER, time.monotonic()
        strikes, ended = self.strikes.get(address, (0, now))
        if now - ended > conf["FLOOD_FORGIVE"]:
            strikes = 0
        wait = min(conf["FLOOD_PENALTY"] * 2**strikes, conf["FLOOD_PENALTY_MAX"])
        until = now + wait * _JITTER.uniform(0.8, 1.2)
        self.penalised[address] = until
        self.strikes[address] = (strikes + 1, until)

    def _sweep(self, now: float) -> None:
        """Forget what no longer limits anyone: full buckets, forgiven floods."""
        self.swept = now
        self.knocks = {a: b for a, b in self.knocks.items() if not b.full()}
        self.lookups = {a: b for a, b in self.lookups.items() if not b.full()}
        forgive = settings.SNOOKER["FLOOD_FORGIVE"]
        self.strikes = {a: s for a, s in self.strikes.items() if now - s[1] <= forgive}

    def leave(self, address: str, match_id: int) -> None:
        self.addresses[address] -= 1
        self.matches[match_id] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]
        if self.matches[match_id] <= 0:
            del self.matches[match_id]

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]


_JITTER = random.Random()  # not a secret: only spreads out when penalties end


GATE = _Gate()


class _Sessions:
    """Which session keys name a member's live session (a signed-in user's, not expired),
    remembered for a minute either way: a player's reconnections cost no read, and a cookie
    made up (`sessionid=x`) lets nobody past the strangers' rate. A key this process has not
    seen is read at most at the address's lookup rate (`GATE.look_up`)."""

    TTL = 60.0
    KEPT = 20_000

    def __init__(self) -> None:
        self.known: dict[str, tuple[bool, float]] = {}  # key -> live, when read

    async def live(self, key: str, address: str) -> bool:
        now = time.monotonic()
        seen = self.known.get(key)
        if seen is not None and now - seen[1] < self.TTL:
            return seen[0]
        if not _SESSION_KEY.fullmatch(key) or not GATE.look_up(address):
            return False
        alive = await _signed_in(key)
        if len(self.known) >= self.KEPT:
            self.known = {k: v for k, v in self.known.items() if now - v[1] < self.TTL}
            if len(self.known) >= self.KEPT:
                self.known.clear()
        self.known[key] = (alive, now)
        return alive

    def reset(self) -> None:
        self.known.clear()


_SESSION_KEY = re.compile(r"[a-z0-9]{8,64}")  # Django's keys: 32 of these


@database_sync_to_async
def _signed_in(key: str) -> bool:
    # The session engine's own read: an expired or unknown key loads as an empty session.
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    return store.get(SESSION_KEY) is not None


SESSIONS = _Sessions()


def session_key(scope: Any) -> str | None:
    cookies = b"; ".join(value for name, value in scope.get("headers", ()) if name == b"cookie")
    return parse_cookie(cookies.decode("latin-1")).get(settings.SESSION_COOKIE_NAME) or None


class TurnAway:
    """ASGI middleware in front of the websocket stack: finds the socket's client address once
    (game.addresses: the right hop of X-Forwarded-For; kept in the scope as
    "address"); a handshake that names no member's live session (so cannot be a player's)
    from an address turned away for flooding, or over its rate of new sockets, is refused
    before sessions, authentication and a consumer are set up."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            address = addresses.of_scope(scope)
            scope = {**scope, "address": address}
            key = session_key(scope)
            member = key is not None and await SESSIONS.live(key, address)
            if not member and (GATE.turned_away(address) or not GATE.knock(address)):
                await refuse(receive, send)
                return
        await self.app(scope, receive, send)


# The newest event version this process knows of, per match it serves.
LATEST: dict[int, int] = {}


# --- greeting spectators ---------------------------------------------------------------------
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
    turn: service.Turn


@dataclass(slots=True)
class _Table:
    full: Greeting  # a spectator's, with the snapshot and the frame's log, read from the database
    events: dict[int, tuple[str, service.Turn]] = field(default_factory=dict)  # the latest


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

    def heard(self, match_id: int, version: int, text: str, turn: service.Turn) -> None:
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

    def after(self, match_id: int, version: int) -> service.Missed | None:
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
        return service.Missed(texts, newest, turn) if len(texts) == len(heard) else None

    def forget(self, match_id: int) -> None:
        self.tables.pop(match_id, None)

    def reset(self) -> None:
        self.tables.clear()


TABLES = _Tables()


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

    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst


class Flood:
    """A run of refused messages with no pause as long as `gap` between them. A run that
    lasts `limit` seconds is a flood, at whatever rate it comes (a sender just over the rate
    is refused about once a second; one far over it, all the time); so is a run of `most`
    refusals, however short: a socket far over the rate is closed at once, not after seconds
    of messages that each cost a read and a dispatch."""

    def __init__(self, limit: float, most: int, gap: float = 2.0) -> None:
        self.limit, self.most, self.gap = limit, most, gap
        self.started: float | None = None
        self.last = 0.0
        self.count = 0

    def refused(self) -> tuple[bool, bool]:
        """Count a refusal: (the first of a run, the run is a flood)."""
        now = time.monotonic()
        first = self.started is None or now - self.last > self.gap
        if first:
            self.started, self.count = now, 0
        self.last = now
        self.count += 1
        assert self.started is not None
        return first, now - self.started >= self.limit or self.count >= self.most


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
    from game.fanout import FANOUT  # built on this module's registries: imported after it

    FANOUT.reset()
    for task in list(_DETACHED):
        _cancel(task)
    _DETACHED.clear()
    HEARTBEATS.reset()
    CLOCKS.reset()
    GATE.reset()
    SESSIONS.reset()
    LATEST.clear()
    TABLES.reset()
