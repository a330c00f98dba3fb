"""The players' room shown to spectators (docs/chat.md, "Who reads"): only when the club allows
it (settings.CLUB["SPECTATORS_READ_PLAYERS"], off by default) and both players let them
(chat.Preference.players_shown); then spectators read it, history and live, and never write in
it. Otherwise nothing of it ever reaches a spectator."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat import service as chat_service
from chat.models import Preference
from game import chat, clock
from tests.game.helpers import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


@pytest.fixture
def watcher(db: None) -> Any:
    return get_user_model().objects.create_user("carol", password="pw")


@pytest.fixture
def club_allows(settings: Any) -> None:
    settings.CLUB = {**settings.CLUB, "SPECTATORS_READ_PLAYERS": True}


def let(*members: Any, shown: bool = True) -> None:
    for member in members:
        Preference.objects.update_or_create(member=member, defaults={"players_shown": shown})


async def chat_of(client: Client) -> list[dict[str, Any]]:
    """The chat's messages this socket was sent, once those sent before a ping are read."""
    await client.send({"type": "ping", "version": client.version})
    while (await client.recv())["type"] != "pong":
        pass
    kinds = ("line", "lines", "deleted", "struck", "timed_out")
    return [m for m in client.seen if m["type"] in kinds]


def players_room(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m.get("room") == "players"]


async def spoken(match: Any, players: Any, text: str = "good luck") -> tuple[Client, Client]:
    alice, bob = Client(match.pk, players[0]), Client(match.pk, players[1])
    await alice.open()
    await bob.open()
    await alice.send({"type": "say", "room": "players", "text": text})
    await bob.expect("line")
    return alice, bob


@pytest.mark.parametrize(
    ("club", "alice", "bob"),
    [(False, True, True), (True, True, False), (True, False, False)],
    ids=["club off", "one player lets", "nobody lets"],
)
async def test_nothing_of_the_players_room_reaches_a_spectator_unless_all_allow(
    match: Any, players: Any, watcher: Any, settings: Any, club: bool, alice: bool, bob: bool
) -> None:
    settings.CLUB = {**settings.CLUB, "SPECTATORS_READ_PLAYERS": club}
    await sync_to_async(let)(players[0], shown=alice)
    await sync_to_async(let)(players[1], shown=bob)
    await spoken(match, players, "before")
    carol, stranger = Client(match.pk, watcher), Client(match.pk, address="10.0.13.1")
    await carol.open()
    await stranger.open()
    _, bob_ = await spoken(match, players, "during")
    # A moderator's deletion and timeout in the players' room: the players' business alone.
    organiser = await get_user_model().objects.acreate(username="org", is_staff=True)
    said = [m for m in bob_.seen if m["type"] == "line"][-1]["line"]
    await sync_to_async(chat_service.hide)(organiser, said["id"], "rude", clock.now())
    room = await sync_to_async(chat_service.room)("players", match.pk)
    await sync_to_async(chat_service.time_out)(organiser, players[0].pk, "15m", "rude",
                                               clock.now(), where=room)  # fmt: skip
    await bob_.expect("deleted")
    await bob_.expect("timed_out")
    await carol.send({"type": "say", "room": "players", "text": "play safe"})
    assert (await carol.expect("error"))["code"] == "chat_not_allowed"
    for spectator in (carol, stranger):
        seen = await chat_of(spectator)
        assert players_room(seen) == []
        assert all(m["type"] in ("lines", "line") for m in seen)


async def test_spectators_read_the_players_room_when_the_club_and_both_players_allow_it(
    match: Any, players: Any, watcher: Any, club_allows: None, monkeypatch: Any
) -> None:
    reads: list[int] = []
    real = chat.spectators_rooms
    monkeypatch.setattr(chat, "spectators_rooms", lambda m: reads.append(m) or real(m))
    await sync_to_async(let)(*players)
    alice, bob = await spoken(match, players, "good luck")
    carol = Client(match.pk, watcher)
    await carol.open()
    history = {m["room"]: m["lines"] for m in await chat_of(carol) if m["type"] == "lines"}
    assert [s["text"] for s in history["players"]] == ["good luck"]
    assert history["spectators"] == []
    # Live, as the players say them.
    await bob.send({"type": "say", "room": "players", "text": "thanks, you too"})
    told = await carol.expect("line")
    assert (told["room"], told["line"]["text"]) == ("players", "thanks, you too")
    # Read only: the write rule stands.
    await carol.send({"type": "say", "room": "players", "text": "play the blue", "client_id": "c"})
    refused = await carol.expect("error")
    assert (refused["code"], refused["client_id"]) == ("chat_not_allowed", "c")
    # A crowd is greeted with both rooms from what the process holds (one read).
    crowd = Client(match.pk, address="10.0.13.2")
    await crowd.open()
    history = {m["room"]: m["lines"] for m in await chat_of(crowd) if m["type"] == "lines"}
    assert [s["text"] for s in history["players"]] == ["good luck", "thanks, you too"]
    assert reads == [match.pk]
    # A deletion there leaves the spectators' pages too.
    organiser = await get_user_model().objects.acreate(username="org", is_staff=True)
    await sync_to_async(chat_service.hide)(organiser, told["line"]["id"], "rude", clock.now())
    for spectator in (carol, crowd):
        deleted = await spectator.expect("deleted")
        assert (deleted["room"], deleted["ids"]) == ("players", [told["line"]["id"]])
    # The players still do not read the spectators' room while the match is on.
    await carol.send({"type": "say", "room": "spectators", "text": "what a match"})
    await crowd.expect("line")
    assert all(m.get("room") != "spectators" for m in await chat_of(alice))


async def test_a_player_who_stops_letting_them_read_closes_it_from_the_next_line(
    match: Any, players: Any, watcher: Any, club_allows: None
) -> None:
    await sync_to_async(let)(*players)
    alice, bob = await spoken(match, players, "shown")
    carol = Client(match.pk, watcher)
    await carol.open()
    assert [m["room"] for m in await chat_of(carol) if m["type"] == "lines"] == [
        "spectators", "players",
    ]  # fmt: skip
    await sync_to_async(let)(players[1], shown=False)  # Bob changes his chat settings
    await alice.send({"type": "say", "room": "players", "text": "not for them"})
    await bob.expect("line")
    assert [m["line"]["text"] for m in await chat_of(carol) if m["type"] == "line"] == []
    # The process let go of the players' room as it heard the line: a newcomer reads none.
    late = Client(match.pk, address="10.0.13.3")
    await late.open()
    assert [m["room"] for m in await chat_of(late)] == ["spectators"]
