"""A match's two chat rooms on the match's socket (game/chat.py): `say` in, `line` out to the
room's readers, `lines` after every welcome, refusals that never close the socket."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from chat.models import Line
from game.chatheld import HELD
from tests.game.helpers import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


async def lines_of(client: Client) -> dict[str, list[dict[str, Any]]]:
    """The `lines` messages after a welcome, by room (until the next ping's pong)."""
    await client.send({"type": "ping", "version": client.version})
    rooms: dict[str, list[dict[str, Any]]] = {}
    while (message := await client.recv())["type"] != "pong":
        if message["type"] == "lines":
            rooms[message["room"]] = message["lines"]
    return rooms


async def next_line(client: Client) -> dict[str, Any]:
    return await client.expect("line")


async def heard(client: Client, text: str) -> dict[str, Any]:
    """The line saying `text` (the others' said meanwhile read past)."""
    while (line := (await next_line(client))["line"])["text"] != text:
        pass
    return line


async def refusal(client: Client) -> dict[str, Any]:
    return await client.expect("error")


@pytest.fixture
def watcher(db: None) -> Any:
    return get_user_model().objects.create_user("carol", password="pw")


async def test_the_players_exchange_lines_and_a_spectator_reads_none_of_them(
    match: Any, players: Any, watcher: Any
) -> None:
    alice, bob, carol = (
        Client(match.pk, players[0]),
        Client(match.pk, players[1]),
        Client(match.pk, watcher),
    )
    for client in (alice, bob, carol):
        await client.open()
    assert await lines_of(alice) == {"players": []}  # players do not read the spectators'
    assert await lines_of(carol) == {"spectators": []}  # nor spectators the players'
    await alice.send({"type": "say", "room": "players", "text": " good luck <b>bob</b> "})
    mine, theirs = await next_line(alice), await next_line(bob)
    assert mine == theirs
    assert mine["room"] == "players"
    assert (mine["line"]["author"], mine["line"]["text"]) == ("alice", "good luck <b>bob</b>")
    await carol.send({"type": "say", "room": "spectators", "text": "what a break"})
    assert (await next_line(carol))["line"]["text"] == "what a break"
    # The spectator cannot write to the players' room, and is not closed for trying.
    await carol.send({"type": "say", "room": "players", "text": "play safe", "client_id": "c1"})
    refused = await refusal(carol)
    assert (refused["code"], refused["client_id"]) == ("chat_not_allowed", "c1")
    # Bob heard only his room's line (none of the spectators' room while the match is live).
    await bob.send({"type": "say", "room": "players", "text": "thanks"})
    assert (await next_line(bob))["line"]["text"] == "thanks"
    assert (await next_line(alice))["line"]["text"] == "thanks"
    assert [m["line"]["text"] for m in bob.seen if m["type"] == "line"] == [
        "good luck <b>bob</b>", "thanks",
    ]  # fmt: skip
    assert await Line.objects.acount() == 3


async def test_a_reconnecting_page_is_sent_the_rooms_last_lines(match: Any, players: Any) -> None:
    alice = Client(match.pk, players[0])
    await alice.open()
    await alice.send({"type": "say", "room": "players", "text": "are you still there?"})
    await next_line(alice)
    await alice.close()
    again = Client(match.pk, players[1])
    await again.open(last_version=0)
    rooms = await lines_of(again)
    assert [(s["author"], s["text"]) for s in rooms["players"]] == [
        ("alice", "are you still there?")
    ]


async def test_the_sixth_line_in_ten_seconds_is_a_flood_and_the_socket_stays(
    match: Any, players: Any, set_clock: Any
) -> None:
    alice = Client(match.pk, players[0])
    await alice.open()
    for said in ("one", "two words", "three little words", "fourth line", "five"):
        await alice.send({"type": "say", "room": "players", "text": said})
        await next_line(alice)
    await alice.send({"type": "say", "room": "players", "text": "six"})
    assert (await refusal(alice))["code"] == "chat_flood"
    await alice.send({"type": "say", "room": "players", "text": "x" * 141})
    assert (await refusal(alice))["code"] == "chat_too_long"
    await set_clock.advance(10)
    await alice.send({"type": "say", "room": "players", "text": "six"})
    assert (await next_line(alice))["line"]["text"] == "six"


async def test_an_address_writes_at_one_rate_however_many_accounts_and_sockets(
    match: Any, players: Any, watcher: Any, settings: Any, throttle_clock: Any
) -> None:
    """Several accounts from one address do not multiply the flood limit: every line their
    sockets send to the spectators' room counts against the address, each account within its
    own limit; refused in words, the socket open. Another address writes on, and the players'
    room is not counted: nobody sharing a player's address keeps them from their opponent."""
    settings.SNOOKER_CHAT_ADDRESS_RATE = "8/10s"
    dave_u = await get_user_model().objects.acreate_user("dave", password="pw")
    erin_u = await get_user_model().objects.acreate_user("erin", password="pw")
    here = "10.0.3.7"
    carol = Client(match.pk, watcher, address=here)
    daves = [Client(match.pk, dave_u, address=here) for _ in range(2)]
    alice = Client(match.pk, players[0], address=here)
    erin = Client(match.pk, erin_u, address="10.0.3.8")
    for client in (carol, *daves, alice, erin):
        await client.open()
    carols = ("a fine break", "what a pot", "safety now", "he missed")
    davids = ("nice", "unlucky", "good shot there", "close")
    for n, (mine, his) in enumerate(zip(carols, davids, strict=True)):
        await carol.send({"type": "say", "room": "spectators", "text": mine})
        await heard(carol, mine)
        dave = daves[n % 2]  # from both of his sockets
        await dave.send({"type": "say", "room": "spectators", "text": his})
        await heard(dave, his)
    # Carol's fifth line is within her own limit (five in ten seconds), not her address's.
    await carol.send({"type": "say", "room": "spectators", "text": "one more", "client_id": "c5"})
    refused = await refusal(carol)
    assert (refused["code"], refused["client_id"]) == ("chat_address_flood", "c5")
    assert refused["message"].startswith("Too many lines from your address")
    await carol.send({"type": "ping", "version": 0})
    assert (await carol.expect("pong"))["type"] == "pong"  # the socket stays open
    await erin.send({"type": "say", "room": "spectators", "text": "from elsewhere"})
    await heard(erin, "from elsewhere")
    await alice.send({"type": "say", "room": "players", "text": "good luck"})
    assert (await next_line(alice))["line"]["text"] == "good luck"
    assert await Line.objects.filter(author=watcher).acount() == 4
    # The address's window over, it writes again.
    throttle_clock.advance(10)
    await carol.send({"type": "say", "room": "spectators", "text": "one more"})
    assert (await heard(carol, "one more"))["author"] == "carol"


async def test_a_busy_spectators_room_refuses_lines_past_its_rate_before_storing_them(
    match: Any, players: Any, watcher: Any, settings: Any
) -> None:
    """The spectators' room takes `SNOOKER_CHAT_ROOM_RATE` lines, whoever writes them: past
    it a line is refused `chat_busy` (in words, the socket open), nothing stored, nothing
    broadcast; a line refused by the rules does not spend the room's rate, and the players'
    room is not counted."""
    settings.SNOOKER_CHAT_ROOM_RATE = "3/m"  # three at once, then one every 20 s
    dave_u = await get_user_model().objects.acreate_user("dave", password="pw")
    erin_u = await get_user_model().objects.acreate_user("erin", password="pw")
    carol = Client(match.pk, watcher, address="10.0.4.1")
    dave = Client(match.pk, dave_u, address="10.0.4.2")
    erin = Client(match.pk, erin_u, address="10.0.4.3")
    alice = Client(match.pk, players[0])
    for client in (carol, dave, erin, alice):
        await client.open()
    await carol.send({"type": "say", "room": "spectators", "text": "x" * 141})
    assert (await refusal(carol))["code"] == "chat_too_long"  # given back to the room
    for client, said in ((carol, "a fine break"), (dave, "what a pot"), (erin, "safety")):
        await client.send({"type": "say", "room": "spectators", "text": said})
        await heard(client, said)
    await dave.send({"type": "say", "room": "spectators", "text": "one more", "client_id": "d4"})
    refused = await refusal(dave)
    assert (refused["code"], refused["client_id"]) == ("chat_busy", "d4")
    assert refused["message"] == "The room is busy: wait a moment and say it again."
    assert await Line.objects.acount() == 3  # not stored
    for _ in range(3):
        await alice.send({"type": "say", "room": "players", "text": f"good luck {_}"})
        await next_line(alice)  # the players' room has no room rate
    for client in (carol, dave, erin):  # the socket open; "one more" never reached anyone
        await client.send({"type": "ping", "version": client.version})
        await client.expect("pong")
        assert "one more" not in [m["line"]["text"] for m in client.seen if m["type"] == "line"]
    assert await Line.objects.acount() == 6


async def test_a_guest_at_the_table_says_presets_only(match: Any, players: Any) -> None:
    bob = players[1]
    bob.set_unusable_password()
    await bob.asave()
    guest = Client(match.pk, bob)
    await guest.open()
    await guest.send({"type": "say", "room": "players", "text": "hello"})
    assert (await refusal(guest))["code"] == "chat_presets_only"
    await guest.send({"type": "say", "room": "players", "preset": "good_luck"})
    said = (await next_line(guest))["line"]
    assert (said["text"], said["preset"]) == ("good_luck", "good_luck")


async def test_a_timed_out_member_is_told_until_when_and_why(
    match: Any, players: Any, watcher: Any, set_clock: Any
) -> None:
    from asgiref.sync import sync_to_async

    from chat import service as chat
    from game import clock

    organiser = await get_user_model().objects.acreate(username="org", is_staff=True)
    await sync_to_async(chat.time_out)(organiser, watcher.pk, "15m", "insults", clock.now())
    carol = Client(match.pk, watcher)
    await carol.open()
    await carol.send({"type": "say", "room": "spectators", "text": "sorry"})
    refused = await refusal(carol)
    assert refused["code"] == "chat_timed_out"
    assert refused["message"].endswith("UTC: insults")
    await set_clock.advance(15 * 60)
    await carol.send({"type": "say", "room": "spectators", "text": "sorry"})
    assert (await next_line(carol))["line"]["text"] == "sorry"


async def test_a_trolls_lines_reach_the_troll_alone(match: Any, players: Any, watcher: Any) -> None:
    troll = await get_user_model().objects.acreate_user("dave", password="pw")
    dave, carol = Client(match.pk, troll), Client(match.pk, watcher)
    await dave.open()
    await carol.open()
    await dave.send({"type": "say", "room": "spectators", "text": "first, before the mark"})
    assert (await next_line(carol))["line"]["author"] == "dave"
    # Marked a troll behind the switch's back (the switch tells the open pages and what the
    # process holds: tests/club/test_chat_told_everywhere.py): his lines are shown to him
    # alone, in the history as live.
    await Line.objects.filter(author=troll).aupdate(shadow=True)
    HELD.forget(match.pk)  # what the process held before the mark
    again, mine = Client(match.pk, watcher), Client(match.pk, troll)
    await again.open()
    await mine.open()
    assert (await lines_of(again))["spectators"] == []
    assert [s["text"] for s in (await lines_of(mine))["spectators"]] == ["first, before the mark"]


async def test_the_players_read_the_spectators_room_once_the_match_is_over(
    match: Any, players: Any, watcher: Any
) -> None:
    carol = Client(match.pk, watcher)
    await carol.open()
    await carol.send({"type": "say", "room": "spectators", "text": "well played both"})
    await next_line(carol)
    await alice_concedes(match, players)
    await carol.expect("event")
    alice = Client(match.pk, players[0])
    await alice.open()
    rooms = await lines_of(alice)
    assert [s["text"] for s in rooms["spectators"]] == ["well played both"]
    await alice.send({"type": "say", "room": "spectators", "text": "thank you all"})
    assert (await next_line(carol))["line"]["text"] == "thank you all"


async def alice_concedes(match: Any, players: Any) -> None:
    alice = Client(match.pk, players[0])
    await alice.open()
    await alice.send({"type": "concede", "client_id": "bye", "scope": "match"})
    await alice.expect("event")
    await alice.close()


async def test_a_crowd_is_greeted_with_the_spectators_lines_from_one_read(
    match: Any, players: Any, watcher: Any, monkeypatch: Any, set_clock: Any
) -> None:
    from game import chat, chatheld

    reads: list[int] = []
    real = chat.spectators_rooms
    monkeypatch.setattr(chat, "spectators_rooms", lambda m: reads.append(m) or real(m))
    carol = Client(match.pk, watcher)
    await carol.open()
    first = Client(match.pk, address="10.0.7.200")  # a spectator the relay hands lines to
    await first.open()
    await carol.send({"type": "say", "room": "spectators", "text": "what a break"})
    await next_line(carol)  # told the writer at once: the relay may not have heard it yet
    await next_line(first)  # handed out by the relay, which holds it by now
    crowd = [Client(match.pk, address=f"10.0.7.{i}") for i in range(5)]
    for c in crowd:
        await c.open()
        rooms = await lines_of(c)
        assert [s["text"] for s in rooms["spectators"]] == ["what a break"]
    # A line heard by this process's relay moves what it holds on: still no read.
    await carol.send({"type": "say", "room": "spectators", "text": "he needs snookers"})
    for c in crowd:
        assert (await next_line(c))["line"]["text"] == "he needs snookers"
    late = Client(match.pk, address="10.0.7.99")
    await late.open()
    texts = [s["text"] for s in (await lines_of(late))["spectators"]]
    assert texts == ["what a break", "he needs snookers"]
    assert reads == [match.pk]
    # Read again once it is older than FRESH (a line a moderator deleted leaves then).
    await set_clock.advance(chatheld.FRESH + 1)
    again = Client(match.pk, address="10.0.7.98")
    await again.open()
    await lines_of(again)
    assert reads == [match.pk, match.pk]


async def test_a_deleted_line_leaves_every_open_page_at_once(
    match: Any, players: Any, watcher: Any
) -> None:
    from asgiref.sync import sync_to_async

    from chat import service as chat
    from game import clock

    organiser = await get_user_model().objects.acreate(username="org", is_staff=True)
    carol, dave = Client(match.pk, watcher), Client(match.pk, address="10.0.8.1")
    alice = Client(match.pk, players[0])
    for client in (carol, dave, alice):
        await client.open()
    await carol.send({"type": "say", "room": "spectators", "text": "rude words"})
    line = (await next_line(dave))["line"]
    await sync_to_async(chat.hide)(organiser, line["id"], "rude", clock.now())
    for client in (carol, dave):
        deleted = await client.expect("deleted")
        assert (deleted["room"], deleted["ids"]) == ("spectators", [line["id"]])
    # What the process held for the crowd's greetings lost it too: no read again needed.
    late = Client(match.pk, address="10.0.8.2")
    await late.open()
    assert (await lines_of(late))["spectators"] == []
    # A timeout given from a line of the players' room: the players are told, the member why.
    await alice.send({"type": "say", "room": "players", "text": "hurry up"})
    said = (await next_line(alice))["line"]
    room = await sync_to_async(chat.room)("players", match.pk)
    await sync_to_async(chat.time_out)(organiser, players[0].pk, "1h", "rude", clock.now(),
                                       where=room)  # fmt: skip
    told = await alice.expect("timed_out")
    assert (told["room"], told["member"], told["reason"]) == ("players", "alice", "rude")
    assert said["id"] > 0
    assert all(m["type"] != "timed_out" for m in carol.seen)  # not the spectators' business


async def test_a_blocked_members_lines_never_reach_the_blocker_at_the_table(
    match: Any, players: Any, watcher: Any
) -> None:
    from asgiref.sync import sync_to_async

    from club import blocks

    dave_user = await get_user_model().objects.acreate_user("dave", password="pw")
    carol, dave = Client(match.pk, watcher), Client(match.pk, dave_user)
    await carol.open()
    await carol.send({"type": "say", "room": "spectators", "text": "before"})
    await next_line(carol)
    await sync_to_async(blocks.block)(dave_user, watcher)
    await dave.open()
    assert (await lines_of(dave))["spectators"] == []  # the held lines, without carol's
    other = Client(match.pk, address="10.0.9.1")
    await other.open()
    assert [s["text"] for s in (await lines_of(other))["spectators"]] == ["before"]
    await carol.send({"type": "say", "room": "spectators", "text": "after"})
    assert (await next_line(other))["line"]["text"] == "after"
    await dave.send({"type": "say", "room": "spectators", "text": "mine"})
    assert (await next_line(dave))["line"]["text"] == "mine"
    assert [m["line"]["author"] for m in dave.seen if m["type"] == "line"] == ["dave"]
    # The players' room too (read from the database for a player).
    await sync_to_async(blocks.block)(players[1], players[0])
    alice, bob = Client(match.pk, players[0]), Client(match.pk, players[1])
    await alice.open()
    await alice.send({"type": "say", "room": "players", "text": "good luck"})
    await next_line(alice)
    await bob.open()
    assert (await lines_of(bob))["players"] == []
