"""What a stranger can cost a match is bounded (issue: trust), and who may be claimed against."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from game import service
from tests.game.helpers import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


async def _refused(client: Client) -> int | None:
    connected, code = await client.ws.connect()
    assert not connected
    return code  # type: ignore[no-any-return]


async def test_hello_is_answered_once_per_socket(match, players) -> None:
    s = Client(match.pk)
    await s.open()
    await s.send({"type": "hello", "protocol": 1, "last_version": 0})
    assert (await s.expect("error"))["code"] == "already_greeted"
    await s.close()


async def test_sockets_per_address_are_capped_but_players_always_come_in(
    match, players, settings
) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "MAX_SOCKETS_PER_ADDRESS": 2}
    crowd = [Client(match.pk, address="10.0.0.1") for _ in range(2)]
    for c in crowd:
        await c.open()
    assert await _refused(Client(match.pk, address="10.0.0.1")) == 4029
    other = Client(match.pk, address="10.0.0.2")
    await other.open()  # another address is welcome
    alice = Client(match.pk, players[0], address="10.0.0.1")
    assert (await alice.open())["seat"] == "A"
    await alice.close()
    await crowd[0].close()
    again = Client(match.pk, address="10.0.0.1")
    await again.open()  # a place was freed


async def test_watchers_per_match_are_capped_but_players_always_come_in(
    match, players, settings
) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "MAX_SOCKETS_PER_MATCH": 2}
    crowd = [Client(match.pk, address=f"10.0.1.{i}") for i in range(2)]
    for c in crowd:  # (kept: a communicator that is collected closes its socket)
        await c.open()
    assert await _refused(Client(match.pk, address="10.0.1.9")) == 4029
    carol = await database_sync_to_async(get_user_model().objects.create_user)("carol")
    assert await _refused(Client(match.pk, carol, address="10.0.1.8")) == 4029  # a member
    bob = Client(match.pk, players[1], address="10.0.1.9")
    assert (await bob.open())["seat"] == "B"


async def test_a_flooding_address_waits_and_its_player_does_not(match, players, settings) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "SPECTATOR_RATE_BURST": 2,
                        "SPECTATOR_RATE_PER_SECOND": 0.01, "FLOOD_CLOSE_AFTER": 0.2}  # fmt: skip
    flooder = Client(match.pk, address="10.0.2.1")
    await flooder.open()
    closed = None
    for _ in range(100):
        await flooder.send({"type": "ping", "version": 0})
        await asyncio.sleep(0.01)
        while not flooder.ws.output_queue.empty():
            out = await flooder.ws.receive_output()
            if out["type"] == "websocket.close":
                closed = out["code"]
        if closed:
            break
    assert closed == 4008
    assert await _refused(Client(match.pk, address="10.0.2.1")) == 4029
    alice = Client(match.pk, players[0], address="10.0.2.1")
    assert (await alice.open())["seat"] == "A"


async def test_a_backlog_of_unread_messages_is_a_flood(match, players, settings) -> None:
    """A server too busy to read a socket as fast as it sends still sees the flood."""
    settings.SNOOKER = {**settings.SNOOKER, "FLOOD_BACKLOG": 20}
    s = Client(match.pk, address="10.0.4.1")
    await s.open()
    for _ in range(40):  # all queued before the consumer reads the first
        await s.ws.send_input({"type": "websocket.receive", "text": '{"type":"ping","version":0}'})
    out = await s.ws.receive_output(timeout=2)
    while out["type"] != "websocket.close":
        out = await s.ws.receive_output(timeout=2)
    assert out["code"] == 4008
    assert await _refused(Client(match.pk, address="10.0.4.1")) == 4029


async def test_a_ping_reads_nothing_when_the_socket_is_up_to_date(
    match, players, monkeypatch
) -> None:
    reads = []
    real = service.events_after
    monkeypatch.setattr(service, "events_after", lambda *a: reads.append(a) or real(*a))
    s = Client(match.pk)
    await s.open()
    for _ in range(5):
        await s.send({"type": "ping", "version": 1})
        assert (await s.expect("pong"))["version"] == 1
    assert reads == []
    await s.close()


async def test_a_crowd_arriving_makes_few_presence_broadcasts(match, players, settings) -> None:
    """A player's coming is told at once; a crowd's only as a count, with the heartbeat."""
    settings.SNOOKER = {**settings.SNOOKER, "PRESENCE_COALESCE": 0.1, "HEARTBEAT": 1.0}
    alice = Client(match.pk, players[0])
    await alice.open()
    first = await alice.expect("presence", timeout=2)
    assert first["players"]["A"]["online"] and first["spectators"] == 0
    crowd = [Client(match.pk, address=f"10.0.3.{i}") for i in range(12)]
    await asyncio.gather(*(c.open() for c in crowd))
    counted = await alice.expect("presence", timeout=2)  # the next beat
    while counted["spectators"] < 12:
        counted = await alice.expect("presence", timeout=2)
    assert len([m for m in alice.seen if m["type"] == "presence"]) <= 3
    bob = Client(match.pk, players[1])
    await bob.open()
    assert (await alice.expect("presence", timeout=0.5))["players"]["B"]["online"]
    # A newcomer is told who is here at once.
    late = Client(match.pk, address="10.0.3.99")
    await late.open()
    assert (await late.expect("presence", timeout=0.5))["players"]["B"]["online"]


async def test_nobody_can_be_claimed_against_before_they_came(players, db) -> None:
    m = await database_sync_to_async(service.create_match)(
        players[0], players[1], 35, draw="A", reconnect_grace=0
    )
    alice = Client(m.pk, players[0])
    await alice.open()
    presence = await alice.expect("presence")
    assert presence["players"]["B"] == {
        "arrived": False, "online": False, "away_since": None, "claim_from": None
    }  # fmt: skip
    await alice.send({"type": "claim", "client_id": "too-soon", "scope": "match"})
    assert (await alice.expect("error"))["code"] == "not_claimable"
    bob = Client(m.pk, players[1])  # Bob comes, then goes: now he can be claimed against
    await bob.open()
    await bob.close()
    await asyncio.sleep(0.7)
    await alice.send({"type": "claim", "client_id": "now", "scope": "match"})
    assert (await alice.expect("event"))["kind"] == "claim"
