"""The lobby's chat room on the lobby socket (club/chat.py, docs/chat.md): the room's last
lines after the welcome, members' lines to every lobby socket, a guest's presets, refusals
that never close the socket, a moderator's deletion and timeout told live, and blocking."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.utils import translation

from chat import service as chat_service
from chat.models import Line
from club import blocks
from game import clock
from game.text import error_text
from tests.club.helpers import LobbyClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


@pytest.fixture
def people(db: None) -> Any:
    """Three members (a usable password: not guests; never hashed, nobody logs in with it),
    a guest (no usable password) and an organiser."""
    users = get_user_model().objects
    members = [users.create(username=n, password="test:unhashed") for n in ("ann", "ben", "cat")]
    guest = users.create_user("guest-7", password=None)
    organiser = users.create(username="org", password="test:unhashed", is_staff=True)
    return (*members, guest, organiser)


async def opened(user: Any) -> tuple[LobbyClient, list[dict[str, Any]]]:
    """A lobby socket greeted, and the room's lines it was sent after the welcome."""
    client = LobbyClient(user)
    await client.open()
    assert client.history is not None and client.history["room"] == "lobby"
    return client, client.history["lines"]


async def said(client: LobbyClient) -> dict[str, Any]:
    return (await client.expect("line"))["line"]


async def heard(client: LobbyClient, text: str) -> dict[str, Any]:
    """The line saying `text` (the others' said meanwhile read past)."""
    while (line := await said(client))["text"] != text:
        pass
    return line


async def test_members_talk_and_a_newcomer_is_sent_the_last_lines(people: Any) -> None:
    ann_u, ben_u, *_ = people
    ann, history = await opened(ann_u)
    assert history == []
    ben, _ = await opened(ben_u)
    visitor, _ = await opened(None)
    await ann.send({"type": "say", "text": "  anyone for a frame? <b>x</b> "})
    mine = await said(ann)
    assert (mine["author"], mine["text"], mine["preset"]) == (
        "ann", "anyone for a frame? <b>x</b>", None,
    )  # fmt: skip
    assert await said(ben) == mine == await said(visitor)
    await ben.send({"type": "say", "room": "lobby", "text": "me"})
    assert (await said(ann))["text"] == "me"
    # Stored before it was told: a newcomer (or a reconnecting page) reads both.
    assert await Line.objects.acount() == 2
    _, history = await opened(None)
    assert [(s["author"], s["text"]) for s in history] == [
        ("ann", "anyone for a frame? <b>x</b>"), ("ben", "me"),
    ]  # fmt: skip
    # The writer's own socket was sent its line once.
    assert [m["line"]["text"] for m in ann.seen if m["type"] == "line"] == [
        "anyone for a frame? <b>x</b>", "me",
    ]  # fmt: skip


async def test_a_guest_says_presets_and_a_stranger_nothing(people: Any) -> None:
    ann_u, _, _, guest_u, _ = people
    ann, _ = await opened(ann_u)
    guest, _ = await opened(guest_u)
    await guest.send({"type": "say", "text": "hello all", "client_id": "g1"})
    refused = await guest.expect("error")
    assert (refused["code"], refused["client_id"]) == ("chat_presets_only", "g1")
    await guest.send({"type": "say", "preset": "good_luck"})
    line = await said(ann)
    assert (line["author"], line["text"], line["preset"]) == ("guest-7", "good_luck", "good_luck")
    await guest.send({"type": "say", "preset": "cheers"})
    assert (await guest.expect("error"))["code"] == "chat_unknown_preset"
    stranger, _ = await opened(None)
    await stranger.send({"type": "say", "preset": "good_luck"})
    assert (await stranger.expect("error"))["code"] == "chat_presets_only"
    # Notices sockets carry no room.
    notices = LobbyClient(ann_u, lobby=False)
    await notices.open()
    await notices.send({"type": "say", "text": "here?"})
    assert (await notices.expect("error"))["code"] == "chat_not_allowed"


async def test_a_flood_is_refused_and_the_socket_stays(people: Any, set_clock: Any) -> None:
    ann, _ = await opened(people[0])
    for text in ("one", "two words", "three little words", "fourth line", "five"):
        await ann.send({"type": "say", "text": text})
        await said(ann)
    await ann.send({"type": "say", "text": "six"})
    assert (await ann.expect("error"))["code"] == "chat_flood"
    await ann.send({"type": "say", "text": "y" * 141})
    assert (await ann.expect("error"))["code"] == "chat_too_long"
    await ann.send({"type": "say", "text": "\u200b\u202e "})
    assert (await ann.expect("error"))["code"] == "chat_empty"
    await set_clock.advance(10)
    await ann.send({"type": "say", "text": "Five!"})  # a near-copy of her last line
    refused = await ann.expect("error")
    assert refused["code"] == "chat_flood" and refused["message"]  # in words, for a person
    await ann.send({"type": "say", "text": "six"})
    assert (await said(ann))["text"] == "six"
    await ann.send({"type": "ping"})
    await ann.expect("pong")  # still open


async def test_the_lobby_and_a_matchs_room_count_together_for_one_address(
    people: Any, settings: Any, throttle_clock: Any
) -> None:
    """One address's lines count once, whatever the room, the account and the socket: the
    lobby's and a match's spectators' room share its rate (`chat_address_flood` past it, in
    words; the socket stays open), and another address is not held by it."""
    from game import service
    from tests.game.helpers import Client

    settings.SNOOKER_CHAT_ADDRESS_RATE = "3/10s"
    ann_u, ben_u, cat_u, _, org_u = people
    match = await sync_to_async(service.create_match)(cat_u, org_u, best_of=1, draw="A")
    here = "10.0.4.1"
    ann, ben = LobbyClient(ann_u, address=here), LobbyClient(ben_u, address=here)
    for client in (ann, ben):
        await client.open()
    watching = Client(match.pk, ben_u, address=here)
    await watching.open()
    await ann.send({"type": "say", "text": "anyone for a frame?"})
    await heard(ann, "anyone for a frame?")
    await ben.send({"type": "say", "text": "after this one"})
    await heard(ben, "after this one")
    await watching.send({"type": "say", "room": "spectators", "text": "what a pot"})
    await watching.expect("line")
    await ann.send({"type": "say", "text": "ben?"})
    refused = await ann.expect("error")
    assert refused["code"] == "chat_address_flood" and refused["message"]
    await ann.send({"type": "ping"})
    await ann.expect("pong")  # still open
    elsewhere = LobbyClient(ann_u, address="10.0.4.2")
    await elsewhere.open()
    await elsewhere.send({"type": "say", "text": "ben?"})
    assert (await elsewhere.expect("line"))["line"]["text"] == "ben?"


async def test_a_busy_lobby_refuses_lines_past_its_rate(people: Any, settings: Any) -> None:
    """The lobby's room takes `SNOOKER_CHAT_ROOM_RATE` lines, whoever writes them: past it,
    `chat_busy` in words (in Russian too), nothing stored or sent, the socket open."""
    settings.SNOOKER_CHAT_ROOM_RATE = "2/m"
    ann_u, ben_u, cat_u, *_ = people
    ann = LobbyClient(ann_u, address="10.0.5.1")
    ben = LobbyClient(ben_u, address="10.0.5.2")
    cat = LobbyClient(cat_u, address="10.0.5.3")
    for client in (ann, ben, cat):
        await client.open()
    await ann.send({"type": "say", "text": "anyone for a frame?"})
    await heard(ann, "anyone for a frame?")
    await ben.send({"type": "say", "text": "after this one"})
    await heard(ben, "after this one")
    await cat.send({"type": "say", "text": "и я"})
    refused = await cat.expect("error")
    assert refused["code"] == "chat_busy"
    assert refused["message"] == "The room is busy: wait a moment and say it again."
    with translation.override("ru"):
        assert error_text("chat_busy") == "В комнате сейчас людно: подождите немного и повторите."
    assert await Line.objects.acount() == 2
    for client in (ann, ben, cat):
        await client.send({"type": "ping"})
        await client.expect("pong")  # still open, and "и я" never came
        assert all(m.get("line", {}).get("text") != "и я" for m in client.seen)


async def test_a_deleted_line_leaves_every_page_and_a_timeout_is_told(people: Any) -> None:
    ann_u, ben_u, _, _, org = people
    ann, _ = await opened(ann_u)
    ben, _ = await opened(ben_u)
    await ann.send({"type": "say", "text": "something rude"})
    line = await said(ben)
    await said(ann)
    await sync_to_async(chat_service.hide)(org, line["id"], "rude", clock.now())
    for client in (ann, ben):
        deleted = await client.expect("deleted")
        assert (deleted["room"], deleted["ids"]) == ("lobby", [line["id"]])
    _, history = await opened(None)
    assert history == []
    room = await sync_to_async(chat_service.room)("lobby")
    await sync_to_async(chat_service.time_out)(org, ann_u.pk, "15m", "insults", clock.now(),
                                               where=room)  # fmt: skip
    theirs, mine = await ben.expect("timed_out"), await ann.expect("timed_out")
    assert (theirs["member"], theirs["reason"]) == ("ann", None)
    assert (mine["member"], mine["reason"]) == ("ann", "insults")
    await ann.send({"type": "say", "text": "sorry"})
    refused = await ann.expect("error")
    assert refused["code"] == "chat_timed_out" and refused["message"].endswith("UTC: insults")


async def test_a_blocked_members_lines_never_reach_the_blocker(people: Any) -> None:
    ann_u, ben_u, cat_u, _, _ = people
    ben, _ = await opened(ben_u)
    await ben.send({"type": "say", "text": "before the block"})
    await said(ben)
    await sync_to_async(blocks.block)(ann_u, ben_u)
    ann, history = await opened(ann_u)
    assert history == []  # not in the history
    cat, history = await opened(cat_u)
    assert [s["text"] for s in history] == ["before the block"]
    await ben.send({"type": "say", "text": "after the block"})
    assert (await said(cat))["text"] == "after the block"
    await cat.send({"type": "say", "text": "from cat"})
    assert (await said(ann))["text"] == "from cat"  # nor live: cat's came, ben's did not
    assert [m["line"]["author"] for m in ann.seen if m["type"] == "line"] == ["cat"]
    # Unblocked from her profile: her open page hears him again, without a reload.
    from channels.db import database_sync_to_async

    from club import chat

    def unblock() -> None:
        blocks.unblock(ann_u, ben_u)
        chat.blocks_changed(ann_u.pk)

    await database_sync_to_async(unblock)()
    # Her socket takes its messages one at a time: the word of the unblock was queued before
    # the first ping, so it has been taken once the second is answered.
    for _ in range(2):
        await ann.send({"type": "ping"})
        await ann.expect("pong")
    await ben.send({"type": "say", "text": "hello again"})
    assert (await said(ann))["text"] == "hello again"


async def test_the_panic_switch_and_a_new_members_link_are_refused_in_words(
    people: Any,
) -> None:
    from chat import moderation

    ann_u, *_, org = people
    ann, _ = await opened(ann_u)
    await ann.send({"type": "say", "text": "join us at www.example.com"})
    refused = await ann.expect("error")
    assert refused["code"] == "chat_no_links" and "link" in refused["message"]
    await sync_to_async(moderation.panic)(org, 1, "a raid", clock.now())
    await ann.send({"type": "say", "text": "hello"})
    refused = await ann.expect("error")
    assert refused["code"] == "chat_panic" and "standing" in refused["message"]
    await ann.send({"type": "ping"})
    await ann.expect("pong")
