"""What the chat tells a member wherever their pages are (docs/chat.md, "Told live"): a match
socket of a member is in their own group, as their lobby socket is, so a block made while a
match page is open applies there at once, a timeout reaches their pages of every room with
until when and why, and a member marked a troll has their lines struck from every other
reader's open pages (and from what a process holds for the spectators) at once."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from chat import moderation
from chat import service as chat_service
from club import blocks, chat
from game import clock
from game import service as game_service
from tests.club.helpers import LobbyClient
from tests.game.helpers import Client, started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


@pytest.fixture
def people(db: None) -> Any:
    """Members (a usable password: not guests; never hashed, nobody logs in with it)."""
    users = get_user_model().objects
    names = ("alice", "bob", "carol", "dave", "ann")
    return [users.create(username=n, password="test:unhashed") for n in names]


@pytest.fixture
def table(people: Any) -> Any:
    """Alice v Bob, started."""
    return started(game_service.create_match(people[0], people[1], best_of=3, draw="A"))


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create(username="org", is_staff=True)


async def settled(*clients: Client | LobbyClient) -> None:
    """Each socket takes its messages one at a time: what its member's group was sent before
    the first ping has been taken once the second is answered."""
    for client in clients:
        for _ in range(2):
            ping = {"type": "ping", "version": client.version} if isinstance(client, Client) else {}
            await client.send({"type": "ping", **ping})
            await client.expect("pong")


def texts(client: Client | LobbyClient) -> list[str]:
    return [m["line"]["text"] for m in client.seen if m["type"] == "line"]


async def test_a_block_made_with_a_match_page_open_applies_there_at_once(
    table: Any, people: Any
) -> None:
    alice_u, bob_u, carol_u, dave_u, _ = people
    carol, dave = Client(table.pk, carol_u), Client(table.pk, dave_u)
    alice, bob = Client(table.pk, alice_u), Client(table.pk, bob_u)
    other = Client(table.pk, address="10.0.12.1")  # a spectator the relay hands lines to after her
    for client in (carol, dave, alice, bob, other):
        await client.open()
    await dave.send({"type": "say", "room": "spectators", "text": "before the block"})
    assert (await carol.expect("line"))["line"]["text"] == "before the block"

    def block(blocker: Any, blocked: Any) -> None:  # as the profile's button does
        blocks.block(blocker, blocked)
        chat.blocks_changed(blocker.pk)

    # Carol blocks Dave from his profile in another tab: her open match page stops at once.
    await database_sync_to_async(block)(carol_u, dave_u)
    await settled(carol)
    await dave.send({"type": "say", "room": "spectators", "text": "after the block"})
    await other.expect("line")
    assert (await other.expect("line"))["line"]["text"] == "after the block"
    await settled(carol)
    assert texts(carol) == ["before the block"]  # passed over on her open page
    # A player's socket too: Bob blocks Alice, her next line in the players' room stops.
    await database_sync_to_async(block)(bob_u, alice_u)
    await settled(bob)
    await alice.send({"type": "say", "room": "players", "text": "good luck"})
    await alice.expect("line")
    await settled(bob)
    assert texts(bob) == []

    def unblock() -> None:
        blocks.unblock(carol_u, dave_u)
        chat.blocks_changed(carol_u.pk)

    await database_sync_to_async(unblock)()
    await settled(carol)
    await dave.send({"type": "say", "room": "spectators", "text": "hello again"})
    assert (await carol.expect("line"))["line"]["text"] == "hello again"


async def test_a_timeout_reaches_the_members_pages_of_every_room(
    table: Any, people: Any, organiser: Any
) -> None:
    alice_u, _, carol_u, _, ann_u = people
    # Carol watches the match and has the lobby open; Ann is in the lobby, Alice at the table.
    at_table, in_lobby = Client(table.pk, carol_u), LobbyClient(carol_u)
    alice, ann = Client(table.pk, alice_u), LobbyClient(ann_u)
    for client in (at_table, in_lobby, alice, ann):
        await client.open()
    await in_lobby.send({"type": "say", "text": "something rude"})
    await ann.expect("line")
    lobby = await sync_to_async(chat_service.room)("lobby")
    await sync_to_async(chat_service.time_out)(organiser, carol_u.pk, "1h", "insults",
                                               clock.now(), where=lobby)  # fmt: skip
    # Her match page, of another room: until when and why, without the lobby's room.
    told = await at_table.expect("timed_out")
    assert (told["room"], told["member"], told["reason"]) == (None, "carol", "insults")
    # Her lobby page: the lobby's room, and why; the lobby's others: who, not why.
    mine, theirs = await in_lobby.expect("timed_out"), await ann.expect("timed_out")
    assert (mine["room"], mine["member"], mine["reason"]) == ("lobby", "carol", "insults")
    assert (theirs["room"], theirs["member"], theirs["reason"]) == ("lobby", "carol", None)
    await settled(at_table, in_lobby, alice)
    assert [m["type"] for m in in_lobby.seen].count("timed_out") == 1  # told once, not twice
    assert all(m["type"] != "timed_out" for m in alice.seen)  # not the match's business
    assert told["until"] == mine["until"]
    # One given from no room (an organiser's, elsewhere) reaches her every page all the same.
    await sync_to_async(chat_service.time_out)(organiser, carol_u.pk, "1d", "again",
                                               clock.now())  # fmt: skip
    assert (await at_table.expect("timed_out"))["reason"] == "again"
    again = await in_lobby.expect("timed_out")
    assert (again["room"], again["reason"]) == (None, "again")


async def test_a_troll_mark_strikes_their_lines_from_every_other_page_at_once(
    table: Any, people: Any, organiser: Any, monkeypatch: Any
) -> None:
    from game import chat as game_chat

    alice_u, bob_u, carol_u, dave_u, _ = people
    reads: list[int] = []
    real = game_chat.spectators_rooms
    monkeypatch.setattr(game_chat, "spectators_rooms", lambda m: reads.append(m) or real(m))
    carol, dave = Client(table.pk, carol_u), Client(table.pk, dave_u)
    alice, bob = Client(table.pk, alice_u), Client(table.pk, bob_u)
    carols_lobby, daves_lobby = LobbyClient(carol_u), LobbyClient(dave_u)
    for client in (carol, dave, alice, bob, carols_lobby, daves_lobby):
        await client.open()
    await dave.send({"type": "say", "room": "spectators", "text": "buy my cues"})
    await carol.expect("line")
    await daves_lobby.send({"type": "say", "text": "cheap cues here"})
    await carols_lobby.expect("line")
    await bob.send({"type": "say", "room": "players", "text": "he is cheating"})
    await alice.expect("line")
    await carol.send({"type": "say", "room": "spectators", "text": "nice pot"})
    await carol.expect("line")

    def mark(member: Any) -> None:  # the organisers' page's answer to a report
        moderation.troll(organiser, member.pk, "spam", clock.now())

    await database_sync_to_async(mark)(dave_u)
    struck = await carol.expect("struck")
    assert (struck["room"], struck["author"]) == ("spectators", "dave")
    struck = await carols_lobby.expect("struck")
    assert (struck["room"], struck["author"]) == ("lobby", "dave")
    # In the players' room too: Bob's line leaves Alice's page (the players' room only).
    await database_sync_to_async(mark)(bob_u)
    struck = await alice.expect("struck")
    assert (struck["room"], struck["author"]) == ("players", "bob")
    # The troll is not told: his lines stay on his pages.
    await settled(dave, daves_lobby, bob)
    assert all(m["type"] != "struck" for m in [*dave.seen, *daves_lobby.seen, *bob.seen])
    # What the process held for the spectators' greetings took the mark at once: no new
    # read, his line gone for the others, his own still his.
    late = Client(table.pk, address="10.0.11.1")
    await late.open()
    await settled(late)
    [held] = [m["lines"] for m in late.seen if m["type"] == "lines"]
    assert [s["text"] for s in held] == ["nice pot"]
    his = Client(table.pk, dave_u)
    await his.open()
    await settled(his)
    [held] = [m["lines"] for m in his.seen if m["type"] == "lines"]
    assert [s["text"] for s in held] == ["buy my cues", "nice pot"]
    assert reads == [table.pk]
