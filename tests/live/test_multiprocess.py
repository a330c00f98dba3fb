"""Two daphne processes sharing PostgreSQL and Redis; one is killed in the middle of a match.

Alice (A) and a spectator watch through process 1, Bob (B) and another spectator through
process 2. After some play process 1 gets SIGKILL with Alice's stroke in flight; Alice and her
spectator come back on process 2 with `hello{last_version}`, Alice re-sends her unanswered
stroke under the same client id, and the match is played out. Every socket must have seen
every event exactly once and in order, and the database must hold each request once.

Needs Redis and PostgreSQL (REDIS_URL / DATABASE_URL, else the local defaults); it fails,
never skips, without them. It uses its own scratch database, not pytest-django's.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.harness import (
    Daphne,
    LiveClient,
    next_move,
    run_ctl,
)

_ids = itertools.count(1)
QUIET_SECONDS = 6.5


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


async def _act(players: dict[str, LiveClient], watchers: list[LiveClient]) -> int:
    """Whoever is to act makes a legal request; returns the version it created, once every
    watcher has it."""
    snapshot = players["A"].snapshot
    actor = players[snapshot["scoreboard"]["to_act"]]
    message = next_move(actor.snapshot, f"{actor.name}-{next(_ids)}")
    await actor.send(message)
    await actor.wait_until(lambda: message["client_id"] in actor.acks, "ack")
    version: int = actor.acks[message["client_id"]]["version"]
    for client in watchers:
        await client.wait_version(version)
    return version


async def test_a_killed_server_loses_nothing_and_doubles_nothing(
    servers: tuple[Daphne, Daphne], server_env: dict[str, str]
) -> None:
    one, two = servers
    setup: dict[str, Any] = run_ctl(server_env, "setup")
    match, name = setup["match"], setup["cookie_name"]
    alice = LiveClient("alice", match, f"{name}={setup['sessions']['alice']}")
    bob = LiveClient("bob", match, f"{name}={setup['sessions']['bob']}")
    watch_one, watch_two = LiveClient("spectator-1", match), LiveClient("spectator-2", match)
    clients = [alice, bob, watch_one, watch_two]
    players = {"A": alice, "B": bob}
    try:
        # last_version 0: the whole log arrives as events, so every client sees 1..final.
        for client, server in zip(clients, (one, two, one, two), strict=True):
            await client.open(server, last_version=0)
        assert [c.seat for c in clients] == ["A", "B", None, None]
        for client in clients:
            await client.wait_version(1)

        # Some play across both processes: each event goes through Redis to the other one.
        for _ in range(4):
            await _act(players, clients)
        for _ in range(10):  # on to a turn of Alice's (a pot keeps the striker at the table)
            if alice.snapshot["scoreboard"]["to_act"] == "A":
                break
            await _act(players, clients)
        assert alice.snapshot["scoreboard"]["to_act"] == "A"

        # Alice's request is in flight when her server dies.
        in_flight = next_move(alice.snapshot, f"alice-{next(_ids)}")
        await alice.send(in_flight)
        one.kill()
        for client in (alice, watch_one):
            await client.close()
        acked_before_kill = in_flight["client_id"] in alice.acks

        for client in (alice, watch_one):
            await client.open(two, last_version=client.version)  # a gap is filled with events
        if not acked_before_kill:
            await alice.send(in_flight)  # same client id, same version: applied at most once
        await alice.wait_until(lambda: in_flight["client_id"] in alice.acks, "the re-sent ack")
        settled = alice.acks[in_flight["client_id"]]["version"]
        for client in clients:
            # Pinging fills the gap if process 1 committed the stroke but died before
            # publishing it.
            await client.wait_version(settled)

        # A repeat of an answered request is answered again, never applied.
        await alice.send(in_flight)
        await alice.wait_until(lambda: alice.acks[in_flight["client_id"]]["duplicate"], "dup")
        assert alice.acks[in_flight["client_id"]]["version"] == settled

        # Quiet for longer than channels_redis blocks on Redis (5 s): no socket may be closed
        # for it (redis-py 8's default 5 s read timeout used to end the consumer).
        await asyncio.sleep(QUIET_SECONDS)
        assert [c.dropped for c in clients] == [None] * len(clients)
        for _ in range(2):
            await _act(players, clients)
        concede = {"type": "concede", "client_id": "bob-concedes", "scope": "match"}
        await bob.send(concede)
        await bob.wait_until(lambda: "bob-concedes" in bob.acks, "the concession's ack")
        final = bob.acks["bob-concedes"]["version"]
        for client in clients:
            await client.wait_version(final)

        stored = run_ctl(server_env, "verify", str(match))
        assert stored["vendor"] == "postgresql"
        assert stored["version"] == final and stored["status"] == "finished"
        assert stored["versions"] == list(range(1, final + 1)), "one event per version"
        assert len(stored["requests"]) == len({tuple(r) for r in stored["requests"]})
        assert in_flight["client_id"] in [cid for _, cid in stored["requests"]]
        assert stored["rebuilt_equals_stored"]
        for client in clients:
            assert client.problems == []
            assert client.errors == []
            assert [e["version"] for e in client.events] == list(range(1, final + 1))
            assert client.snapshot == stored["snapshot"]
        assert stored["snapshot"]["winner"] == "A"
        print(f"settled at v{final}; in-flight stroke acked before the kill: {acked_before_kill}; "
              f"re-send landed at v{settled}")  # fmt: skip
    except BaseException:
        for server in servers:
            print(f"--- {server.name} log ---\n{server.log()}")
        raise
    finally:
        for client in clients:
            await client.close()
