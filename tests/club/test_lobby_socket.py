"""The lobby and notices sockets, in one process (in-memory layer): the welcome, coalesced
lobby updates from matches being played and watched, notices to both parties at once, the
sweep of expired challenges, and the same protections as the match socket."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from club import lobby, service
from club.models import Challenge
from club.process import LOBBY
from game import presence
from game import service as game_service
from rules.challenges import Format
from snooker_site.asgi import application
from tests.club.helpers import LobbyClient
from tests.game.helpers import Client, close_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


def fast(settings, **club) -> None:  # type: ignore[no-untyped-def]
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0.2, **club}


async def test_the_welcome_is_the_lobby_and_the_members_own(members) -> None:
    alice, bob, carol = members
    live = await database_sync_to_async(game_service.create_match)(alice, bob, 3, draw="A")
    practice = await database_sync_to_async(game_service.create_match)(
        alice, alice, 1, practice=True
    )
    public = (await database_sync_to_async(service.challenge)(carol, None, Format(3))).challenge
    to_alice = (await database_sync_to_async(service.challenge)(bob, alice, Format(1))).challenge

    visitor = await LobbyClient().open()
    assert visitor["lobby"] and visitor["you"] is None and visitor["mine"] == []
    assert [m["id"] for m in visitor["matches"]] == [live.pk]  # no practice table
    row = visitor["matches"][0]
    assert row["players"] == {"A": "alice", "B": "bob"} and row["frames"] == {"A": 0, "B": 0}
    assert row["status"] == "live" and row["watching"] == 0 and row["version"] == 1
    assert [c["id"] for c in visitor["open"]] == [public.pk]

    welcome = await LobbyClient(alice).open()
    assert welcome["you"] == {"name": "alice", "guest": False}
    assert [c["id"] for c in welcome["mine"]] == [to_alice.pk]
    assert {m["id"] for m in welcome["my_matches"]} == {live.pk, practice.pk}

    notices = await LobbyClient(alice, lobby=False).open()
    assert not notices["lobby"] and notices["matches"] == [] and notices["open"] == []
    assert [c["id"] for c in notices["mine"]] == [to_alice.pk]


def test_a_challenger_between_sockets_is_sent_to_the_table_by_the_welcome(members) -> None:
    """Her challenge was accepted while her page reloaded: the notice is gone, so the welcome
    lists the acceptance until she comes to the table (or for `JUST_ACCEPTED`)."""
    alice, bob, _ = members
    made = service.challenge(alice, bob, Format(1)).challenge
    match = service.accept(bob, made.pk).match
    now = timezone.now()
    mine = lobby.welcome(alice, lobby=False).mine
    assert [(c.id, c.status, c.match) for c in mine] == [(made.pk, "accepted", match.pk)]
    assert lobby.welcome(bob, lobby=False).mine == []  # he accepted it on his own page
    assert not lobby.just_accepted(alice, now + lobby.JUST_ACCEPTED)
    presence.connect(match.pk, "alice-1", game_service.seat_of(match, alice))
    assert lobby.welcome(alice, lobby=True).mine == []  # she has come


async def test_notices_are_for_members_and_guests(members) -> None:
    """A visitor's notices socket carries a page's chat room only (docs/chat.md): its hello
    naming none is answered by 4401."""
    refused = LobbyClient(None, lobby=False)
    connected, _ = await refused.ws.connect()
    assert connected
    await refused.send({"type": "hello", "protocol": 1})
    assert await refused.ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_both_parties_are_told_at_once(members, settings) -> None:
    alice, bob, carol = members
    fast(settings)
    bob_page = LobbyClient(bob, lobby=False)  # Bob is on another page
    bob_lobby = LobbyClient(bob)
    alice_lobby = LobbyClient(alice)
    carol_lobby = LobbyClient(carol)
    for c in (bob_page, bob_lobby, alice_lobby, carol_lobby):
        await c.open()
    made = await database_sync_to_async(service.challenge)(alice, bob, Format(3, 30))
    for c in (bob_page, bob_lobby, alice_lobby):
        notice = await c.expect("notice", timeout=10)
        assert notice["challenge"]["status"] == "open" and notice["challenge"]["target"] == "bob"
    assert await carol_lobby.no_rows(0.4)  # a direct challenge is nobody else's business

    done = await database_sync_to_async(service.accept)(bob, made.challenge.pk)
    told = (await alice_lobby.expect("notice"))["challenge"]
    assert told["status"] == "accepted" and told["match"] == done.match.pk and told["version"] == 2
    assert (await bob_page.expect("notice"))["challenge"]["match"] == done.match.pk
    # The new match reaches every lobby (coalesced), Carol's too.
    update = await carol_lobby.rows()
    assert [m["id"] for m in update["matches"]] == [done.match.pk]


async def test_open_challenges_come_and_go_in_the_lobby(members, settings) -> None:
    alice, _, _ = members
    fast(settings)
    visitor = LobbyClient()
    await visitor.open()
    made = await database_sync_to_async(service.challenge)(alice, None, Format(1))
    update = await visitor.expect("update")
    assert [(c["id"], c["status"]) for c in update["challenges"]] == [(made.challenge.pk, "open")]
    await database_sync_to_async(service.withdraw)(alice, made.challenge.pk)
    update = await visitor.expect("update")
    assert [(c["status"], c["version"]) for c in update["challenges"]] == [("withdrawn", 2)]


async def test_a_match_played_and_watched_updates_the_lobby(members, settings) -> None:
    alice, bob, _ = members
    fast(settings)
    settings.SNOOKER = {**settings.SNOOKER, "PRESENCE_COALESCE": 0.1}
    match = await database_sync_to_async(game_service.create_match)(alice, bob, 3, draw="A")
    lobby = LobbyClient()
    await lobby.open()
    a, b = Client(match.pk, alice), Client(match.pk, bob)
    await a.open()
    await b.open()
    spectator = Client(match.pk, address="10.9.0.1")
    await spectator.open()
    # Told when the number watching changed (after the players' arrival's update, if the
    # three sockets took longer than a coalescing wait to open).
    watching = 0
    while watching == 0:
        watching = (await lobby.expect("update", timeout=10))["matches"][0]["watching"]
    assert watching == 1
    await a.break_off()
    await a.expect("event")
    row = None
    while row is None or row["version"] < 2:
        row = (await lobby.expect("update", timeout=10))["matches"][0]
    assert row["id"] == match.pk and row["striker"] == "B"
    await a.send({"type": "concede", "client_id": "bye", "scope": "match"})
    await a.expect("event")
    while row["status"] != "finished":
        row = (await lobby.expect("update", timeout=10))["matches"][0]
    assert row["frames"] == {"A": 0, "B": 1}


async def test_a_crowd_of_changes_makes_few_updates_for_one_group(members, settings) -> None:
    """Ten matches changing at once: one update read once and sent to the one lobby group,
    the same text to every lobby socket."""
    alice, bob, _ = members
    fast(settings, LOBBY_COALESCE=0.3)
    matches = [
        await database_sync_to_async(game_service.create_match)(alice, bob, 1) for _ in range(10)
    ]
    lobbies = [LobbyClient(address=f"10.8.0.{i}") for i in range(5)]
    for c in lobbies:
        await c.open()
    reads = []
    real = LOBBY.flush

    async def counted() -> None:
        reads.append(sorted(LOBBY.matches))
        await real()

    LOBBY.flush = counted  # type: ignore[method-assign]
    for m in matches:
        LOBBY.note(matches=(m.pk,))
    texts = [await c.ws.receive_from(timeout=10) for c in lobbies]
    assert len(set(texts)) == 1 and len(reads) == 1 and len(reads[0]) == 10
    assert LOBBY.updates == 1
    assert all(await asyncio.gather(*(c.nothing(0.4) for c in lobbies)))


async def test_sockets_greeted_at_once_share_one_relay(members, settings, monkeypatch) -> None:
    """The lobby group holds one channel per process, however many sockets are greeted while
    it joins (Redis answers after a while: here, made slower still)."""
    fast(settings)
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    real = layer.group_add
    joined: list[str] = []

    async def slow_group_add(group: str, channel: str) -> None:
        await asyncio.sleep(0.05)
        if group == "lobby":
            joined.append(channel)
        await real(group, channel)

    monkeypatch.setattr(layer, "group_add", slow_group_add)
    lobbies = [LobbyClient(address=f"10.4.0.{i}") for i in range(5)]
    await asyncio.gather(*(c.open() for c in lobbies))
    assert len(joined) == 1  # one relay channel for the process in the lobby group
    match = await database_sync_to_async(game_service.create_match)(*members[:2], 1)
    LOBBY.note(matches=(match.pk,))
    for c in lobbies:
        assert (await c.expect("update"))["matches"][0]["id"] == match.pk
    assert all(await asyncio.gather(*(c.nothing(0.3) for c in lobbies)))  # once each


async def test_the_sweep_tells_both_parties_of_an_expiry(members, settings) -> None:
    alice, bob, _ = members
    fast(settings, SWEEP_EVERY=0.2)
    made = await database_sync_to_async(service.challenge)(alice, bob, Format(1))
    alice_page = LobbyClient(alice, lobby=False)
    bob_page = LobbyClient(bob, lobby=False)
    await alice_page.open()
    await bob_page.open()
    await database_sync_to_async(Challenge.objects.update)(
        expires=timezone.now() - timedelta(seconds=1)
    )
    for c in (alice_page, bob_page):
        notice = await c.expect("notice", timeout=10)
        assert notice["challenge"]["id"] == made.challenge.pk
        assert notice["challenge"]["status"] == "expired"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{nope", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ("[1]", "bad_message"),
        ('{"type": "hello", "protocol": "1"}', "invalid"),
        ('{"type": "ping", "x": 1}', "invalid"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
    ],
)
async def test_bad_input_is_answered(members, raw, code) -> None:
    c = LobbyClient()
    await c.open()
    await c.ws.send_to(text_data=raw)
    assert (await c.expect("error"))["code"] == code
    await c.send({"type": "ping"})
    await c.expect("pong")


async def test_hello_first_once_and_in_our_protocol(members) -> None:
    c = LobbyClient()
    await c.ws.connect()
    await c.send({"type": "ping"})
    assert (await c.expect("error"))["code"] == "hello_first"
    await c.send({"type": "hello", "protocol": 99})
    assert (await c.expect("error"))["code"] == "protocol"
    await c.send({"type": "hello", "protocol": 1})
    await c.expect("welcome")
    await c.send({"type": "hello", "protocol": 1})
    assert (await c.expect("error"))["code"] == "already_greeted"


async def test_sockets_are_capped_per_address_and_in_all(members, settings) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "MAX_SOCKETS_PER_ADDRESS": 2}
    settings.CLUB = {**settings.CLUB, "MAX_LOBBY_SOCKETS": 3}
    for _ in range(2):
        await LobbyClient(address="10.7.0.1").open()
    connected, code = await LobbyClient(address="10.7.0.1").ws.connect()
    assert not connected and code == 4029
    await LobbyClient(address="10.7.0.2").open()
    connected, code = await LobbyClient(members[0], address="10.7.0.3").ws.connect()
    assert not connected and code == 4029  # the lobby is full in this process


async def test_a_flood_is_closed(members, settings, set_clock) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "SPECTATOR_RATE_BURST": 2,
                        "SPECTATOR_RATE_PER_SECOND": 0.01, "FLOOD_CLOSE_AFTER": 0.2}  # fmt: skip
    c = LobbyClient(address="10.6.0.1")
    await c.open()
    closed = None
    for _ in range(100):
        await c.send({"type": "ping"})
        while not c.ws.input_queue.empty():  # read (an answered ping reads the database)
            await asyncio.sleep(0)
        await set_clock.advance(0.01)
        while not c.ws.output_queue.empty():
            out = await c.ws.receive_output()
            if out["type"] == "websocket.close":
                closed = out["code"]
        if closed:
            break
    assert closed == 4008
    connected, code = await LobbyClient(address="10.6.0.1").ws.connect()
    assert not connected and code == 4029  # the address waits


async def test_a_backlog_of_unread_messages_is_a_flood(members, settings) -> None:
    """A server too busy to read a lobby socket as fast as it sends still sees the flood."""
    # The bucket would allow them all: only the backlog tells.
    settings.SNOOKER = {**settings.SNOOKER, "FLOOD_BACKLOG": 20, "SPECTATOR_RATE_BURST": 100}
    c = LobbyClient(address="10.6.0.2")
    await c.open()
    for _ in range(40):  # all queued before the consumer reads the first
        await c.ws.send_input({"type": "websocket.receive", "text": '{"type":"ping"}'})
    assert await close_code(c.ws) == 4008
    connected, code = await LobbyClient(address="10.6.0.2").ws.connect()
    assert not connected and code == 4029  # the address waits


async def test_a_stranger_that_keeps_sending_what_is_refused_is_a_flood(members, settings) -> None:
    """As on a match's socket: past a stranger's allowance of refusals the lobby socket is
    closed as a flood and its address waits; a member's refusals are answered every time."""
    settings.SNOOKER = {**settings.SNOOKER, "STRANGER_FAULTS_BURST": 3,
                        "STRANGER_FAULTS_PER_SECOND": 0.001}  # fmt: skip
    stranger, member = LobbyClient(address="10.6.0.3"), LobbyClient(members[0], address="10.6.0.4")
    for c in (stranger, member):
        await c.open()
    for _ in range(3):
        await stranger.send({"type": "hello", "protocol": 1})
        assert (await stranger.expect("error"))["code"] == "already_greeted"
    await stranger.send({"type": "hello", "protocol": 1})
    assert await close_code(stranger.ws) == 4008
    connected, code = await LobbyClient(address="10.6.0.3").ws.connect()
    assert not connected and code == 4029  # the address waits
    for _ in range(5):
        await member.send({"type": "hello", "protocol": 1})
        assert (await member.expect("error"))["code"] == "already_greeted"


async def test_a_foreign_page_cannot_open_the_lobby_or_notices(members) -> None:
    for path in ("/ws/lobby/", "/ws/notices/"):
        own = WebsocketCommunicator(
            application, path, headers=[(b"host", b"127.0.0.1:8000"),
                                        (b"origin", b"http://127.0.0.1:8000")],
        )  # fmt: skip
        foreign = WebsocketCommunicator(
            application, path, headers=[(b"host", b"127.0.0.1:8000"),
                                        (b"origin", b"http://127.0.0.1:8001")],
        )  # fmt: skip
        assert (await foreign.connect())[0] is False
        # Both open to our own page (a visitor's notices socket closes at a hello naming no
        # room: test_notices_are_for_members_and_guests).
        connected, _ = await own.connect()
        assert connected
        await own.disconnect()


async def test_a_views_announcement_reaches_the_lobby_after_the_view_returned(
    members, settings
) -> None:
    """A change committed in a view announces through `announce_now` (async_to_sync from its
    thread); the lobby's coalesced update is read after the view has returned, on the
    server's own terms (it once inherited the view's executor, gone by then: the update was
    lost)."""
    from asgiref.sync import sync_to_async

    from club.process import announce_now

    alice, bob, _ = members
    fast(settings, LOBBY_COALESCE=0.3)
    first, second = [
        await database_sync_to_async(game_service.create_match)(alice, bob, 1) for _ in range(2)
    ]
    lobby = LobbyClient()
    await lobby.open()
    LOBBY.note(matches=(first.pk,))
    await lobby.ws.receive_from(timeout=2)  # the next update waits for the interval
    await sync_to_async(announce_now)(service.News(matches=(second.pk,)))
    update = json.loads(await lobby.ws.receive_from(timeout=2))
    assert [m["id"] for m in update["matches"]] == [second.pk]
