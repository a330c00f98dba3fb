"""Helpers for driving the match websocket in-process (channels' WebsocketCommunicator)."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any, ClassVar

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from game import clock
from game.models import Match
from game.protocol import server_out
from game.routing import websocket_urlpatterns

_ids = itertools.count(1)
ROUTER = URLRouter(websocket_urlpatterns)

# A break from the D that first hits a red and pots nothing (B then plays).
BREAK_CUE = (150.0, -1150.0)
BREAK_AT = (120.0, 1127.65)


def as_user(user: Any, address: str = "127.0.0.1") -> Any:
    """The router with `user` in the scope, as AuthMiddlewareStack would put it, and the
    client's address as daphne would."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = {**scope, "user": user or AnonymousUser(), "client": (address, 50000)}
        return await ROUTER(scope, receive, send)

    return app


def started(row: Match) -> Match:
    """`row` as if both players had come to the table together now (game/presence.py)."""
    row.started = row.arrived_a = row.arrived_b = clock.now()
    Match.objects.filter(pk=row.pk).update(
        started=row.started, arrived_a=row.arrived_a, arrived_b=row.arrived_b
    )
    return row


async def close_code(ws: WebsocketCommunicator) -> int:
    """The code the server closed `ws` with, once what it sent before is read past."""
    out = await ws.receive_output(timeout=10)
    while out["type"] != "websocket.close":
        out = await ws.receive_output(timeout=10)
    return int(out["code"])


class Client:
    """One browser: a communicator plus the protocol's bookkeeping."""

    # Every client made, so a test's teardown closes them all (the `close_clients` fixture):
    # a socket left open would clean up after the next test had begun.
    made: ClassVar[list[Client]] = []

    def __init__(
        self, match_id: int, user: Any = None, address: str = "127.0.0.1", path: str = "match"
    ) -> None:
        """On `/ws/{path}/`: `match`, the players' path, or `watch`, the crowd's."""
        self.ws = WebsocketCommunicator(as_user(user, address), f"/ws/{path}/{match_id}/")
        Client.made.append(self)
        self.version = 0
        self.seen: list[dict[str, Any]] = []

    async def open(self, last_version: int | None = None) -> dict[str, Any]:
        connected, _ = await self.ws.connect()
        assert connected
        await self.send({"type": "hello", "protocol": 1, "last_version": last_version})
        welcome = await self.expect("welcome")
        if welcome["snapshot"]:
            self.version = welcome["snapshot"]["version"]
        return welcome

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_to(text_data=json.dumps(message))

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        message = json.loads(await self.ws.receive_from(timeout=timeout))
        server_out.SCHEMAS[message["type"]].model_validate(message)  # every message has a schema
        self.seen.append(message)
        if message["type"] == "event":
            assert message["version"] == self.version + 1, "events arrive in order, once"
            self.version = message["version"]
        return message

    async def expect(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        """The next message of this type (presence, aim, thinking, ack, clock and log messages
        are skipped)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message
            skipped = ("presence", "aim", "thinking", "ack", "clock", "log", "lines", "line")
            if message["type"] not in skipped:
                raise AssertionError(f"expected {kind}, got {message}")

    async def stroke(self, **fields: Any) -> str:
        client_id = fields.pop("client_id", f"c{next(_ids)}")
        message = {"type": "stroke", "client_id": client_id, "version": self.version,
                   "angle": 0.0, "speed": 3.0, **fields}  # fmt: skip
        await self.send(message)
        return client_id

    async def break_off(self, speed: float = 8.0, **fields: Any) -> str:
        angle = math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0])
        return await self.stroke(angle=angle, speed=speed, cue_ball=list(BREAK_CUE), **fields)

    async def close(self) -> None:
        await self.ws.disconnect()
