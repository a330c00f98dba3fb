"""The chat rooms across two daphne processes sharing PostgreSQL and Redis: a line said on one
reaches the room's readers on the other, each writer's lines in the order said, and a
spectator's never the players'; the lobby's room is one room across the processes, and an
organiser's timeout and troll mark, from a third process, reach the member's page and the
others' through Redis.

Needs Redis and PostgreSQL (REDIS_URL / DATABASE_URL, else the local defaults); it fails,
never skips, without them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests.live.harness import Daphne, LiveClient, run_ctl


@pytest.fixture
async def servers(
    server_env: dict[str, str], tmp_path: Path
) -> AsyncIterator[tuple[Daphne, Daphne]]:
    started: list[Daphne] = []
    try:
        for name in ("daphne-1", "daphne-2"):
            started.append(Daphne(name, server_env, tmp_path))
        for server in started:
            server.wait_healthy()
        yield started[0], started[1]
    finally:
        for server in started:
            server.kill()


def said(client: LiveClient, room: str) -> list[tuple[str, str]]:
    return [(m["line"]["author"], m["line"]["text"]) for m in client.lines if m["room"] == room]


async def test_two_processes_hear_each_others_lines_in_order(
    servers: tuple[Daphne, Daphne], server_env: dict[str, str]
) -> None:
    one, two = servers
    setup: dict[str, Any] = run_ctl(server_env, "setup")
    match, name = setup["match"], setup["cookie_name"]
    alice = LiveClient("alice", match, f"{name}={setup['sessions']['alice']}")
    bob = LiveClient("bob", match, f"{name}={setup['sessions']['bob']}")
    watch_one, watch_two = LiveClient("spectator-1", match), LiveClient("spectator-2", match)
    clients = [alice, bob, watch_one, watch_two]
    try:
        for client, server in zip(clients, (one, two, one, two), strict=True):
            await client.open(server, last_version=0)
        alices = ["good luck", "rematch at eight?", "are you still there"]
        bobs = ["thanks, you too", "eight is fine", "here, one moment"]
        for a, b in zip(alices, bobs, strict=True):  # sent together, without waiting
            await alice.send({"type": "say", "room": "players", "text": a})
            await bob.send({"type": "say", "room": "players", "text": b})
        for client in (alice, bob):
            await client.wait_until(lambda c=client: len(c.lines) == 6, f"{client.name} lines")
            lines = said(client, "players")
            assert [t for who, t in lines if who == "alice"] == alices
            assert [t for who, t in lines if who == "bob"] == bobs

        # Each hears its own line first, so two writers' lines may come in another order on
        # each socket; their ids are the order they were stored, which the page shows
        # (static/js/chatroom.js sorts a room by id): the same on both.
        def stored(client: LiveClient) -> list[tuple[int, str]]:
            return sorted((m["line"]["id"], m["line"]["text"]) for m in client.lines)

        assert stored(alice) == stored(bob)
        assert len({i for i, _ in stored(alice)}) == 6
        # Spectators (strangers here: read only) read none of the players' room.
        assert watch_one.lines == [] and watch_two.lines == []
        for client in clients:
            assert client.problems == []
            assert client.dropped is None
    finally:
        for client in clients:
            await client.close()


class LobbyTalker:
    """A member's lobby socket (/ws/lobby/) that keeps the chat's `line` messages it hears,
    and the moderators' words (`told`: `timed_out`, `struck`)."""

    def __init__(self, name: str, cookie: str) -> None:
        self.name, self.cookie = name, cookie
        self.lines: list[dict[str, Any]] = []
        self.told: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] | None = None
        self.heard = asyncio.Event()
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def open(self, server: Daphne) -> None:
        self.ws = await connect(
            f"{server.url}/ws/lobby/", additional_headers={"Cookie": self.cookie},
            origin=Origin(f"http://127.0.0.1:{server.port}"), proxy=None, compression=None,
        )  # fmt: skip
        await self.ws.send(json.dumps({"type": "hello", "protocol": 1}))
        while self.history is None:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            if message["type"] == "lines":
                self.history = message["lines"]
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "line":
                self.lines.append(message["line"])
                self.heard.set()
            elif message["type"] in ("timed_out", "struck"):
                self.told.append(message)
                self.heard.set()

    async def until(self, count: int, told: int = 0) -> None:
        async with asyncio.timeout(20):
            while len(self.lines) < count or len(self.told) < told:
                self.heard.clear()
                await self.heard.wait()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.ws is not None:
            await self.ws.close()


async def test_the_lobbys_room_is_one_room_across_processes(
    servers: tuple[Daphne, Daphne], server_env: dict[str, str]
) -> None:
    one, two = servers
    setup: dict[str, Any] = run_ctl(server_env, "setup")
    name = setup["cookie_name"]
    alice = LobbyTalker("alice", f"{name}={setup['sessions']['alice']}")
    bob = LobbyTalker("bob", f"{name}={setup['sessions']['bob']}")
    try:
        await alice.open(one)
        await bob.open(two)
        alices = ["anyone for a frame?", "best of three", "see you at the table"]
        bobs = ["me", "fine by me", "on my way"]
        for a, b in zip(alices, bobs, strict=True):  # sent together, without waiting
            await alice.ws.send(json.dumps({"type": "say", "text": a}))
            await bob.ws.send(json.dumps({"type": "say", "text": b}))
        for talker in (alice, bob):
            await talker.until(6)
            assert [s["text"] for s in talker.lines if s["author"] == "alice"] == alices
            assert [s["text"] for s in talker.lines if s["author"] == "bob"] == bobs
        # The same room on both: ids in the order stored, which the page shows.
        assert sorted((s["id"], s["text"]) for s in alice.lines) == sorted(
            (s["id"], s["text"]) for s in bob.lines
        )
        # An organiser in a third process times Bob out and marks him a troll: his own page
        # (his group, through Redis) is told why, and his lines leave Alice's at once.
        run_ctl(server_env, "moderate", "bob")
        await alice.until(6, told=1)
        await bob.until(6, told=1)
        assert [(m["type"], m["reason"]) for m in bob.told] == [("timed_out", "a test")]
        struck = [m for m in alice.told if m["type"] == "struck"]
        assert [(m["room"], m["author"]) for m in struck] == [("lobby", "bob")]
    finally:
        for talker in (alice, bob):
            await talker.close()
