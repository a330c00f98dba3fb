"""The skeleton every socket shares (game/sockets.py), on a socket of its own: what the match's
and the lobby's tests do not reach."""

from __future__ import annotations

import asyncio
from typing import Any

from game.gates import GATE
from game.protocol import PROTOCOL_VERSION, client_in
from game.sockets import Socket


class Bare(Socket[client_in.Hello, client_in.ClientMessage]):
    hello = client_in.Hello
    version = PROTOCOL_VERSION

    @property
    def room(self) -> int:
        return 7

    async def connect(self) -> None:
        if await self._admit(False):
            self._limit(10, 10)
            await self.accept()


async def test_a_failed_receive_ends_the_socket_and_frees_its_place() -> None:
    """A server's receive that fails does not leave the consumer waiting for ever: it ends,
    and its place at the gate goes with it."""
    calls = 0
    accepted = asyncio.Event()

    async def receive() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 1:
            return {"type": "websocket.connect"}
        await accepted.wait()
        raise OSError("the server's receive failed")

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        accepted.set()

    scope = {"type": "websocket", "path": "/", "headers": [], "client": ("10.9.0.1", 1)}
    task = asyncio.ensure_future(Bare.as_asgi()(scope, receive, send))
    await asyncio.wait([task], timeout=2)
    assert task.cancelled()
    assert [m["type"] for m in sent] == ["websocket.accept"]
    assert GATE.addresses["10.9.0.1"] == 0 and GATE.matches[7] == 0
