"""A match's broadcasts reach a process once, however many of its sockets are there.

The match's channel-layer group (`match-<id>`) holds one channel per process that serves the
match, not one per socket, as the lobby's does (club/process.py, after lila-ws). With
channels_redis a group message is serialised and pushed through Redis once per member, then
popped and dispatched by the receiving process: per socket, a thousand times an event for a
crowd of a thousand. Here it is once per process.

- `FANOUT.join(socket)` on a socket's hello: the process's relay for that match is started
  if there is none (a channel of its own, added to the group; `join` returns once it is in).
  `FANOUT.leave(socket)` when the socket goes: the last one out stops the relay, which leaves
  the group. A socket that arrives meanwhile starts a new relay.
- The relay (one task per match) receives each event, aim, presence and clock message once;
  does once what the process does per message (the newest version known, `LATEST`; the event
  kept for catch-ups and greetings, `TABLES`; the shot clock's timer, `CLOCKS`); and offers it
  to the match's sockets here, the players' first (the striker's opponent and the striker
  before the crowd), yielding to the loop once it has held it for `SLICE` (while a player's
  request is being answered) or `CROWD_SLICE`, so that other matches' relays and the
  players' requests are not held up behind a crowd.
- Each socket takes its messages in order and one at a time, as channels' dispatch gave them
  to it, through its `Inbox`: the socket's own handlers (hello, ping, a player's request)
  hold its lock. A message is handled at once, by the relay, only when the socket is idle,
  has nothing waiting, and the message needs no database: an event after a version gap this
  process did not hear, like any message to a busy socket, waits in the socket's inbox and a
  task of the socket's own drains it (the gap filled from the database there), while the
  relay goes on to the next socket. Sending is a write to the socket's transport buffer
  (daphne), so a slow reader holds up nobody either.
- An inbox holds at most `INBOX` messages; more are dropped, as the channel layer drops
  messages to a full channel: the version check fills the gap later, from `TABLES` or the
  database.
- The chat waits behind the play (`BEHIND`: a line, a moderator's action on the lines):
  the relay receives every message as it comes (a task of its own) and hands out whatever
  of the play has come before any chat message waiting, between the sockets of a line too;
  a socket's inbox sends the play's waiting messages before the chat's. Each keeps its own
  order (a line before its deletion), so a burst of lines never holds up a stroke's event
  (docs/chat.md, "Load"); and while a player's request is being answered, the chat's
  messages wait (game/work.py `behind_the_players`: a few ms, half a second at most).

A message to one socket (an error, an ack, a pong, a log) is sent by its consumer directly.
The per-socket channel stays for the socket's identity (presence rows, an aim's sender).

Known limit: channels_redis forgets a group's member after its `group_expiry` (a day), as it
did each socket's; a relay is joined once, so a match served by one relay for over a day
would stop hearing broadcasts there (its sockets' pings would still catch up).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from game import clock
from game.aims import AIMS
from game.broadcast import LATEST, _layer, turn_of
from game.chatheld import HELD
from game.greetings import TABLES
from game.protocol.ipc import EventMessage, group_name
from game.shotclocks import CLOCKS
from game.supervise import DEPENDENCIES, RETRY
from game.work import behind_the_players, detach, players_waiting

log = logging.getLogger(__name__)

Message = dict[str, Any]

INBOX = 100  # messages waiting for one socket (channels' default capacity of a channel)
STOP = "fanout.stop"  # the relay's own message to itself: leave the group and end
# The longest a relay holds the event loop before letting others run, measured in time (on a
# slow day each socket's send takes longer). While a player's request is being answered, a
# short slice: the answer waits for the slice under way at each turn of the loop it needs
# (from the players' thread to the ack). Behind 1,000 spectators on a slow day
# (bench-strangers, quiet), slices of 64 sockets gave acks of 40-48 ms at p50, of 2 ms 33-36
# ms, of 0.5 ms 17 ms. Otherwise a longer one: every turn of the loop also serves whatever
# else is waiting (a flood of strangers' handshakes), and the crowd's event is out sooner
# for taking fewer turns.
SLICE = 0.0005  # seconds, while a player waits (game.work.players_waiting)
CROWD_SLICE = 0.004  # seconds, otherwise
# The chat's messages, which wait behind the play's: a line and a moderator's action on the
# lines (in their own order: a line before its deletion).
BEHIND = frozenset({"match.line", "match.moderated"})


class Inbox:
    """A socket's broadcasts, handled in order, one at a time, and never during the socket's
    own handlers (which hold `lock`)."""

    def __init__(
        self,
        handle: Callable[[Message], Awaitable[None]],
        quick: Callable[[Message], bool],
        lock: asyncio.Lock | None = None,
    ) -> None:
        self.handle = handle  # the socket's handler for a message (may read the database)
        self.quick = quick  # whether handling a message now needs no database
        self.lock = lock or asyncio.Lock()  # the socket's own (game/sockets.py)
        self.waiting: deque[Message] = deque()  # the play's
        self.later: deque[Message] = deque()  # the chat's (`BEHIND`), sent after the play's
        self.draining: asyncio.Task[None] | None = None

    async def offer(self, message: Message) -> None:
        """Handle `message` now if that holds up nobody, else queue it for the socket's task."""
        if self.waiting or self.later or self.lock.locked() or not self.quick(message):
            self._queue(message)
            return
        async with self.lock:  # free: taken without a pause, so nothing came in between
            await self._handled(message)

    def _queue(self, message: Message) -> None:
        queue = self.later if message["type"] in BEHIND else self.waiting
        if len(self.waiting) + len(self.later) >= INBOX:
            return  # dropped, as by a full channel: the version check fills the gap
        queue.append(message)
        if self.draining is None or self.draining.done():
            self.draining = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        async with self.lock:
            while self.waiting or self.later:
                queue = self.waiting or self.later
                await self._handled(queue.popleft())

    async def _handled(self, message: Message) -> None:
        try:
            await self.handle(message)
        except Exception as exc:  # one socket's failure is not the relay's, nor the match's
            if DEPENDENCIES.failed(exc, "a socket's inbox") is None:
                log.exception("a socket failed to take %s", message.get("type"))

    def close(self) -> None:
        self.waiting.clear()
        self.later.clear()
        if self.draining is not None and not self.draining.get_loop().is_closed():
            self.draining.cancel()


class Socket(Protocol):
    match_id: int
    inbox: Inbox

    @property
    def seated(self) -> bool: ...

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...


class _Relay:
    """One match's channel in its group, for this process, and the task that hands out what
    arrives on it."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        # Insertion-ordered: each socket hears the messages in the order it joined.
        self.players: dict[Socket, None] = {}
        self.spectators: dict[Socket, None] = {}
        self.channel: str | None = None
        loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[None] = loop.create_future()  # in the group
        # What has come and is not handed out yet: the play's, then the chat's (`BEHIND`).
        self.play: deque[Message] = deque()
        self.chat: deque[Message] = deque()
        self.came = asyncio.Event()
        self.handing = loop.create_task(self._hand_out_all())
        self.task = loop.create_task(self._run())
        self.task.add_done_callback(lambda _: self.handing.cancel())
        self.messages = 0  # received on the channel (tests and benchmarks read it)

    def empty(self) -> bool:
        return not self.players and not self.spectators

    async def _run(self) -> None:
        layer = _layer()
        try:
            self.channel = await layer.new_channel()
            await layer.group_add(group_name(self.match_id), self.channel)
        except Exception as exc:
            # Redis away: the sockets waiting on `ready` are closed with it, to try again (its
            # outage said by them, once); the next socket to come starts another relay.
            self.ready.set_exception(exc)
            self.ready.exception()  # retrieved, though nobody may be waiting
            return
        except BaseException as exc:
            if not self.ready.done():
                self.ready.set_exception(exc)
                self.ready.exception()
            raise
        self.ready.set_result(None)
        while True:
            try:
                if await self._receive(layer):
                    return
            except Exception as exc:
                # Redis away (issue 37): the relay outlives it, with its sockets, and joins
                # the group again once Redis is back (a restarted one has forgotten it).
                # What was broadcast meanwhile reaches the sockets by their pings, which
                # catch up from the database (the heartbeat tells this process the newest
                # version of each match it serves).
                if not await self._rejoin(layer, exc):
                    return

    async def _rejoin(self, layer: Any, exc: Exception) -> bool:
        """Put the relay's channel back in the group once Redis answers; False if its last
        socket left meanwhile (nothing to relay: its `stop` could not reach it). The outage
        is logged once for the process (game/supervise.py), a bug with its traceback."""
        if DEPENDENCIES.failed(exc, "a match's relay") is None:
            log.error("a match's relay failed (match %s)", self.match_id, exc_info=exc)
        while True:
            await clock.sleep(RETRY)
            if self.empty():
                return False
            try:
                await layer.group_add(group_name(self.match_id), self.channel)
            except Exception as again:
                DEPENDENCIES.failed(again, "a match's relay")
                continue
            DEPENDENCIES.back("redis")
            return True

    async def _receive(self, layer: Any) -> bool:
        """Hand out what arrives until told to stop (True)."""
        assert self.channel is not None
        try:
            while True:
                message = await layer.receive(self.channel)
                if message["type"] == STOP:
                    return True
                self.messages += 1
                self._once(message)
                (self.chat if message["type"] in BEHIND else self.play).append(message)
                self.came.set()
        finally:
            # Bounded: on a server's way out Redis may not answer any more; an entry left
            # behind expires with the group.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    layer.group_discard(group_name(self.match_id), self.channel), 1.0
                )

    def _once(self, message: Message) -> None:
        """What the process does once per message, before any socket takes it."""
        kind = message["type"]
        if kind == "match.event":
            version = message["version"]
            LATEST[self.match_id] = max(version, LATEST.get(self.match_id, 0))
            turn = turn_of(cast(EventMessage, message))
            TABLES.heard(self.match_id, version, message["text"], turn)
            AIMS.moved(self.match_id, version)
        elif kind in ("match.aim", "match.thinking") and "version" in message:
            AIMS.heard(self.match_id, message["version"], message["text"])
        elif kind == "match.clock":
            deadline = datetime.fromtimestamp(message["deadline"], UTC)
            CLOCKS.arm(self.match_id, message["version"], deadline)
        elif kind == "match.line":
            HELD.heard(self.match_id, message)
        elif kind == "match.moderated":
            HELD.moderated(self.match_id, message)

    async def _hand_out_all(self) -> None:
        """Hand out what has come, in order, the play's before the chat's."""
        while True:
            await self.came.wait()
            self.came.clear()
            while self.play or self.chat:
                try:
                    if self.play:
                        await self._hand_out(self.play.popleft())
                        continue
                    await behind_the_players()  # a stroke being answered goes first
                    if not self.play:
                        await self._hand_out(self.chat.popleft(), behind=True)
                except Exception:  # a bug in one message's hand-out is not the relay's end
                    log.exception("a relay failed to hand out a message (match %s)",
                                  self.match_id)  # fmt: skip

    async def _hand_out(self, message: Message, behind: bool = False) -> None:
        """Offer `message` to every socket here; a chat message (`behind`) lets whatever of
        the play comes meanwhile go first, to every socket, wherever it is in the crowd."""
        began = time.monotonic()
        for socket in [*self.players, *self.spectators]:
            if behind:
                while self.play:
                    await self._hand_out(self.play.popleft())
            await socket.inbox.offer(message)
            held = time.monotonic() - began
            if held >= SLICE and (held >= CROWD_SLICE or players_waiting()):
                await asyncio.sleep(0)
                began = time.monotonic()

    async def stop(self) -> None:
        """End the relay with a message on its own channel (channels_redis's receive does
        not always end when cancelled); cancelled if it is not in the group yet."""
        if not self.ready.done() or self.channel is None:
            self.task.cancel()
            return
        if not self.task.done():
            with contextlib.suppress(Exception):
                await _layer().send(self.channel, {"type": STOP})


class _Fanout:
    def __init__(self) -> None:
        self.relays: dict[int, _Relay] = {}

    async def join(self, socket: Socket) -> None:
        """From now on `socket` is handed its match's broadcasts (once this returns, the
        process's channel is in the match's group)."""
        relay = self.relays.get(socket.match_id)
        loop = asyncio.get_running_loop()
        if relay is None or relay.task.done() or relay.task.get_loop() is not loop:
            relay = self.relays[socket.match_id] = _Relay(socket.match_id)
        (relay.players if socket.seated else relay.spectators)[socket] = None
        await asyncio.shield(relay.ready)

    def leave(self, socket: Socket) -> None:
        relay = self.relays.get(socket.match_id)
        socket.inbox.close()
        if relay is None:
            return
        relay.players.pop(socket, None)
        relay.spectators.pop(socket, None)
        if relay.empty():
            del self.relays[socket.match_id]
            detach(relay.stop())
            # Its chat lines were kept current by this relay, which hears no more of them: a
            # process serving match after match for months must not hold every room it served.
            HELD.forget(socket.match_id)

    def reset(self) -> None:
        """A clean process (tests: each runs on its own event loop)."""
        for relay in self.relays.values():
            if not relay.task.get_loop().is_closed():
                relay.task.cancel()
                relay.handing.cancel()
        self.relays.clear()


FANOUT = _Fanout()
