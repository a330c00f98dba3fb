"""A member's own sockets are bounded (issue 42): how many they hold, at one match and in all;
one rate of aims per seat however many sockets its player holds; a stale request refused by
the socket before it reaches the database."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db.backends.utils import CursorWrapper

from game import service
from game.protocol import CLOSE_FLOOD, CLOSE_FULL
from tests.game.helpers import Client, close_code, started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


async def _connect(client: Client) -> tuple[bool, int | None]:
    connected, code = await client.ws.connect()
    return connected, code  # type: ignore[return-value]


async def test_a_members_61st_socket_is_refused_and_10_at_one_match(players, settings) -> None:
    """60 sockets of one member in all (the 61st refused wherever it goes), 10 at one match,
    seated or not, each refused with the close code the page reads as "full"; other
    members and strangers are not held up by it, and a place freed is taken again."""
    conf = settings.SNOOKER
    assert (conf["MAX_SOCKETS_PER_MEMBER"], conf["MAX_MEMBER_SOCKETS_PER_MATCH"]) == (60, 10)
    alice, bob = players
    matches = [
        await database_sync_to_async(service.create_match)(alice, bob, best_of=1, draw="A")
        for _ in range(7)
    ]
    held = []
    for row in matches[:6]:
        for _ in range(10):
            client = Client(row.pk, alice, address=f"10.2.0.{row.pk % 250}")
            assert await _connect(client) == (True, None)
            held.append(client)
        # Her 11th at a table she plays at, from another address too.
        assert await _connect(Client(row.pk, alice, address="10.2.1.1")) == (False, CLOSE_FULL)
    # Her 61st, to a match she has no socket at.
    assert await _connect(Client(matches[6].pk, alice)) == (False, CLOSE_FULL)
    assert await _connect(Client(matches[6].pk, bob)) == (True, None)  # others come in
    assert await _connect(Client(matches[6].pk)) == (True, None)
    await held[0].close()
    assert await _connect(Client(matches[6].pk, alice)) == (True, None)  # a place was freed


async def test_aims_from_several_sockets_of_one_seat_share_one_bucket(match, players) -> None:
    """Three sockets of the striker aim at once: the first aim is relayed, the second is
    overtaken, and the third (the newest) follows when the seat's one rate allows, as one
    socket's would (each socket's own bucket relayed all three at once)."""
    alice = [Client(match.pk, players[0]) for _ in range(3)]
    watcher = Client(match.pk)
    for client in (*alice, watcher):
        await client.open()
    for i, client in enumerate(alice):
        await client.send({"type": "aim", "angle": 0.1 * i, "speed": 2.0})
    angles = [(await watcher.expect("aim"))["angle"]]
    while angles[-1] != 0.2:
        angles.append((await watcher.expect("aim"))["angle"])
    assert angles == [0.0, 0.2]


async def test_a_players_sockets_at_one_table_share_one_rate(
    match, players, set_clock, settings
) -> None:
    """Two sockets of the striker: the second has no allowance of its own once the first
    spent the seat's burst (each socket's own bucket let 60 sockets send 1,200 a second);
    the opponent's is theirs."""
    burst = int(settings.SNOOKER["RATE_BURST"])
    first, second = Client(match.pk, players[0]), Client(match.pk, players[0])
    bob = Client(match.pk, players[1])
    for client in (first, second, bob):
        await client.open()
    for _ in range(burst - 2):  # the two hellos took theirs
        await first.send({"type": "ping", "version": 1})
        await first.expect("pong")
    await second.send({"type": "ping", "version": 1})
    assert (await second.expect("error"))["code"] == "rate_limited"
    await bob.send({"type": "ping", "version": 1})
    assert (await bob.expect("pong"))["version"] == 1
    await set_clock.advance(1.0)  # refilled at the player's rate
    await second.send({"type": "ping", "version": 1})
    await second.expect("pong")


async def test_a_members_sockets_share_one_rate_and_one_flood(players, set_clock, settings) -> None:
    """Sockets at three tables of one member, each within its own seat's rate, together past
    the member's: the next message on any of them is refused, and a run of refusals spread
    over the three is one flood that closes all of them (each counting its own share of the
    run, sixty sockets took 1,700 messages to flood, issue 42). The opponent is untouched."""
    conf = settings.SNOOKER
    burst, most = int(conf["MEMBER_RATE_BURST"]), int(conf["FLOOD_CLOSE_REFUSED"])
    assert burst % 3 == 0 and burst // 3 < conf["RATE_BURST"]  # within each seat's rate
    alice, bob = players
    tables = [
        await database_sync_to_async(service.create_match)(alice, bob, best_of=1, draw="A")
        for _ in range(3)
    ]
    sockets = [Client(row.pk, alice) for row in tables]
    opponent = Client(tables[0].pk, bob)
    for client in (*sockets, opponent):
        await client.open()
    for client in sockets:
        for _ in range(burst // 3 - 1):  # its hello took one
            await client.send({"type": "ping", "version": 1})
            await client.expect("pong")
    await sockets[2].send({"type": "ping", "version": 1})
    assert (await sockets[2].expect("error"))["code"] == "rate_limited"
    for i in range(most - 1):  # the run's other refusals, a third on each socket
        await sockets[i % 3].ws.send_input(
            {"type": "websocket.receive", "text": '{"type":"ping","version":1}'}
        )
    assert [await close_code(c.ws) for c in sockets] == [CLOSE_FLOOD] * 3
    await opponent.send({"type": "ping", "version": 1})
    await opponent.expect("pong")


@pytest.fixture
def queries(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement a player's request runs (`service.submit`, on whichever thread
    runs it: channels' database thread has its own connection, which django's
    CaptureQueriesContext on this thread's would not see; the lobby's reads meanwhile are
    not the request's)."""
    run: list[str] = []
    inside = threading.local()
    execute, submit = CursorWrapper.execute, service.submit

    def counted(self: CursorWrapper, sql: str, params: Any = None) -> Any:
        if getattr(inside, "request", False):
            run.append(sql)
        return execute(self, sql, params)

    def submitted(*args: Any) -> Any:
        inside.request = True
        try:
            return submit(*args)
        finally:
            inside.request = False

    monkeypatch.setattr(CursorWrapper, "execute", counted)
    monkeypatch.setattr(service, "submit", submitted)
    return run


async def test_a_stale_stroke_is_refused_before_the_database(
    match, players, queries, set_clock
) -> None:
    """A stroke at a version older than the one the socket last sent is answered with the
    protocol's `stale_version` without a query; the same socket's repeat of its own request
    still gets its first ack (a retry is never played twice, nor refused)."""
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    for client in (a, b):
        await client.open()
    first = await a.break_off()
    await a.expect("ack")
    await a.expect("event")
    await b.expect("event")  # B's socket is at version 2 now
    b.version = 1
    before = len(queries)
    cid = await b.stroke(angle=1.0, speed=2.0)
    error = await b.expect("error")
    assert error["code"] == "stale_version" and error["client_id"] == cid
    assert queries[before:] == []
    a.version = 1
    await a.break_off(client_id=first)  # its own last request again: the service answers
    again = await a.expect("ack")
    assert again["duplicate"] is True and again["version"] == 2
    assert len(queries) > before


@pytest.mark.parametrize("practice", [False, True])
async def test_a_stale_choice_is_refused_before_the_database(
    players, queries, set_clock, practice
) -> None:
    """A choice at an old version too, at a practice table as at a match."""
    alice, bob = players
    opponent = alice if practice else bob
    row = await database_sync_to_async(
        lambda: started(
            service.create_match(alice, opponent, best_of=1, draw="A", practice=practice)
        )
    )()
    a = Client(row.pk, alice)
    await a.open()
    await a.break_off()
    await a.expect("event")
    before = len(queries)
    await a.send({"type": "choose", "client_id": "old1", "version": 1, "option": "play"})
    error = await a.expect("error")
    assert error["code"] == "stale_version" and error["client_id"] == "old1"
    assert queries[before:] == []
    await a.send({"type": "choose", "client_id": "new1", "version": 2, "option": "play"})
    assert (await a.expect("error"))["code"] == "no_choice_pending"  # this one is read
    assert len(queries) > before


async def test_one_flood_closes_all_the_members_sockets_and_the_member_waits(
    match, players, settings, set_clock
) -> None:
    """Sixty sockets of one member flooding one at a time cost the other tables until the last
    of them had flooded: the first flood closes every socket of the member here, and the
    member waits as a flooding address does, wherever they come from. The opponent's socket
    stays open, and the member comes back once the wait is over."""
    settings.SNOOKER = {**settings.SNOOKER, "FLOOD_BACKLOG": 20}
    alice = [Client(match.pk, players[0], address=f"10.5.0.{i}") for i in range(1, 4)]
    bob = Client(match.pk, players[1], address="10.5.1.1")
    for client in (*alice, bob):
        await client.open()
    for _ in range(40):  # all queued before the consumer reads the first: a flood
        await alice[0].ws.send_input(
            {"type": "websocket.receive", "text": '{"type":"ping","version":0}'}
        )
    assert [await close_code(c.ws) for c in alice] == [CLOSE_FLOOD] * 3
    await bob.send({"type": "ping", "version": 1})
    await bob.expect("pong")
    assert await _connect(Client(match.pk, players[0], address="10.5.2.1")) == (False, CLOSE_FULL)
    await set_clock.advance(1.2 * settings.SNOOKER["FLOOD_PENALTY"] + 1)
    assert await _connect(Client(match.pk, players[0], address="10.5.2.1")) == (True, None)
