"""The club's websockets: `/ws/lobby/` (the lobby page) and `/ws/notices/` (a member's or a
guest's every other page). They only listen: the browser says `hello` once and `ping` now
and then; everything that changes something is a form POST (club/views.py).

A lobby socket hears the one lobby group's coalesced updates through its process's relay
(club/process.py) and, for a member or guest, joins their own group (notices of their
challenges); a notices socket joins only their own group, and is refused to visitors. Both
hear the ladders' coalesced changes (`ladder`) through the relay too (a ladder's page reads
its changing part again: static/js/site.js). Both
meet the match socket's protections: the same-origin handshake (game/origins.py wraps
every websocket), the per-address and per-room caps of `game.gates.GATE` before any
database work, a token bucket, the flood rule and the backlog check, one `hello`: all of it
the base every socket shares (game/sockets.py).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.conf import settings

from club import lobby
from club.process import LOBBY
from club.protocol import CLOSE_SIGNED_OUT, LOBBY_PROTOCOL, client_in, server_out
from club.protocol.ipc import TextMessage, user_group
from game.sockets import Socket

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

    @property
    def room(self) -> int:
        return LOBBY_ROOM if self.lobby else NOTICES_ROOM

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.member = self.user_id is not None
        if not self.lobby and not self.member:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
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
        await self.send(server_out.Pong().text())

    async def greet(self, message: client_in.Hello) -> None:
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
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = tuple(groups)
        welcome = await database_sync_to_async(lobby.welcome)(self.scope["user"], self.lobby)
        if self.lobby:
            welcome.online, welcome.online_count = LOBBY.online_names()
        await self.send(welcome.text())

    def refusal_text(self, code: str, detail: str, client_id: str | None) -> str:
        return server_out.Error(code=code, message=detail).text()

    # --- from the channel layer: texts made once, sent as they are ----------------------------
    async def club_notice(self, event: TextMessage) -> None:
        await self.send(event["text"])


class LobbyConsumer(ClubConsumer):
    """`/ws/lobby/`: the lobby group, and the member's notices."""

    lobby = True


class NoticesConsumer(ClubConsumer):
    """`/ws/notices/`: the member's (or guest's) notices only."""

    lobby = False
