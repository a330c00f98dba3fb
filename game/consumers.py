"""The match websocket, `/ws/match/<id>/`: parse, authorise, hand to the service, broadcast.

Nothing here decides an outcome. Every request goes through `game.service` in a thread (the
ORM is synchronous); the events it stored are broadcast to the match group after it returns,
that is after commit. The channel layer may drop a message, so each socket tracks the last
version it sent and fills any gap from the database (on a later event, or on the browser's
ping).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from game import service
from game.models import Match
from game.protocol import CLOSE_FLOOD, CLOSE_NOT_FOUND, PROTOCOL_VERSION, client_in, server_out
from rules.state import Player

log = logging.getLogger(__name__)


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


class _Bucket:
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


class _Heartbeats:
    """One presence write per process and period for all its sockets, not one per socket.

    Presence rows are refreshed so that a killed process's sockets go stale; a write per
    socket would queue hundreds of commits a second ahead of the strokes on the one
    database thread a process has. The same beat re-reads the presence of the matches this
    process serves and broadcasts any change nobody announced: a player whose process died
    (and who did not come back) turns absent for everyone, and the claim countdown starts.
    """

    def __init__(self) -> None:
        self.channels: dict[str, int] = {}  # channel name -> match id
        self.presence: dict[int, server_out.Presence] = {}  # match id -> last presence seen
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

    def reset(self) -> None:
        """Forget every socket and stop beating (tests start each from a clean process)."""
        if self.task is not None:
            self.task.cancel()
        self.__init__()  # type: ignore[misc]

    def seen(self, match_id: int, info: server_out.Presence) -> bool:
        """Remember a match's presence; True if it differs from the last one seen here."""
        changed = self.presence.get(match_id) != info
        self.presence[match_id] = info
        return changed

    async def _run(self) -> None:
        layer = get_channel_layer()
        while self.channels:
            await asyncio.sleep(settings.SNOOKER["HEARTBEAT"])
            if not self.channels:
                break
            await database_sync_to_async(service.heartbeat)(sorted(self.channels))
            matches = sorted(set(self.channels.values()))
            infos = await database_sync_to_async(service.presences)(matches)
            for match_id, info in zip(matches, infos, strict=True):
                if self.seen(match_id, info) and layer is not None:
                    await layer.group_send(
                        group_name(match_id), {"type": "match.presence", "text": info.text()}
                    )
        self.presence.clear()


HEARTBEATS = _Heartbeats()


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
        for match_id in list(self.timers):
            self.release(match_id)

    async def _expire(self, match_id: int, version: int, deadline: datetime) -> None:
        await asyncio.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 0.05)
        with contextlib.suppress(Match.DoesNotExist):
            expired = await database_sync_to_async(service.expire_shot_clock)(match_id, version)
            for stored in expired:
                await publish(match_id, stored)


CLOCKS = _ShotClocks()


async def publish(match_id: int, stored: service.Stored) -> None:
    """Send a stored event to every socket of the match, in every process."""
    layer = get_channel_layer()
    assert layer is not None
    deadline = stored.deadline.timestamp() if stored.deadline else None
    await layer.group_send(
        group_name(match_id),
        {"type": "match.event", "version": stored.version, "text": stored.text,
         "deadline": deadline},
    )  # fmt: skip


class MatchConsumer(AsyncWebsocketConsumer):
    match_id: int
    seat: Player | None
    sent_version: int
    greeted: bool

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.seat = None
        self.sent_version = 0
        self.greeted = False
        self.refused_in_row = 0
        conf = settings.SNOOKER
        self.bucket = _Bucket(conf["RATE_BURST"], conf["RATE_PER_SECOND"])
        self.aim_bucket = _Bucket(1, conf["AIM_PER_SECOND"])
        self.latest_aim: str | None = None
        self.aim_task: asyncio.Task[None] | None = None
        found = await database_sync_to_async(self._load_seat)()
        if not found:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()

    def _load_seat(self) -> bool:
        row = Match.objects.filter(pk=self.match_id).first()
        if row is None:
            return False
        self.seat = service.seat_of(row, self.scope["user"])
        return True

    async def disconnect(self, code: int) -> None:
        if self.aim_task is not None:
            self.aim_task.cancel()
        if not getattr(self, "greeted", False):
            return
        HEARTBEATS.discard(self.channel_name)
        await self.channel_layer.group_discard(group_name(self.match_id), self.channel_name)
        await database_sync_to_async(service.disconnect)(
            self.match_id, self.channel_name, self.seat
        )
        await self._broadcast_presence()

    # --- receiving ----------------------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            self.refused_in_row += 1
            if self.refused_in_row >= settings.SNOOKER["FLOOD_CLOSE_AFTER"]:
                await self.close(code=CLOSE_FLOOD)
                return
            await self._error("rate_limited", "too many messages; slow down")
            return
        self.refused_in_row = 0
        try:
            message = client_in.parse(text_data if bytes_data is None else bytes_data)
        except client_in.BadMessage as exc:
            await self._error(exc.code, exc.message, exc.client_id)
            return
        if isinstance(message, client_in.Hello):
            await self._hello(message)
        elif not self.greeted:
            await self._error("hello_first", "send hello before anything else")
        elif isinstance(message, client_in.Ping):
            await self._ping(message)
        elif isinstance(message, client_in.Aim):
            await self._aim(message)
        else:
            await self._request(message)

    async def _hello(self, message: client_in.Hello) -> None:
        if message.protocol != PROTOCOL_VERSION:
            await self._error(
                "protocol",
                f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}; "
                "reload the page",
            )
            return
        if not self.greeted:
            await self.channel_layer.group_add(group_name(self.match_id), self.channel_name)
            await database_sync_to_async(service.connect)(
                self.match_id, self.channel_name, self.seat
            )
            self.greeted = True
            HEARTBEATS.add(self.channel_name, self.match_id)
        row, snapshot, missed = await database_sync_to_async(self._resync)(message.last_version)
        await self._welcome(row, None if missed is not None else snapshot)
        for text in missed.texts if missed is not None else ():
            await self.send(text)
        self.sent_version = row.version
        CLOCKS.arm(self.match_id, row.version, row.deadline)
        await self._broadcast_presence()

    def _resync(self, last: int | None) -> tuple[Match, server_out.Snapshot, service.Missed | None]:
        row, snapshot = service.snapshot(self.match_id)
        missed = None
        if last is not None and last <= row.version:
            missed = service.events_after(self.match_id, last, settings.SNOOKER["RESYNC_EVENTS"])
            # Events written after the snapshot was read are caught by the version check.
            if missed is not None and len(missed.texts) != row.version - last:
                missed = None
        return row, snapshot, missed

    async def _welcome(self, row: Match, snapshot: server_out.Snapshot | None) -> None:
        players = service.players(row)
        welcome = server_out.Welcome(
            match=self.match_id, seat=self.seat, players=players, snapshot=snapshot
        )
        await self.send(welcome.text())

    async def _error(self, code: str, message: str, client_id: str | None = None) -> None:
        await self.send(server_out.Error(code=code, message=message, client_id=client_id).text())

    async def _ping(self, message: client_in.Ping) -> None:
        await self._catch_up()
        await self.send(server_out.Pong(version=self.sent_version).text())

    async def _aim(self, message: client_in.Aim) -> None:
        if self.seat is None:
            await self._error("not_a_player", "spectators cannot aim")
            return
        text = server_out.AimOut(
            seat=self.seat, angle=message.angle, speed=message.speed, side=message.side,
            height=message.height, cue_ball=message.cue_ball,
        ).text()  # fmt: skip
        if self.aim_bucket.take():
            await self._relay_aim(text)
            return
        # Throttled: keep only the newest aim and relay it when the rate allows, so watchers
        # always end on the striker's final aim.
        self.latest_aim = text
        if self.aim_task is None or self.aim_task.done():
            self.aim_task = asyncio.create_task(self._trailing_aim())

    async def _trailing_aim(self) -> None:
        await asyncio.sleep(1 / settings.SNOOKER["AIM_PER_SECOND"])
        text, self.latest_aim = self.latest_aim, None
        if text is not None:
            self.aim_bucket.take()
            await self._relay_aim(text)

    async def _relay_aim(self, text: str) -> None:
        await self.channel_layer.group_send(
            group_name(self.match_id),
            {"type": "match.aim", "text": text, "sender": self.channel_name},
        )

    async def _request(self, message: client_in.ClientMessage) -> None:
        client_id = getattr(message, "client_id", None)
        try:
            applied = await database_sync_to_async(service.submit)(
                self.match_id, self.scope["user"], message
            )
        except service.ServiceError as exc:
            await self._error(exc.code, exc.message, client_id)
            return
        except Exception:
            # A bug must not cost the player the connection, nor the match its state: the
            # transaction rolled back, so the request simply did not happen.
            log.exception("request failed in match %s: %r", self.match_id, message)
            await self._error("internal", "the server failed; try again", client_id)
            return
        assert client_id is not None
        ack = server_out.Ack(
            client_id=client_id, version=applied.version, duplicate=applied.duplicate
        )
        await self.send(ack.text())
        # On a duplicate the first attempt may have died with its process before
        # broadcasting: publish the stored event again (sockets that have it ignore it).
        for stored in applied.events:
            await publish(self.match_id, stored)

    # --- broadcasting ---------------------------------------------------------------------------

    async def match_event(self, event: dict[str, Any]) -> None:
        version = event["version"]
        if version <= self.sent_version:
            return  # already sent (a retry, or we caught up from the database)
        if version > self.sent_version + 1:
            await self._catch_up()
            if version <= self.sent_version:
                return
        await self.send(event["text"])
        self.sent_version = version
        stamp = event["deadline"]
        CLOCKS.arm(self.match_id, version, datetime.fromtimestamp(stamp, UTC) if stamp else None)

    async def match_aim(self, event: dict[str, Any]) -> None:
        if event["sender"] != self.channel_name:
            await self.send(event["text"])

    async def match_presence(self, event: dict[str, Any]) -> None:
        await self.send(event["text"])

    async def _catch_up(self) -> None:
        """Send every stored event this socket has not sent yet (the layer may drop some)."""
        missed = await database_sync_to_async(service.events_after)(
            self.match_id, self.sent_version, settings.SNOOKER["RESYNC_EVENTS"]
        )
        if missed is None:
            row, snapshot, _ = await database_sync_to_async(self._resync)(None)
            await self._welcome(row, snapshot)
            self.sent_version = row.version
            return
        for text in missed.texts:
            await self.send(text)
            self.sent_version += 1
        if missed.texts:
            CLOCKS.arm(self.match_id, self.sent_version, missed.deadline)

    async def _broadcast_presence(self) -> None:
        info = await database_sync_to_async(service.presence)(self.match_id)
        HEARTBEATS.seen(self.match_id, info)
        await self.channel_layer.group_send(
            group_name(self.match_id), {"type": "match.presence", "text": info.text()}
        )
