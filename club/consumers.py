"""The club's websockets: `/ws/lobby/` (the lobby page) and `/ws/notices/` (a member's or a
guest's every other page, and a competition's or a ladder's page, a visitor's too, for its
chat room). The browser says `hello` once and `ping` now and then, and `say` (a line in the
socket's chat room: the lobby's on the lobby's socket, the page's room named in the notices
socket's hello: club/chat.py, docs/chat.md); everything else that changes something is a
form POST (club/views.py).

A lobby socket hears the one lobby group's coalesced updates and the lobby room's chat
through its process's relay (club/process.py), is sent the room's last lines after every
welcome, and, for a member or guest, joins their own group (notices of their
challenges; their blocks and chat timeouts, for the lobby's room); a notices socket joins
their own group, and the group of its page's room if its hello names one (a competition's or
a ladder's: its last lines after the welcome, as the lobby's); a visitor's notices socket is
closed unless its hello names a room. Both
hear the ladders' coalesced changes (`ladder`) through the relay too (a ladder's page reads
its changing part again: static/js/site.js). Both
meet the match socket's protections: the same-origin handshake (game/origins.py wraps
every websocket), the per-address and per-room caps of `game.gates.GATE` before any
database work, a token bucket, the flood rule and the backlog check, one `hello`: all of it
the base every socket shares (game/sockets.py).
"""

from __future__ import annotations

from datetime import UTC, datetime

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from accounts import addresses
from chat.service import ChatRefused, blocked_by, shown_to, within_room_rate
from chat.service import timed_out as timeout_of
from club import chat, lobby
from club.process import LOBBY
from club.protocol import CLOSE_SIGNED_OUT, LOBBY_PROTOCOL, client_in, server_out
from club.protocol.ipc import LineMessage, ModeratedMessage, TextMessage
from game import clock
from game.protocol.ipc import BlocksMessage, TimedOutMessage, user_group
from game.sockets import Socket
from game.supervise import DEPENDENCIES
from game.text import error_text, language_of, timed_out_text

# The gate's room keys for the club's sockets (matches are positive).
LOBBY_ROOM = -1
NOTICES_ROOM = -2


class ClubConsumer(Socket[client_in.Hello, client_in.ClientMessage]):
    hello = client_in.Hello
    version = LOBBY_PROTOCOL
    protocol_name = "lobby protocol"
    lobby: bool = False  # the lobby's socket (LobbyConsumer) or a page's notices
    groups_joined: tuple[str, ...] = ()
    online_as: str | None = None  # the member's name in the lobby's online list, once greeted
    blocked: frozenset[int] = frozenset()  # the members whose lines this member never sees
    # The chat's messages the relay handed this socket before its `lines` were sent (during
    # its hello): sent after them (the page keeps each line once, in the order of its id).
    # Kept as they came and judged once whom the member blocks has been read with the lines
    # (a line heard before that read reached a blocker).
    chat_pending: list[LineMessage | ModeratedMessage] | None = None
    # The room this socket carries: the lobby's on the lobby's socket; on a notices socket,
    # the page's room its hello named (a competition's or a ladder's), or none.
    chat_room: chat.ClubRoom | None = None

    @property
    def room(self) -> int:
        return LOBBY_ROOM if self.lobby else NOTICES_ROOM

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.member = self.user_id is not None
        if not await self._admit(False, settings.CLUB["MAX_LOBBY_SOCKETS"]):
            return
        # A lobby socket sends a hello and a ping every half minute: a spectator's allowance.
        conf = settings.SNOOKER
        burst, rate = conf["SPECTATOR_RATE_BURST"], conf["SPECTATOR_RATE_PER_SECOND"]
        self._limit(burst, rate, stranger=not self.member)
        await self.accept()

    def _forget(self) -> None:
        super()._forget()
        if self.greeted:
            LOBBY.detach()
            LOBBY.part(self)
        if self.online_as is not None:
            LOBBY.leave(self.online_as)
            self.online_as = None

    async def _remove(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    def parse(self, data: str | bytes | None) -> client_in.ClientMessage:
        return client_in.parse(data)

    async def take(self, message: client_in.ClientMessage) -> None:
        if isinstance(message, client_in.Say):
            await self._say(message)
            return
        await self.send(server_out.Pong().text())

    async def _say(self, message: client_in.Say) -> None:
        """A line in the socket's room: within the room's rate (`chat_busy` past it, before any
        database work), stored, sent to this socket first, then to the room's group (whose
        copy this socket skips). A refusal never closes a member's socket."""
        where = self.chat_room
        if where is None or where.kind != message.room:
            await self._error("chat_not_allowed", "this socket carries no such room",
                              message.client_id)  # fmt: skip
            return
        user = self.scope.get("user")
        try:
            # The room's own rate first, in memory: a busy room's line past it costs nothing.
            with within_room_rate(where.kind, where.key):
                told = await database_sync_to_async(chat.say)(
                    where, user, message.text, message.preset, clock.now(), self.channel_name,
                    addresses.of_scope(self.scope),
                )  # fmt: skip
        except ChatRefused as exc:
            await self._error(exc.code, exc.message, message.client_id)
            return
        await self.send(told["text"])
        try:
            await chat.tell_line(where, told)
        except Exception as exc:
            # Redis away: the line is stored; the others read it on their next welcome.
            if DEPENDENCIES.failed(exc, "a chat line") is None:
                raise

    async def greet(self, message: client_in.Hello) -> None:
        if self.lobby:
            self.chat_room = chat.LOBBY
        elif message.room is not None:
            self.chat_room = await database_sync_to_async(chat.page_room)(
                message.room.kind, message.room.key, self.scope.get("user")
            )
            if self.chat_room is None:
                await self._error("chat_not_allowed", "no such competition or ladder")
        if not self.member and self.chat_room is None:
            # A visitor's notices are a page's room's only (they have no notices of their own).
            self.greeted = False
            await self._close(CLOSE_SIGNED_OUT)
            return
        if self.chat_room is not None:
            self.chat_pending = []  # until the room's lines are sent (below)
        LOBBY.attach()
        name = await database_sync_to_async(lobby.online_name)(self.scope["user"])
        if name is not None:
            self.online_as = name
            LOBBY.arrive(name)
        # Join first, then read: whatever changes meanwhile comes after the welcome, and the
        # rows' versions let the browser keep the newest.
        # A lobby socket hears the lobby's updates; a notices socket only the ladders' changes.
        await LOBBY.join(self, self.lobby)
        groups = []
        if self.user_id is not None:
            groups.append(user_group(self.user_id))
        if self.chat_room is not None and not self.lobby:
            groups.append(self.chat_room.group)  # the lobby's comes through the relay
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = tuple(groups)
        welcome = await database_sync_to_async(lobby.welcome)(self.scope["user"], self.lobby)
        if self.lobby:
            welcome.online, welcome.online_count = LOBBY.online_names()
        await self.send(welcome.text())
        if self.chat_room is not None:
            await self._chat_history(self.chat_room)

    async def _chat_history(self, where: chat.ClubRoom) -> None:
        """The room's last lines this reader may see, after every welcome (arrival and
        reconnect), then whatever the channel layer handed the socket meanwhile."""
        user = self.scope.get("user")
        self.blocked = await database_sync_to_async(blocked_by)(user)
        await self.send(await database_sync_to_async(chat.history)(where, user, self.blocked))
        pending, self.chat_pending = self.chat_pending or [], None
        for message in pending:
            text = self._chat_text(message)
            if text is not None:
                await self.send(text)

    def refusal_text(self, code: str, detail: str, client_id: str | None) -> str:
        """A refusal: its stable code, and for the chat's, what it says to a person in the
        language of the socket's page (game/text.py), a timeout's until when and why."""
        if code.startswith("chat_"):
            with translation.override(language_of(self.scope)):
                detail = error_text(code, detail)
        return server_out.Error(code=code, message=detail, client_id=client_id).text()

    async def _error(self, code: str, detail: str, client_id: str | None = None) -> None:
        if code == "chat_timed_out":
            out = await database_sync_to_async(timeout_of)(self.scope.get("user"), clock.now())
            if out is not None:
                with translation.override(language_of(self.scope)):
                    words = timed_out_text(out.until, out.reason)
                await self.send(server_out.Error(code=code, message=words,
                                                 client_id=client_id).text())  # fmt: skip
                return
        await super()._error(code, detail, client_id)

    # --- the room's chat: the lobby's handed by the process's relay (club/process.py), a -------
    # --- page's room's from its group -----------------------------------------------------
    async def room_line(self, message: LineMessage) -> None:
        await self.chat_heard(message)

    async def room_moderated(self, message: ModeratedMessage) -> None:
        await self.chat_heard(message)

    async def chat_heard(self, message: LineMessage | ModeratedMessage) -> None:
        """A line of the room (not this socket's own, which it sent first; not to a reader
        who blocked its author; a troll's to the troll alone), or a moderator's action (the
        member concerned hears of a deletion only: their timeout came through their own
        group, with its reason, and a troll's lines stay on the troll's pages)."""
        if self.chat_pending is not None:
            self.chat_pending.append(message)
            return
        text = self._chat_text(message)
        if text is not None:
            await self.send(text)

    def _chat_text(self, message: LineMessage | ModeratedMessage) -> str | None:
        """What of the room's message this socket's reader is sent (`chat_heard`), if any."""
        if message["type"].endswith(".line"):
            line: LineMessage = message  # type: ignore[assignment]
            if line["sender"] == self.channel_name:
                return None
            if not shown_to(line["author"], line["shadow"], self.user_id, self.blocked):
                return None
            return line["text"]
        action: ModeratedMessage = message  # type: ignore[assignment]
        if action["member"] == self.user_id and action["kind"] != "hide":
            return None
        return action["text"]

    # --- from the channel layer: texts made once, sent as they are ----------------------------
    async def club_notice(self, event: TextMessage) -> None:
        await self.send(event["text"])

    # --- to the member's own group (game/protocol/ipc.py), for the socket's room ---------------
    async def member_blocks(self, event: BlocksMessage) -> None:
        """The member blocked or unblocked someone: whom they block, read again."""
        if self.chat_room is not None:
            self.blocked = await database_sync_to_async(blocked_by)(self.scope.get("user"))

    async def member_timed_out(self, event: TimedOutMessage) -> None:
        """The member was timed out of the chat, from whichever room: a page with a room says
        until when and why (taken in order with its hello: its lines come first)."""
        where = self.chat_room
        if where is not None:
            until = datetime.fromtimestamp(event["until"], UTC)
            here = (event["room_kind"], event["room_key"]) == (where.kind, where.key)
            room: server_out.PageRoom | None = where.kind if here else None
            told = server_out.TimedOut(
                room=room, member=event["member"], until=until, reason=event["reason"]
            )
            await self.send(told.text())


class LobbyConsumer(ClubConsumer):
    """`/ws/lobby/`: the lobby group, and the member's notices."""

    lobby = True


class NoticesConsumer(ClubConsumer):
    """`/ws/notices/`: the member's (or guest's) notices only."""

    lobby = False
