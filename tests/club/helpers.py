"""Driving the club's sockets in-process (channels' WebsocketCommunicator)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from club.protocol import server_out
from club.routing import websocket_urlpatterns

ROUTER = URLRouter(websocket_urlpatterns)


def as_user(user: Any, address: str = "127.0.0.1") -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = {**scope, "user": user or AnonymousUser(), "client": (address, 50000)}
        return await ROUTER(scope, receive, send)

    return app


class LobbyClient:
    """One lobby (or notices) socket; every message it receives is checked by its schema."""

    made: ClassVar[list[LobbyClient]] = []

    def __init__(
        self, user: Any = None, address: str = "127.0.0.1", lobby: bool = True,
        room: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
        """`room`: the page's room a notices socket's hello names (`kind`, `key`)."""
        path = "/ws/lobby/" if lobby else "/ws/notices/"
        self.lobby = lobby
        self.room = room
        self.history: dict[str, Any] | None = None  # the chat room's `lines` after the welcome
        self.ws = WebsocketCommunicator(as_user(user, address), path)
        LobbyClient.made.append(self)
        self.seen: list[dict[str, Any]] = []

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.ws.connect()
        assert connected
        hello: dict[str, Any] = {"type": "hello", "protocol": 1}
        if self.room is not None:
            hello["room"] = self.room
        await self.send(hello)
        welcome = await self.expect("welcome")
        if self.lobby or self.room:  # the room's last lines follow every welcome
            self.history = await self.expect("lines")
        return welcome

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_to(text_data=json.dumps(message))

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        message = json.loads(await self.ws.receive_from(timeout=timeout))
        server_out.SCHEMAS[message["type"]].model_validate(message)
        self.seen.append(message)
        return message

    async def expect(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def rows(self, timeout: float = 5) -> dict[str, Any]:
        """The next update with rows in it: those saying only who is online (members come and
        go as a test's sockets open and close) are passed over."""
        while True:
            update = await self.expect("update", timeout)
            if update["matches"] or update["challenges"]:
                return update

    async def no_rows(self, timeout: float = 0.3) -> bool:
        """Nothing for `timeout` seconds but who is online."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (left := end - loop.time()) > 0:
            if await self.ws.receive_nothing(timeout=left):
                return True
            message = await self.recv()
            if message["type"] != "update" or message["matches"] or message["challenges"]:
                return False
        return True

    async def nothing(self, timeout: float = 0.3) -> bool:
        """Nothing for `timeout` seconds but who is online (members come and go as the test's
        sockets open, and a loaded machine tells that late)."""
        return await self.no_rows(timeout)
