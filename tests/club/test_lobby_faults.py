"""The lobby through faults (issue 37): a hello while Redis is down is closed with the code
its page retries on, never left waiting; the process's relay outlives a lost connection and
has its sockets welcomed afresh once Redis is back; a lobby update the database or Redis
could not carry is tried again, not dropped. Faults are injected into the channel layer and
the lobby's read, on a set clock."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import OperationalError

from club import lobby
from club.process import LOBBY, RELAY, UPDATES
from game import service as game_service
from game import sockets, supervise
from game.protocol import CLOSE_UNAVAILABLE
from tests.club.helpers import LobbyClient
from tests.game.helpers import close_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]

REFUSED = "Error 111 connecting to 127.0.0.1:6379. Connection refused."


@pytest.fixture(autouse=True)
def quick(settings: Any) -> Any:
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0}
    yield
    supervise.DEPENDENCIES.reset()


async def _hello(client: LobbyClient) -> None:
    connected, _ = await client.ws.connect()
    assert connected
    await client.send({"type": "hello", "protocol": 1})


async def test_a_hello_while_redis_is_down_is_closed_to_try_again(
    members: Any, monkeypatch: pytest.MonkeyPatch, set_clock: Any
) -> None:
    layer = get_channel_layer()
    real = layer.group_add

    async def refused(group: str, channel: str) -> None:
        raise redis.exceptions.ConnectionError(REFUSED)

    monkeypatch.setattr(layer, "group_add", refused)
    for user in (None, members[0]):  # the relay's join fails; then, for a member, their own
        down = LobbyClient(user)
        await _hello(down)
        assert await close_code(down.ws) == CLOSE_UNAVAILABLE
    assert RELAY.state()["status"] == "idle"  # nobody left to relay to: it ended

    monkeypatch.setattr(layer, "group_add", real)
    back = LobbyClient(members[0])
    assert (await back.open())["lobby"]
    match = await database_sync_to_async(game_service.create_match)(*members[:2], 1)
    LOBBY.note(matches=(match.pk,))
    assert (await back.rows())["matches"][0]["id"] == match.pk  # after her coming online


async def test_no_socket_waits_for_ever_for_its_welcome(
    members: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis hung (it takes the connection and never answers): closed within the limit."""
    layer = get_channel_layer()
    monkeypatch.setattr(sockets, "WELCOME_WITHIN", 0.05)

    async def hung(group: str, channel: str) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(layer, "group_add", hung)
    client = LobbyClient(members[0])
    await _hello(client)
    assert await close_code(client.ws) == CLOSE_UNAVAILABLE


async def test_the_relay_outlives_a_lost_connection_and_welcomes_its_sockets_again(
    members: Any, monkeypatch: pytest.MonkeyPatch, set_clock: Any
) -> None:
    layer = get_channel_layer()
    real = layer.receive
    broken = [False]

    async def receive(channel: str) -> dict[str, Any]:
        message = await real(channel)
        if broken[0]:  # the connection dropped while it waited
            broken[0] = False
            raise redis.exceptions.ConnectionError(REFUSED)
        return message

    monkeypatch.setattr(layer, "receive", receive)
    first = LobbyClient(members[0])
    await first.open()
    relay = LOBBY.relaying
    broken[0] = True
    match = await database_sync_to_async(game_service.create_match)(*members[:2], 1)
    LOBBY.note(matches=(match.pk,))
    assert relay is not None
    await set_clock.until_asleep(relay)  # the update was lost with the connection; it waits
    assert RELAY.state()["status"] == "waiting for redis"
    assert not relay.done()
    set_clock.move(supervise.RETRY)  # back in the group (then it waits on Redis): welcomed again
    assert await close_code(first.ws) == CLOSE_UNAVAILABLE
    assert LOBBY.relaying is relay and not relay.done() and RELAY.waiting is None
    again = LobbyClient(members[0])
    assert [m["id"] for m in (await again.open())["matches"]] == [match.pk]
    LOBBY.note(matches=(match.pk,))
    assert (await again.rows())["matches"][0]["id"] == match.pk


async def test_a_lobby_update_the_database_could_not_read_is_sent_once_it_is_back(
    members: Any, monkeypatch: pytest.MonkeyPatch, set_clock: Any
) -> None:
    """The issue's smaller fault: the update in progress during an outage was dropped until
    those matches changed again."""
    client = LobbyClient()  # a visitor: no member comes online, so no update before the fault
    await client.open()
    match = await database_sync_to_async(game_service.create_match)(*members[:2], 1)
    real = lobby.update
    down = [True]

    def update(matches: list[int], challenges: list[int]) -> Any:
        if down[0]:
            raise OperationalError("server closed the connection unexpectedly")
        return real(matches, challenges)

    monkeypatch.setattr(lobby, "update", update)
    LOBBY.note(matches=(match.pk,))
    assert LOBBY.flushing is not None
    await set_clock.until_asleep(LOBBY.flushing)  # it failed, and waits to try again
    assert UPDATES.state() == {
        "ok": False, "status": "waiting for database", "last_ok_seconds_ago": None
    }  # fmt: skip
    assert await client.nothing(0.05)
    down[0] = False
    await set_clock.advance(supervise.RETRY)
    update_message = await client.expect("update")
    assert [m["id"] for m in update_message["matches"]] == [match.pk]
    assert UPDATES.state()["status"] == "idle"
    assert json.dumps(update_message)  # a whole update, by its schema (LobbyClient checks)
