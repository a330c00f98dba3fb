"""The match's chat rooms across two daphne processes sharing PostgreSQL and Redis: a line
said on one reaches the room's readers on the other, each writer's lines in the order said,
and a spectator's never the players'.

Needs Redis and PostgreSQL (REDIS_URL / DATABASE_URL, else the local defaults); it fails,
never skips, without them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

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
