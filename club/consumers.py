"""The club's websockets: `/ws/lobby/` (the lobby page) and `/ws/notices/` (a member's or a
guest's every other page). They only listen: the browser says `hello` once and `ping` now
and then; everything that changes something is a form POST (club/views.py).

A lobby socket hears the one lobby group's coalesced updates through its process's relay
(club/process.py) and, for a member or guest, joins their own group (notices of their
challenges); a notices socket joins only their own group, and is refused to visitors. Both
meet the match socket's protections: the same-origin handshake (game/origins.py wraps
every websocket), the per-address and per-room caps of `game.gates.GATE` before any
database work, a token bucket and the flood rule, one `hello`.
"""

from __future__ import annotations

import contextlib
from typing import Any

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts import addresses
from club import lobby
from club.process import LOBBY
from club.protocol import (
    CLOSE_FLOOD,
    CLOSE_FULL,
    CLOSE_SIGNED_OUT,
    LOBBY_PROTOCOL,
    client_in,
    server_out,
)
from club.protocol.ipc import TextMessage, user_group
from game.gates import GATE, Bucket, Flood
from game.work import detach

# The gate's room keys for the club's sockets (matches are positive).
LOBBY_ROOM = -1
NOTICES_ROOM = -2


class ClubConsumer(AsyncWebsocketConsumer):
    lobby: bool = False  # the lobby's socket (LobbyConsumer) or a page's notices
    address: str | None = None  # set while this socket holds a place at the gate
    greeted: bool = False
    gone: bool = False
    groups_joined: tuple[str, ...] = ()

    @property
    def room(self) -> int:
        return LOBBY_ROOM if self.lobby else NOTICES_ROOM

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # However the consumer ends (a close, a crash, daphne killing a slow one), its place
        # at the gate goes at once, and its groups soon after.
        try:
            await super().__call__(scope, receive, send)
        finally:
            if not self.gone:
                self._forget()
                detach(self._discard())

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.member = self.user_id is not None
        if not self.lobby and not self.member:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        address = addresses.of_scope(self.scope)
        conf = settings.SNOOKER
        refusal = GATE.admit(address, self.room, False, settings.CLUB["MAX_LOBBY_SOCKETS"])
        if refusal is not None:
            await self.close(code=CLOSE_FULL, reason=refusal)
            return
        self.address = address
        # A lobby socket sends a hello and a ping every half minute: a spectator's allowance.
        self.bucket = Bucket(conf["SPECTATOR_RATE_BURST"], conf["SPECTATOR_RATE_PER_SECOND"])
        self.flood = Flood(conf["FLOOD_CLOSE_AFTER"], conf["FLOOD_CLOSE_REFUSED"])
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if not self.gone:
            self._forget()
            await self._discard()

    def _forget(self) -> None:
        self.gone = True
        if self.address is not None:
            GATE.leave(self.address, self.room)
            self.address = None
        if self.greeted:
            LOBBY.detach()
            LOBBY.part(self)

    async def _discard(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            first, flooding = self.flood.refused()
            if flooding:
                if self.address is not None:
                    GATE.penalise(self.address)
                await self.close(code=CLOSE_FLOOD)
            elif first:
                await self._error("rate_limited", "too many messages; slow down")
            return
        try:
            message = client_in.parse(text_data if bytes_data is None else bytes_data)
        except client_in.BadMessage as exc:
            await self._error(exc.code, exc.message)
            return
        if isinstance(message, client_in.Hello):
            await self._hello(message)
        elif not self.greeted:
            await self._error("hello_first", "send hello before anything else")
        else:
            await self.send(server_out.Pong().text())

    async def _hello(self, message: client_in.Hello) -> None:
        if self.greeted:
            await self._error("already_greeted", "hello once per connection")
            return
        if message.protocol != LOBBY_PROTOCOL:
            await self._error(
                "protocol",
                f"this server speaks lobby protocol {LOBBY_PROTOCOL}, not {message.protocol}; "
                "reload the page",
            )
            return
        self.greeted = True
        LOBBY.attach()
        # Join first, then read: whatever changes meanwhile comes after the welcome, and the
        # rows' versions let the browser keep the newest.
        if self.lobby:
            await LOBBY.join(self)
        groups = []
        if self.user_id is not None:
            groups.append(user_group(self.user_id))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = tuple(groups)
        welcome = await database_sync_to_async(lobby.welcome)(self.scope["user"], self.lobby)
        await self.send(welcome.text())

    async def send(  # type: ignore[override]  # as AsyncWebsocketConsumer's own
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        with contextlib.suppress(Disconnected):
            await super().send(text_data, bytes_data, close)

    async def _error(self, code: str, message: str) -> None:
        await self.send(server_out.Error(code=code, message=message).text())

    # --- from the channel layer: texts made once, sent as they are ----------------------------
    async def club_notice(self, event: TextMessage) -> None:
        await self.send(event["text"])


class LobbyConsumer(ClubConsumer):
    """`/ws/lobby/`: the lobby group, and the member's notices."""

    lobby = True


class NoticesConsumer(ClubConsumer):
    """`/ws/notices/`: the member's (or guest's) notices only."""

    lobby = False
