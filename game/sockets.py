"""What every websocket of the site shares, written once: the match's (game/consumers.py) and
the club's (club/consumers.py) consumers hold only what is theirs.

- Admission: a place at the gate (`game.gates.GATE`) in the socket's room, left however the
  consumer ends.
- The flood guard: a token bucket per socket, one per member shared by all their sockets
  here, and the flood rule (`Bucket`, `Flood`, `Rate`), and the
  backlog: the messages the browser sent that the consumer has not read yet. A busy server
  reads slower than a flooder sends, so the bucket alone, counting messages as they are
  read, would never see that flood: the backlog does.
- `hello` once, in the socket's protocol version, before anything else; every refusal an
  error answer, never a closed connection (but for a flood). A hello the server cannot
  answer (the database or Redis away, or no welcome within `WELCOME_WITHIN`) closes the
  socket with `CLOSE_UNAVAILABLE`, on which its page reconnects. A stranger's socket (no
  account: it can only watch) that keeps sending what is refused is flooding too, however
  slowly (`_faulted`): an honest page only says hello, pings and asks for logs.
- One handler at a time: the socket's own messages and whatever else is handed to it (the
  match's relay, game/fanout.py) take `lock`.
- Clean-up however the consumer ends (a close, a crash, daphne cancelling a slow one): the
  place at the gate and what needs no database go at once (`_forget`), the rest soon after
  (`_remove`, detached).

Only channels' documented hooks are used: `__call__` (the ASGI entry, wrapped), `dispatch`
(the handler of each message) and `disconnect`; the backlog is this consumer's own queue, fed
from the server's `receive`, so nothing here reads the server's or channels' internals.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Generic, Protocol, TypeVar

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts import addresses
from game.gates import GATE, Bucket, Flood, Rate
from game.protocol import CLOSE_FLOOD, CLOSE_FULL, CLOSE_UNAVAILABLE
from game.protocol.client_in import BadMessage
from game.supervise import DEPENDENCIES
from game.work import detach

log = logging.getLogger(__name__)

# The longest a hello waits for its welcome (its groups joined, its table read) before the
# socket is closed to try again (CLOSE_UNAVAILABLE): a welcome takes milliseconds, and a
# socket kept open without one shows its page "reconnecting" for good.
WELCOME_WITHIN = 10.0  # seconds

Message = dict[str, Any]


class Hello(Protocol):
    @property
    def protocol(self) -> int: ...


H = TypeVar("H", bound=Hello)  # the socket's hello
M = TypeVar("M")  # any message of the socket's protocol


class Socket(AsyncWebsocketConsumer, Generic[H, M]):
    hello: type[H]  # the socket's hello message, answered here
    version: int  # the protocol version its hello must name
    protocol_name = "protocol"  # how a refused hello names it
    hello_again = "hello once per connection"  # the answer to a second hello
    address: str | None = None  # set while this socket holds a place at the gate
    holder: int | None = None  # the member whose place it is (None: a stranger's)
    faults: Bucket | None = None  # a stranger's allowance of refused messages (`_limit`)
    member_rate: Rate | None = None  # the rate all the member's sockets here share
    greeted: bool = False
    gone: bool = False  # its places and registrations have been cleaned up
    flooded: bool = False  # closed for flooding: what it sends meanwhile is dropped unread
    bucket: Bucket
    flood: Flood

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lock = asyncio.Lock()
        self.backlog: asyncio.Queue[Any] = asyncio.Queue()  # ASGI events

    @property
    def room(self) -> int:
        """The gate's key for what this socket joins (a match's id; the club's are negative)."""
        raise NotImplementedError

    # --- the consumer's life ------------------------------------------------------------------
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # The server's messages go into the backlog as they come; the consumer reads them
        # from there, one handler at a time.
        pump = asyncio.ensure_future(self._pump(receive))
        pump.add_done_callback(self._pumped)
        self.task = asyncio.current_task()
        try:
            await super().__call__(scope, self.backlog.get, send)
        finally:
            pump.cancel()
            if not self.gone:
                self._forget()
                detach(self._remove())

    async def _pump(self, receive: Any) -> None:
        while True:
            self.backlog.put_nowait(await receive())

    def _pumped(self, pump: asyncio.Future[None]) -> None:
        """Ends only when cancelled, or when the server's receive failed: then so does the
        consumer (cleaned up as ever), rather than wait for messages that cannot come."""
        if not pump.cancelled() and self.task is not None:
            log.error("a socket's receive failed", exc_info=pump.exception())
            self.task.cancel()

    async def dispatch(self, message: Message) -> None:
        # Channels (4.2+) first closes stale database connections, on its one shared database
        # thread, before every message it dispatches: a thread hop per message, each queued
        # behind the crowd's database work, and a stroke's request behind all of them. Every
        # database call here runs through DatabaseSyncToAsync, which closes stale
        # connections around the call itself, so the hop is left out.
        async with self.lock:
            try:
                await self.handle(message)
            except Exception as exc:
                # The database or Redis away under any handler (a ping's catch-up, a hello's
                # welcome): the socket is closed with the code its page reconnects on, and
                # the outage said once for the process; a bug goes on as a bug.
                if DEPENDENCIES.failed(exc, f"a {self.protocol_name} socket") is None:
                    raise
                if message["type"] == "websocket.disconnect":
                    # Its clean-up met the outage: the consumer ends all the same (else it
                    # waited for messages that never come until daphne killed it, 10 s on);
                    # a row left behind goes stale and is swept as a dead process's.
                    raise StopConsumer() from None
                await self._close(CLOSE_UNAVAILABLE)

    async def handle(self, message: Message) -> None:
        """Run `message`'s handler (named by channels' `get_handler_name`), the lock held."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        if not self.gone:
            self._forget()
            await self._remove()

    def _forget(self) -> None:
        """What needs no database, at once: the place at the gate (subclasses add theirs)."""
        self.gone = True
        if self.address is not None:
            GATE.leave(self.address, self.room, self.holder, self)
            self.address = None

    async def _remove(self) -> None:
        """What may wait on the database or the channel layer (subclasses' own)."""

    # --- admission ----------------------------------------------------------------------------
    async def _admit(self, seated: bool, cap: int | None = None) -> bool:
        """Take a place at the gate, or close with the reason (a member's within their own
        caps, seated or not)."""
        address = addresses.of_scope(self.scope)
        user = self.scope.get("user")
        member = user.pk if user is not None and user.is_authenticated else None
        refusal = GATE.admit(address, self.room, seated, cap, member)
        if refusal is not None:
            await self._close(CLOSE_FULL, refusal)
            return False
        self.address, self.holder = address, member
        if member is not None:
            GATE.hold(member, self)
        return True

    def _limit(self, burst: float, rate: float, stranger: bool = False) -> None:
        """The socket's rate of messages, and the flood rule past it (for a stranger's
        socket, its allowance of refusals too)."""
        conf = settings.SNOOKER
        self.bucket = Bucket(burst, rate)
        self.flood = Flood(conf["FLOOD_CLOSE_AFTER"], conf["FLOOD_CLOSE_REFUSED"])
        if self.holder is not None:
            self.member_rate = GATE.member_rate(self.holder)
        if stranger:
            self.faults = Bucket(conf["STRANGER_FAULTS_BURST"], conf["STRANGER_FAULTS_PER_SECOND"])

    async def _close(self, code: int, reason: str | None = None) -> None:
        if self.address is not None:
            GATE.leave(self.address, self.room, self.holder, self)
            self.address = None
        await self.close(code=code, reason=reason)

    # --- receiving ----------------------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.flooded:
            return
        if self.backlog.qsize() > settings.SNOOKER["FLOOD_BACKLOG"]:
            await self._flooded()
            return
        flood = self._refused_by()
        if flood is not None:
            first, flooding = flood.refused()
            if flooding:
                await self._flooded()
            elif first:  # one answer per run of refusals: a flood is not answered in kind
                await self._error("rate_limited", "too many messages; slow down")
            return
        try:
            message = self.parse(text_data if bytes_data is None else bytes_data)
        except BadMessage as exc:
            await self._error(exc.code, exc.message, exc.client_id)
            return
        if isinstance(message, self.hello):
            await self._hello(message)
        elif not self.greeted:
            await self._error("hello_first", "send hello before anything else")
        else:
            await self.take(message)

    def _refused_by(self) -> Flood | None:
        """The flood rule of the rate that refuses this message (the socket's or the seat's,
        then the member's), None if both take it."""
        if not self.bucket.take():
            return self.flood
        shared = self.member_rate
        if shared is not None and not shared.bucket.take():
            return shared.flood
        return None

    async def _faulted(self) -> None:
        """A refusal was answered: a stranger past its allowance is a flood. Within the rate,
        200 strangers sending what no page sends (a second hello, an aim) were a crowd to
        answer and to send every event, at the players' cost, on a slow machine behind the
        proxy (docs/performance.md, issue 24)."""
        if self.faults is not None and not self.faults.take() and not self.flooded:
            await self._flooded()

    async def _flooded(self) -> None:
        """Close a flooding socket (a match goes on) and make its address wait; a member's
        flood closes all their sockets here, and they wait too (`GATE.flooded_by`)."""
        self.flooded = True
        if self.address is not None:
            GATE.penalise(self.address)
        others = GATE.flooded_by(self.holder, self) if self.holder is not None else []
        await self.close(code=CLOSE_FLOOD)
        for other in others:
            if not other.flooded:
                other.flooded = True  # what it sends meanwhile is dropped unread
                with contextlib.suppress(Exception):
                    await other.close(code=CLOSE_FLOOD)

    async def _hello(self, message: H) -> None:
        if self.greeted:
            await self._error("already_greeted", self.hello_again)
            return
        if message.protocol != self.version:
            await self._error(
                "protocol",
                f"this server speaks {self.protocol_name} {self.version}, "
                f"not {message.protocol}; reload the page",
            )
            return
        self.greeted = True
        try:
            async with asyncio.timeout(WELCOME_WITHIN):
                await self.greet(message)
        except Exception as exc:
            # Every socket either works or closes (issue 37): one that cannot join its groups
            # or read its welcome (the database or Redis away) is closed with the code its
            # page reconnects on, never left waiting; the outage is logged once for the
            # process (game/supervise.py), a slow welcome in a line, a bug with its traceback.
            if isinstance(exc, TimeoutError):
                log.warning("a %s socket was not welcomed within %s s; closed", self.protocol_name,
                            WELCOME_WITHIN)  # fmt: skip
            elif DEPENDENCIES.failed(exc, f"a {self.protocol_name} socket's hello") is None:
                raise
            await self._close(CLOSE_UNAVAILABLE)

    # --- what each socket says for itself ------------------------------------------------------
    def parse(self, data: str | bytes | None) -> M:
        """A message of the socket's protocol, or `BadMessage`."""
        raise NotImplementedError

    async def greet(self, message: H) -> None:
        """Answer the first hello, in the right version."""
        raise NotImplementedError

    async def take(self, message: M) -> None:
        """Answer any other message, once greeted (every hello is answered here)."""
        raise NotImplementedError

    def refusal_text(self, code: str, detail: str, client_id: str | None) -> str:
        """A refusal's message in the socket's protocol: its stable code and its words."""
        raise NotImplementedError

    async def _error(self, code: str, detail: str, client_id: str | None = None) -> None:
        """Answer a refusal; a stranger's past its allowance (a rate's aside, which have their
        own flood rule) close the socket as a flood (`_faulted`)."""
        await self.send(self.refusal_text(code, detail, client_id))
        if code != "rate_limited":
            await self._faulted()

    async def send(  # type: ignore[override]  # as AsyncWebsocketConsumer's own
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        # The browser may have gone between the last message and this one: disconnect follows.
        with contextlib.suppress(Disconnected):
            await super().send(text_data, bytes_data, close)
