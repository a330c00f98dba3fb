"""A competition's and a ladder's chat rooms, each on its page's notices socket named in the
hello (club/chat.py, docs/chat.md): the room's last lines after the welcome, lines live to
every socket of the room and no other, the lobby's limits and codes, who writes (any member in
a competition's; a ladder's members and the organisers in a ladder's; a visitor reads), and a
moderator's deletion reaching the room."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from chat import service as chat_service
from club import blocks
from competitions.models import Competition
from game import clock
from ladder.models import Ladder, Rung
from tests.club.helpers import LobbyClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


@pytest.fixture
def people(db: None) -> Any:
    """Members ann and ben on the ladder, cat not; a guest; an organiser; the ladder and a
    competition."""
    users = get_user_model().objects
    ann, ben, cat = (
        users.create(username=n, password="test:unhashed") for n in ("ann", "ben", "cat")
    )
    guest = users.create_user("guest-7", password=None)
    org = users.create(username="org", password="test:unhashed", is_staff=True)
    ladder = Ladder.objects.create(name="Club ladder", slug="club")
    now = timezone.now()
    for place, member in enumerate((ann, ben), start=1):
        Rung.objects.create(ladder=ladder, member=member, position=place, joined=now,
                            last_active=now)  # fmt: skip
    cup = Competition.objects.create(
        name="Winter cup", organiser=org, created=now, entry_deadline=now
    )
    return {"ann": ann, "ben": ben, "cat": cat, "guest": guest, "org": org, "ladder": ladder,
            "cup": cup}  # fmt: skip


def at(kind: str, key: int) -> dict[str, Any]:
    return {"kind": kind, "key": key}


async def opened(user: Any, room: dict[str, Any]) -> tuple[LobbyClient, list[dict[str, Any]]]:
    """A page's notices socket greeted with its room, and the room's lines it was sent."""
    client = LobbyClient(user, lobby=False, room=room)
    await client.open()
    assert client.history is not None and client.history["room"] == room["kind"]
    return client, client.history["lines"]


async def said(client: LobbyClient) -> dict[str, Any]:
    line = await client.expect("line")
    return line["line"]


async def test_a_competitions_room_history_live_and_its_own(people: Any) -> None:
    cup = at("competition", people["cup"].pk)
    ann, history = await opened(people["ann"], cup)
    assert history == []
    cat, _ = await opened(people["cat"], cup)  # no entrant: any member writes here
    visitor, _ = await opened(None, cup)
    lobby = LobbyClient(people["ben"])
    await lobby.open()
    other = await sync_to_async(Competition.objects.create)(
        name="Spring cup",
        organiser=people["org"],
        created=timezone.now(),
        entry_deadline=timezone.now(),
    )
    elsewhere, _ = await opened(people["ben"], at("competition", other.pk))
    await ann.send({"type": "say", "room": "competition", "text": "good luck all"})
    mine = await said(ann)
    assert (mine["author"], mine["text"]) == ("ann", "good luck all")
    assert await said(cat) == mine == await said(visitor)
    await cat.send({"type": "say", "room": "competition", "text": "thanks"})
    assert (await said(ann))["text"] == "thanks"
    # Neither the lobby nor another competition's page hears it.
    assert await lobby.nothing() and await elsewhere.nothing()
    # A visitor reads and does not write; the socket says which room it carries.
    await visitor.send({"type": "say", "room": "competition", "preset": "good_luck"})
    assert (await visitor.expect("error"))["code"] == "chat_presets_only"
    await ann.send({"type": "say", "room": "ladder", "text": "wrong room"})
    assert (await ann.expect("error"))["code"] == "chat_not_allowed"
    # A newcomer (or a reconnect) is sent the last lines.
    _, history = await opened(None, cup)
    assert [(s["author"], s["text"]) for s in history] == [("ann", "good luck all"),
                                                           ("cat", "thanks")]  # fmt: skip
    _, history = await opened(None, at("competition", other.pk))
    assert history == []


async def test_a_ladders_room_is_written_by_its_members_and_the_organisers(people: Any) -> None:
    ladder = at("ladder", people["ladder"].pk)
    ann, _ = await opened(people["ann"], ladder)
    ben, _ = await opened(people["ben"], ladder)
    cat, _ = await opened(people["cat"], ladder)
    org, _ = await opened(people["org"], ladder)
    await ann.send({"type": "say", "room": "ladder", "text": "who is next?"})
    line = await said(ann)
    assert await said(ben) == line == await said(cat) == await said(org)  # cat reads
    await cat.send({"type": "say", "room": "ladder", "text": "me", "client_id": "c1"})
    refused = await cat.expect("error")
    assert (refused["code"], refused["client_id"]) == ("chat_not_allowed", "c1")
    assert refused["message"]  # in words, for a person
    await org.send({"type": "say", "room": "ladder", "text": "play by Friday"})
    assert (await said(ben))["text"] == "play by Friday"
    # A guest (never on a ladder) reads it; in a competition's room says the phrases.
    guest, _ = await opened(people["guest"], ladder)
    await guest.send({"type": "say", "room": "ladder", "preset": "good_luck"})
    assert (await guest.expect("error"))["code"] == "chat_not_allowed"
    cup, _ = await opened(people["guest"], at("competition", people["cup"].pk))
    await cup.send({"type": "say", "room": "competition", "text": "hello"})
    assert (await cup.expect("error"))["code"] == "chat_presets_only"
    await cup.send({"type": "say", "room": "competition", "preset": "good_luck"})
    assert (await said(cup))["preset"] == "good_luck"
    await ben.send({"type": "ping"})
    await ben.expect("pong")


async def test_refusals_and_the_flood_per_room(people: Any, set_clock: Any) -> None:
    ladder = at("ladder", people["ladder"].pk)
    ann, _ = await opened(people["ann"], ladder)
    for text in ("one", "two words", "three little words", "fourth line", "five"):
        await ann.send({"type": "say", "room": "ladder", "text": text})
        await said(ann)
    await ann.send({"type": "say", "room": "ladder", "text": "six"})
    assert (await ann.expect("error"))["code"] == "chat_flood"
    await ann.send({"type": "say", "room": "ladder", "text": "y" * 141})
    assert (await ann.expect("error"))["code"] == "chat_too_long"
    # The flood counts per room: the competition's room is another.
    cup, _ = await opened(people["ann"], at("competition", people["cup"].pk))
    await cup.send({"type": "say", "room": "competition", "text": "six"})
    assert (await said(cup))["text"] == "six"
    await ann.send({"type": "ping"})
    await ann.expect("pong")  # still open


async def test_one_address_counts_across_the_rooms(
    people: Any, settings: Any, throttle_clock: Any
) -> None:
    settings.SNOOKER_CHAT_ADDRESS_RATE = "2/10s"
    here = "10.0.5.1"
    ann = LobbyClient(
        people["ann"], address=here, lobby=False, room=at("ladder", people["ladder"].pk)
    )
    cat = LobbyClient(people["cat"], address=here, lobby=False,
                      room=at("competition", people["cup"].pk))  # fmt: skip
    for client in (ann, cat):
        await client.open()
    await ann.send({"type": "say", "room": "ladder", "text": "hello"})
    await said(ann)
    await cat.send({"type": "say", "room": "competition", "text": "hi"})
    await said(cat)
    await ann.send({"type": "say", "room": "ladder", "text": "anyone?"})
    refused = await ann.expect("error")
    assert refused["code"] == "chat_address_flood" and refused["message"]


async def test_a_deletion_a_timeout_and_a_block_reach_the_room(people: Any) -> None:
    cup = at("competition", people["cup"].pk)
    ann, _ = await opened(people["ann"], cup)
    ben, _ = await opened(people["ben"], cup)
    visitor, _ = await opened(None, cup)
    await ann.send({"type": "say", "room": "competition", "text": "something rude"})
    line = await said(ann)
    await said(ben)
    await said(visitor)
    await sync_to_async(chat_service.hide)(people["org"], line["id"], "rude", clock.now())
    for client in (ann, ben, visitor):
        deleted = await client.expect("deleted")
        assert (deleted["room"], deleted["ids"]) == ("competition", [line["id"]])
    _, history = await opened(None, cup)
    assert history == []
    room = await sync_to_async(chat_service.room)("competition", people["cup"].pk)
    await sync_to_async(chat_service.time_out)(people["org"], people["ann"].pk, "15m",
                                               "insults", clock.now(), where=room)  # fmt: skip
    theirs, mine = await ben.expect("timed_out"), await ann.expect("timed_out")
    assert (theirs["room"], theirs["member"], theirs["reason"]) == ("competition", "ann", None)
    assert (mine["room"], mine["reason"]) == ("competition", "insults")
    await ann.send({"type": "say", "room": "competition", "text": "sorry"})
    refused = await ann.expect("error")
    assert refused["code"] == "chat_timed_out" and refused["message"].endswith("UTC: insults")
    # Blocks apply as in the lobby: ben blocked cat, whose lines never reach him.
    await sync_to_async(blocks.block)(people["ben"], people["cat"])
    ben, _ = await opened(people["ben"], cup)
    cat, _ = await opened(people["cat"], cup)
    await cat.send({"type": "say", "room": "competition", "text": "from cat"})
    assert (await said(visitor))["text"] == "from cat"
    await visitor.send({"type": "ping"})
    await visitor.expect("pong")
    assert await ben.nothing()


async def test_a_troll_strike_reaches_the_room(people: Any) -> None:
    from chat import moderation

    ladder = at("ladder", people["ladder"].pk)
    ann, _ = await opened(people["ann"], ladder)
    ben, _ = await opened(people["ben"], ladder)
    await ann.send({"type": "say", "room": "ladder", "text": "spam spam"})
    await said(ann)
    await said(ben)
    await sync_to_async(moderation.troll)(people["org"], people["ann"].pk, "spam",
                                               clock.now())  # fmt: skip
    struck = await ben.expect("struck")
    assert (struck["room"], struck["author"]) == ("ladder", "ann")


async def test_a_visitor_needs_a_room_and_an_unknown_room_is_refused(people: Any) -> None:
    from club.protocol import CLOSE_SIGNED_OUT

    plain = LobbyClient(None, lobby=False)
    connected, _ = await plain.ws.connect()
    assert connected
    await plain.send({"type": "hello", "protocol": 1})
    closed = await plain.ws.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}
    member = LobbyClient(people["ann"], lobby=False, room=at("ladder", 999))
    connected, _ = await member.ws.connect()
    await member.send({"type": "hello", "protocol": 1, "room": at("ladder", 999)})
    assert (await member.expect("error"))["code"] == "chat_not_allowed"
    await member.expect("welcome")  # her notices still come
    await member.send({"type": "say", "room": "ladder", "text": "hello?"})
    assert (await member.expect("error"))["code"] == "chat_not_allowed"


@pytest.mark.django_db
def test_the_pages_carry_their_room(people: Any, client: Any) -> None:
    """A competition's and a ladder's page hold the room's panel and open the socket for it,
    a visitor's too (reading); a member off the ladder reads it, its members write."""
    ladder_url = f"/ladder/{people['ladder'].slug}/"
    cup_url = f"/competitions/{people['cup'].pk}/"
    for url, kind in ((ladder_url, "ladder"), (cup_url, "competition")):
        page = client.get(url).content.decode()
        assert f'data-room-kind="{kind}"' in page and 'id="club-page"' in page
        assert "js/site." in page and 'data-writes=""' in page and 'data-chat=""' in page
    client.force_login(people["cat"])
    assert 'data-writes=""' in client.get(ladder_url).content.decode()
    assert 'data-writes="1"' in client.get(cup_url).content.decode()
    client.force_login(people["ann"])
    page = client.get(ladder_url).content.decode()
    assert 'data-writes="1"' in page and 'data-chat="member"' in page
