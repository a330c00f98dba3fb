"""Who is online in the lobby (issue 38, point 7): a member is online while one of their
greeted club sockets (a page's notices, the lobby's) is open; the lobby's welcome lists them and
its coalesced updates say when the list changed."""

from __future__ import annotations

import json
import uuid
from types import SimpleNamespace

import pytest
import redis
from channels.db import database_sync_to_async
from django.test import Client

from club import online, service
from club.process import LOBBY
from game.balance import PROCESS
from rules.challenges import Format
from tests.club.helpers import LobbyClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


def fast(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0.2}


def test_a_member_with_two_tabs_stays_online_until_both_close() -> None:
    LOBBY.arrive("alice")
    LOBBY.arrive("alice")
    LOBBY.arrive("bob")
    assert LOBBY.online_names() == (["alice", "bob"], 2) and LOBBY.online_changed
    LOBBY.online_changed = False
    LOBBY.leave("alice")
    assert LOBBY.online_names() == (["alice", "bob"], 2) and not LOBBY.online_changed
    LOBBY.leave("alice")
    assert LOBBY.online_names() == (["bob"], 1) and LOBBY.online_changed
    LOBBY.leave("alice")  # once too often: nothing goes below nobody
    assert LOBBY.online_names() == (["bob"], 1) and "alice" not in LOBBY.online


async def test_the_welcome_lists_members_online_not_visitors_nor_guests(members) -> None:
    alice, bob, _ = members
    guest = await database_sync_to_async(service._new_guest)("gus")
    await LobbyClient(bob, lobby=False).open()  # Bob's notices, on another page
    await LobbyClient(guest, lobby=False).open()
    await LobbyClient().open()  # a visitor
    welcome = await LobbyClient(alice).open()
    assert welcome["online"] == ["alice", "bob"] and welcome["online_count"] == 2
    notices = await LobbyClient(alice, lobby=False).open()
    assert notices["online"] == [] and notices["online_count"] == 0  # the lobby's only


async def test_closing_one_of_two_tabs_keeps_a_member_online_closing_both_tells_the_lobby(
    members, settings
) -> None:
    alice, _, carol = members
    fast(settings)
    watcher = LobbyClient(carol)
    assert (await watcher.open())["online"] == ["carol"]
    page, lobby = LobbyClient(alice, lobby=False), LobbyClient(alice)
    await page.open()
    came = await watcher.expect("update")
    assert came["online"] == ["alice", "carol"] and came["online_count"] == 2
    await lobby.open()
    await page.ws.disconnect()
    assert await watcher.nothing(0.5)  # her lobby's tab is still open
    await lobby.ws.disconnect()
    went = await watcher.expect("update")
    assert went["online"] == ["carol"] and went["online_count"] == 1


async def test_an_update_of_rows_alone_leaves_the_online_list_out(members, settings) -> None:
    alice, _, carol = members
    fast(settings)
    watcher = LobbyClient(carol)
    await watcher.open()
    made = await database_sync_to_async(service.challenge)(alice, None, Format(1))
    update = await watcher.expect("update")
    assert [c["id"] for c in update["challenges"]] == [made.challenge.pk]
    assert update["online"] is None and update["online_count"] is None


def logged_in(user, language: str = "en") -> Client:  # type: ignore[no-untyped-def]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_lobby_page_has_its_online_list_in_english_and_russian(members) -> None:
    alice, _, _ = members
    html = logged_in(alice).get("/").content.decode()
    assert "Online now" in html and "No other member is online." in html
    # A member's list carries the challenge form's address (lobby.js adds `?opponent=`).
    assert 'data-testid="online" data-challenge="/challenges/new/"' in html
    assert 'id="tpl-online"' in html
    words = json.loads(html.split('id="club-page" type="application/json">')[1].split("<")[0])
    assert words["text"]["online_more"] == "and %(n)s more"
    assert words["text"]["challenge_name"] == "Challenge %(name)s"

    russian = logged_in(alice, "ru").get("/").content.decode()
    assert "Сейчас в клубе" in russian and "Других членов клуба сейчас нет." in russian
    ru_words = json.loads(russian.split('id="club-page" type="application/json">')[1].split("<")[0])
    assert ru_words["text"]["online_more"] == "и ещё %(n)s"


def test_a_visitor_sees_who_is_online_with_no_challenge_link() -> None:
    html = Client().get("/").content.decode()
    assert "Online now" in html and 'data-testid="online" data-challenge=""' in html


@pytest.fixture
def shared_redis(settings, monkeypatch):  # type: ignore[no-untyped-def]
    """Several processes: the Redis at 127.0.0.1:6379 under a prefix of this test's own."""
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    prefix = f"test-online-{uuid.uuid4().hex[:8]}:"
    monkeypatch.setattr(online, "get_channel_layer", lambda: SimpleNamespace(prefix=prefix))
    client = redis.Redis.from_url(settings.REDIS_URL)
    yield client, prefix
    for found in client.scan_iter(match=f"{prefix}*"):
        client.delete(found)


async def test_each_process_says_its_names_for_a_while_and_reads_the_others(
    shared_redis,
) -> None:
    client, prefix = shared_redis
    client.set(online.key(prefix, "other"), json.dumps(["zed"]), ex=15)
    assert await online.elsewhere(["alice"]) == {"zed"}
    own = online.key(prefix, PROCESS)
    assert json.loads(client.get(own)) == ["alice"]
    assert 0 < client.ttl(own) <= online.KEPT_FOR_SWEEPS * 5  # expires unless said again
    assert await online.elsewhere([]) == {"zed"}
    assert client.get(own) is None  # nobody here: said at once


async def test_the_lobby_lists_members_online_in_another_process(
    members, settings, shared_redis
) -> None:
    alice, _, _ = members
    fast(settings)
    client, prefix = shared_redis
    client.set(online.key(prefix, "other"), json.dumps(["zed"]), ex=15)
    watcher = LobbyClient()
    await watcher.open()
    await LobbyClient(alice).open()
    came = await watcher.expect("update")
    assert came["online"] == ["alice", "zed"] and came["online_count"] == 2
    assert (await LobbyClient().open())["online"] == ["alice", "zed"]
