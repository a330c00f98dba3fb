"""Faults heal by themselves (issue 37): the presence heartbeat keeps beating through a
database outage, re-creates the rows another process swept meanwhile, and no claim is ever
possible against a player who stayed connected. The outage is injected (the database call
raises as a refused connection does), on a set clock: nothing sleeps."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest
import redis.exceptions
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client as DjangoClient

from game import clock, presence, service, shotclocks, supervise
from game.heartbeats import HEARTBEATS, _Heartbeats
from game.middleware import OutagesClose
from game.models import Absence, Connection, Match
from game.protocol import CLOSE_UNAVAILABLE, client_in
from game.shotclocks import CLOCKS
from rules.presence import Refusal
from tests.game.helpers import ROUTER, Client, as_user, close_code

pytestmark = pytest.mark.django_db(transaction=True)

HEARTBEAT = 10.0  # the club's defaults: stale after 15 s, a claim after 60 s away


class DatabaseOutage:
    """`presence.beat` fails, as with PostgreSQL down, for the processes that serve the
    channels in `down` (each process beats for its own sockets)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down: set[str] = set()
        self.refused = 0
        real: Callable[..., Any] = presence.beat

        def beat(sockets: dict[str, tuple[int, str]], now: Any = None) -> dict[int, int]:
            if self.down & set(sockets):
                self.refused += 1
                raise OperationalError("connection to server at 127.0.0.1:5432 failed: refused")
            return real(sockets, now)

        monkeypatch.setattr(presence, "beat", beat)


@pytest.fixture
def outage(monkeypatch: pytest.MonkeyPatch) -> DatabaseOutage:
    return DatabaseOutage(monkeypatch)


@pytest.fixture
def beats(settings: Any) -> None:
    settings.SNOOKER = {
        **settings.SNOOKER, "HEARTBEAT": HEARTBEAT, "CONNECTION_STALE": 1.5 * HEARTBEAT
    }  # fmt: skip


def _started(players: Any) -> Match:
    m = service.create_match(players[0], players[1], 3, draw="A", reconnect_grace=60)
    presence.connect(m.pk, "alice-1", "A")
    presence.connect(m.pk, "bob-1", "B")
    return Match.objects.get(pk=m.pk)


def _why_not(match: Match) -> Refusal | None:
    return presence.why_not_claim(Match.objects.get(pk=match.pk), "A")


def _claim(match: Match) -> str:
    claim = client_in.Claim(type="claim", client_id="claim-1", scope="match")
    try:
        service.submit(match.pk, match.player_a, claim)
    except service.ServiceError as exc:
        return exc.code
    return "accepted"


@pytest.mark.usefixtures("beats")
async def test_no_claim_against_a_player_whose_process_could_not_beat(
    players: Any, set_clock: Any, outage: DatabaseOutage
) -> None:
    """The issue's scenario: Alice and Bob on two processes; the database goes away for 90 s
    (longer than the grace); Alice's process is back first and sweeps Bob's row as stale;
    Alice claims at once. Bob never left: no claim, then or later."""
    match = await database_sync_to_async(_started)(players)
    here, there = _Heartbeats(), _Heartbeats()  # Alice's process, Bob's process
    here.add("alice-1", match.pk, "A")
    there.add("bob-1", match.pk, "B")
    await set_clock.advance(HEARTBEAT / 2)
    assert await database_sync_to_async(_why_not)(match) is Refusal.OPPONENT_HERE

    outage.down = {"alice-1", "bob-1"}
    for _ in range(18):  # 90 s without a beat anywhere
        await set_clock.advance(HEARTBEAT / 2)
    assert outage.refused >= 30
    assert there.task is not None and not there.task.done()  # waiting, not dead

    outage.down = {"bob-1"}  # Alice's process reaches the database a beat before Bob's
    await set_clock.advance(HEARTBEAT / 2)
    swept = await database_sync_to_async(Connection.objects.filter(channel_name="bob-1").exists)()
    assert not swept  # Alice's process swept Bob's row, as a dead process's
    assert await database_sync_to_async(_why_not)(match) is Refusal.GRACE
    assert await database_sync_to_async(_claim)(match) == "not_claimable"

    outage.down = set()
    await set_clock.advance(HEARTBEAT / 2)  # Bob's process beats: his row is back
    assert await database_sync_to_async(Connection.objects.filter(channel_name="bob-1").exists)()
    assert not await database_sync_to_async(Absence.objects.filter(seat="B").exists)()
    for _ in range(30):  # and stays, well past the grace
        await set_clock.advance(HEARTBEAT / 2)
        assert await database_sync_to_async(_why_not)(match) is Refusal.OPPONENT_HERE
    assert await database_sync_to_async(_claim)(match) == "not_claimable"
    here.reset()
    there.reset()


@pytest.mark.usefixtures("beats")
async def test_a_row_stale_but_not_swept_counts_no_absence_yet(
    players: Any, set_clock: Any
) -> None:
    """Before any heartbeat has swept it, a row left stale by an outage is not an absence
    from its last write: a claim right after the database is back waits for the sweep, then
    for the whole grace after it."""
    match = await database_sync_to_async(_started)(players)
    set_clock.move(90)  # nobody could write for 90 s; nobody has swept yet
    assert await database_sync_to_async(_why_not)(match) is Refusal.CLAIMANT_AWAY
    await database_sync_to_async(presence.connect)(match.pk, "alice-2", "A")
    assert await database_sync_to_async(_why_not)(match) is Refusal.GRACE
    await database_sync_to_async(presence.beat)({"alice-2": (match.pk, "A")})  # the sweep
    absence = await database_sync_to_async(Absence.objects.get)(seat="B")
    assert absence.found == set_clock.now()  # counted from the sweep, not from the last write
    assert (set_clock.now() - absence.since).total_seconds() == 90  # but away since then
    set_clock.move(59)
    await database_sync_to_async(presence.beat)({"alice-2": (match.pk, "A")})
    assert await database_sync_to_async(_why_not)(match) is Refusal.GRACE


@pytest.mark.usefixtures("beats")
def test_an_absence_a_race_left_behind_never_counts_when_the_player_goes_later(
    players: Any, set_clock: Any
) -> None:
    """The fault test's claim: a sweep raced Bob's coming back after a database outage and
    left an absence while he played on; his socket dropped with Redis a grace later, and the
    claim landed a second after (it counted from the sweep). His absence counts from the drop."""
    match = _started(players)
    Absence.objects.create(match=match, seat="B", since=set_clock.now(), found=set_clock.now())
    set_clock.move(70)  # past the grace (60 s), Bob at the table all along
    presence.beat({"alice-1": (match.pk, "A"), "bob-1": (match.pk, "B")})
    assert _why_not(match) is Refusal.OPPONENT_HERE
    presence.disconnect(match.pk, "bob-1", "B")
    assert _why_not(match) is Refusal.GRACE
    assert _claim(match) == "not_claimable"
    set_clock.move(60)
    presence.beat({"alice-1": (match.pk, "A")})
    assert _why_not(match) is None  # gone a whole grace: a claim may be made


@pytest.mark.usefixtures("beats")
def test_a_player_is_never_without_both_a_socket_and_an_absence(
    players: Any, set_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault test's claim, again: Bob's socket dropped with Redis, and Alice's claim was
    read after his row went and before his absence was written; with neither, he counted as
    away since he arrived, and it landed. His row and his absence change in one transaction:
    a disconnect that fails between them leaves his row, as if it had not begun."""
    match = _started(players)
    set_clock.move(70)  # past the grace (60 s) since Bob arrived
    presence.beat({"alice-1": (match.pk, "A"), "bob-1": (match.pk, "B")})

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(Absence.objects, "update_or_create", refused)
    with pytest.raises(OperationalError):
        presence.disconnect(match.pk, "bob-1", "B")
    monkeypatch.undo()
    assert Connection.objects.filter(channel_name="bob-1").exists()
    assert _why_not(match) is Refusal.OPPONENT_HERE
    set_clock.move(2 * HEARTBEAT)  # his process is gone: Alice's sweeps his row
    presence.beat({"alice-1": (match.pk, "A")})
    assert _why_not(match) is Refusal.GRACE  # counted from the sweep, not from his arrival


@pytest.mark.usefixtures("beats")
def test_a_sweep_renews_an_absence_from_before_the_row_it_sweeps(
    players: Any, set_clock: Any
) -> None:
    """The same leftover, found by a sweep: Bob's row was written after it, so his absence
    counts from this sweep."""
    match = _started(players)
    Absence.objects.create(match=match, seat="B", since=set_clock.now(), found=set_clock.now())
    set_clock.move(70)
    presence.beat({"alice-1": (match.pk, "A"), "bob-1": (match.pk, "B")})
    set_clock.move(2 * HEARTBEAT)  # Bob's process stops writing; Alice's sweeps his row
    presence.beat({"alice-1": (match.pk, "A")})
    absence = Absence.objects.get(seat="B")
    assert absence.found == set_clock.now()
    assert _why_not(match) is Refusal.GRACE


@pytest.mark.usefixtures("beats")
async def test_the_heartbeat_waits_out_an_outage_and_says_so_once(
    players: Any, set_clock: Any, outage: DatabaseOutage, caplog: pytest.LogCaptureFixture
) -> None:
    match = await database_sync_to_async(_started)(players)
    beats = _Heartbeats()
    beats.add("bob-1", match.pk, "B")
    await set_clock.advance(HEARTBEAT / 2)
    assert beats.watch.state()["status"] == "running"
    outage.down = {"bob-1"}
    caplog.clear()
    for _ in range(10):
        await set_clock.advance(HEARTBEAT / 2)
    assert beats.task is not None and not beats.task.done()
    state = beats.watch.state()
    assert state["status"] == "waiting for database" and not state["ok"]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and lines[0].startswith("database lost"), lines
    assert all(r.exc_info is None for r in caplog.records)  # no traceback per beat
    outage.down = set()
    await set_clock.advance(HEARTBEAT / 2)
    assert beats.watch.state()["status"] == "running"
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and lines[1].startswith("database back"), lines
    beats.reset()
    supervise.DEPENDENCIES.reset()


@pytest.mark.usefixtures("beats")
async def test_the_heartbeat_writes_on_while_its_broadcast_hangs(
    players: Any, set_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis hangs (stopped, not gone): the presence it would broadcast waits, the rows do
    not. Before, the beat waited for its broadcast: Bob's row went stale on a hang, and
    another process would sweep it and let Alice claim a grace later, Bob at the table."""
    match = await database_sync_to_async(_started)(players)
    told: list[int] = []

    async def tell(match_id: int, info: Any) -> None:
        told.append(match_id)
        await clock.sleep(3600)  # hung for the whole test

    monkeypatch.setattr("game.heartbeats.tell_presence", tell)
    beats = _Heartbeats()
    beats.add("bob-1", match.pk, "B")
    for _ in range(40):  # 200 s: far past the stale limit and the grace
        await set_clock.advance(HEARTBEAT / 2)
        row = await database_sync_to_async(Connection.objects.get)(channel_name="bob-1")
        assert (set_clock.now() - row.last_seen).total_seconds() <= HEARTBEAT / 2
    # Bob's coming and the first beat's, hung all along; no beat piles another on them.
    assert told == [match.pk, match.pk]
    assert beats.watch.state()["status"] == "running"
    assert beats.told.state()["status"] == "behind"  # /healthz says the broadcast is stuck
    await database_sync_to_async(presence.beat)({"alice-1": (match.pk, "A")})
    assert await database_sync_to_async(_why_not)(match) is Refusal.OPPONENT_HERE
    beats.reset()


@pytest.mark.usefixtures("beats")
async def test_healthz_says_when_a_background_task_died_or_fell_behind(
    players: Any, set_clock: Any, client: Any
) -> None:
    """The heartbeat's task ended while its sockets are still here (the issue's: 200
    throughout), or it has had no good pass for three periods: 503, and which one."""
    match = await database_sync_to_async(_started)(players)
    beats = _Heartbeats()
    beats.add("bob-1", match.pk, "B")
    await set_clock.advance(HEARTBEAT / 2)
    get = database_sync_to_async(client.get)
    response = await get("/healthz")
    assert response.status_code == 200
    assert response.json()["tasks"]["presence heartbeat"]["status"] == "running"

    set_clock.ticks += 2 * HEARTBEAT - 0.1  # its loop stalled: time passed, no beat woke
    response = await get("/healthz")
    assert response.status_code == 503
    assert response.json()["tasks"]["presence heartbeat"]["status"] == "behind"

    assert beats.task is not None
    beats.task.cancel()  # as an unhandled error ended it on main
    await asyncio.wait([beats.task])
    response = await get("/healthz")
    assert response.status_code == 503
    assert response.json()["tasks"]["presence heartbeat"] == {
        "ok": False, "status": "dead", "last_ok_seconds_ago": 2 * HEARTBEAT - 0.1
    }  # fmt: skip
    beats.reset()


async def test_a_match_hello_while_redis_is_down_is_closed_to_try_again(
    players: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """As the lobby's: closed with the code the page reconnects on, one line said for the
    process (main: daphne's 1011, with a traceback a socket)."""
    match = await database_sync_to_async(service.create_match)(*players, 3, draw="A")
    layer = get_channel_layer()
    real = layer.group_add

    async def refused(group: str, channel: str) -> None:
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(layer, "group_add", refused)
    for player in players:
        client = Client(match.pk, player)
        connected, _ = await client.ws.connect()
        assert connected
        await client.send({"type": "hello", "protocol": 1, "last_version": None})
        assert await close_code(client.ws) == CLOSE_UNAVAILABLE
    assert [r.getMessage()[:10] for r in caplog.records if r.levelno >= logging.WARNING] == [
        "redis lost"
    ]
    monkeypatch.setattr(layer, "group_add", real)
    again = Client(match.pk, players[0])
    assert (await again.open())["type"] == "welcome"
    await again.close()
    supervise.DEPENDENCIES.reset()


@pytest.mark.usefixtures("beats")
async def test_a_player_coming_back_while_redis_hangs_is_at_the_table(
    players: Any, set_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's socket dropped; his page says hello again while Redis hangs, so his socket cannot
    join the match's group. He is at the table from his hello, not away from his drop: past
    the grace Alice still cannot claim (main: his row waited for the group, and a hang longer
    than the grace let Alice claim against a player whose page was there)."""
    match = await database_sync_to_async(_started)(players)
    here = _Heartbeats()  # Alice's process
    here.add("alice-1", match.pk, "A")
    await database_sync_to_async(presence.disconnect)(match.pk, "bob-1", "B")
    layer = get_channel_layer()
    hung = asyncio.Event()

    async def hangs(group: str, channel: str) -> None:
        await hung.wait()

    monkeypatch.setattr(layer, "group_add", hangs)
    bob = Client(match.pk, players[1])
    assert (await bob.ws.connect())[0]
    await bob.send({"type": "hello", "protocol": 1, "last_version": None})
    for _ in range(14):  # 70 s: past the grace (60 s), the hello still waiting for its group
        await set_clock.advance(HEARTBEAT / 2)
        assert await database_sync_to_async(_why_not)(match) is Refusal.OPPONENT_HERE
    assert await database_sync_to_async(_claim)(match) == "not_claimable"
    hung.set()
    await bob.close()
    here.reset()
    HEARTBEATS.reset()


async def test_a_socket_whose_channel_fails_under_it_is_closed_to_try_again_quietly(
    players: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis goes away under welcomed sockets: each consumer's own channel fails. Each socket
    is closed with the code its page reconnects on and the outage said once for the process
    (main: daphne's "Exception inside application" traceback and 1011, a socket each)."""
    match = await database_sync_to_async(service.create_match)(*players, 3, draw="A")
    layer = get_channel_layer()
    gone = asyncio.Event()

    async def receive(channel: str) -> dict[str, Any]:
        await gone.wait()
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(layer, "receive", receive)
    clients = []
    for player in players:
        client = Client(match.pk, player)
        client.ws = WebsocketCommunicator(OutagesClose(as_user(player)), f"/ws/match/{match.pk}/")
        assert (await client.open())["type"] == "welcome"
        clients.append(client)
    caplog.clear()
    gone.set()
    for client in clients:
        assert await close_code(client.ws) == CLOSE_UNAVAILABLE
    assert [(r.getMessage()[:10], r.exc_info) for r in caplog.records] == [("redis lost", None)]
    supervise.DEPENDENCIES.reset()


async def test_a_socket_whose_clean_up_meets_the_database_away_ends_all_the_same(
    players: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A player's page goes while the database is away: the consumer's clean-up cannot
    delete its row, and the consumer ends all the same (main: it waited for messages that
    never come until daphne killed it 10 s later, "took too long to shut down")."""
    match = await database_sync_to_async(service.create_match)(*players, 3, draw="A")
    client = Client(match.pk, players[0])
    assert (await client.open())["type"] == "welcome"

    def refused(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("connection to server at 127.0.0.1:5432 failed: refused")

    monkeypatch.setattr(presence, "disconnect", refused)
    caplog.clear()
    await client.ws.send_input({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait([client.ws.future], timeout=2)
    assert client.ws.future.done()  # the consumer has ended
    assert [(r.getMessage()[:13], r.exc_info) for r in caplog.records] == [("database lost", None)]
    supervise.DEPENDENCIES.reset()


async def test_a_handshake_that_cannot_read_its_session_is_refused_to_try_again_quietly(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The database away at a socket's handshake (the session's read, under channels' auth):
    refused, which the page retries as any close, and said once, not a traceback each."""

    def load(self: Any) -> dict[str, Any]:
        raise OperationalError("connection to server at 127.0.0.1:5432 failed: refused")

    monkeypatch.setattr(SessionStore, "load", load)
    app = OutagesClose(AuthMiddlewareStack(ROUTER))
    for _ in range(3):
        ws = WebsocketCommunicator(
            app, "/ws/match/1/", headers=[(b"cookie", b"sessionid=" + b"a" * 32)]
        )
        connected, _ = await ws.connect()
        assert not connected
    assert [(r.getMessage()[:13], r.exc_info) for r in caplog.records] == [("database lost", None)]
    bug = OutagesClose(AuthMiddlewareStack(ROUTER))
    monkeypatch.setattr(SessionStore, "load", lambda self: 1 / 0)
    with pytest.raises(ZeroDivisionError):  # a bug goes on as one
        await WebsocketCommunicator(
            bug, "/ws/match/1/", headers=[(b"cookie", b"sessionid=" + b"a" * 32)]
        ).connect()
    supervise.DEPENDENCIES.reset()


async def test_a_task_nobody_awaits_that_meets_an_outage_is_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """channels_redis's own clean-up tasks, after Redis came back, meet a connection from
    before it: one line for the process, not "Task exception was never retrieved" and its
    traceback; a bug in such a task is still the loop's to log."""
    loop = asyncio.get_running_loop()
    before = loop.get_exception_handler()
    supervise.quiet_loop(loop)
    try:
        for _ in range(3):
            loop.call_exception_handler({
                "message": "Task exception was never retrieved",
                "exception": redis.exceptions.ConnectionError("Connection closed by server."),
            })  # fmt: skip
        assert [(r.getMessage()[:10], r.exc_info) for r in caplog.records] == [("redis lost", None)]
        loop.call_exception_handler({"message": "a bug", "exception": ValueError("bug")})
        assert caplog.records[-1].levelno == logging.ERROR
        assert caplog.records[-1].exc_info is not None
    finally:
        loop.set_exception_handler(before)
        supervise.DEPENDENCIES.reset()


def test_a_page_that_meets_the_database_away_is_said_once_not_a_traceback_each(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Django's request log: the club's 500 page ("try again in a moment") each time, and
    one line for the process."""

    def load(self: Any) -> dict[str, Any]:
        raise OperationalError("connection to server at 127.0.0.1:5432 failed: refused")

    monkeypatch.setattr(SessionStore, "load", load)
    browser = DjangoClient(raise_request_exception=False)
    browser.cookies["sessionid"] = "a" * 32
    for _ in range(3):
        assert browser.get("/").status_code == 500
    assert [(r.getMessage()[:13], r.exc_info) for r in caplog.records] == [("database lost", None)]
    supervise.DEPENDENCIES.reset()


async def test_a_shot_clock_due_while_the_database_is_away_is_settled_once_it_is_back(
    players: Any, set_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def started() -> Match:
        m = service.create_match(*players, 3, draw="A", shot_clock=30)
        presence.connect(m.pk, "alice-1", "A")
        presence.connect(m.pk, "bob-1", "B")
        return Match.objects.get(pk=m.pk)

    match = await database_sync_to_async(started)()
    assert match.deadline is not None
    real = service.expire_shot_clock
    down = [True]

    def expire(match_id: int, version: int, now: Any = None) -> Any:
        if down[0]:
            raise OperationalError("could not connect to server: Connection refused")
        return real(match_id, version, now)

    monkeypatch.setattr(service, "expire_shot_clock", expire)
    CLOCKS.arm(match.pk, match.version, match.deadline)
    await set_clock.advance(31)  # due: the database refuses
    assert shotclocks.WATCH.state()["status"] == "waiting for database"
    assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version == match.version
    down[0] = False
    await set_clock.advance(supervise.RETRY)  # back: the time foul is settled, once
    row = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert row.version == match.version + 1
    assert shotclocks.WATCH.state()["status"] == "idle"
    await set_clock.advance(supervise.RETRY)
    assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version == row.version


async def test_a_periodic_job_waits_out_an_outage_and_tries_again_within_seconds(
    set_clock: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The no-shows, the ladder's settling and the computer's resume pass run on this: a
    pass that meets the database away is tried again in 2 s, not a period later, with one
    line for the outage and one for its end (main: a traceback a pass)."""
    down = [True]
    passes: list[bool] = []

    async def work() -> None:
        passes.append(down[0])
        if down[0]:
            raise OperationalError("server closed the connection unexpectedly")

    job = supervise.Periodic("a test's job", lambda: 30.0, work)
    caplog.clear()
    job.start()
    await set_clock.until_asleep(job.task)
    for _ in range(3):
        await set_clock.advance(supervise.RETRY * 3)
    assert job.watch.state()["status"] == "waiting for database"
    assert len(passes) == 4  # tried again every few seconds, not every 30
    down[0] = False
    await set_clock.advance(supervise.RETRY * 3)
    assert passes[-1] is False and job.watch.state()["status"] == "running"
    lines = [r.getMessage()[:13] for r in caplog.records]
    assert lines == ["database lost", "database back"]
    assert all(r.exc_info is None for r in caplog.records)
    job.stop()
    del supervise.WATCHES["a test's job"]


@pytest.mark.usefixtures("beats", "close_clients")
async def test_a_process_that_cannot_beat_for_the_stale_limit_closes_its_match_sockets(
    players: Any, set_clock: Any, outage: DatabaseOutage
) -> None:
    """Its rows are then taken for a dead process's: its players' pages reconnect (through
    the proxy, to a process that can write) rather than be claimed against, as the players
    of a process cut off from the database alone would be after the grace."""
    match = await database_sync_to_async(service.create_match)(*players, 3, draw="A")
    bob = Client(match.pk, players[1])
    await bob.open()
    await set_clock.advance(HEARTBEAT / 2)
    outage.down = set(HEARTBEATS.channels)  # Bob's process cannot reach the database
    for _ in range(4):  # 15 s of failing beats: within the stale limit, kept
        await set_clock.advance(HEARTBEAT / 2)
    while not await bob.ws.receive_nothing(timeout=0.05):  # presence, told before: no close
        assert (await bob.ws.receive_output())["type"] != "websocket.close"
    await set_clock.advance(HEARTBEAT / 2)
    assert await close_code(bob.ws) == CLOSE_UNAVAILABLE


@pytest.mark.usefixtures("beats")
async def test_a_coming_while_presence_is_being_read_is_told_without_waiting_for_the_beat(
    players: Any, set_clock: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """A player comes while the last flush is still reading presence (another match's): their
    coming is told a coalescing later, not at the next beat (5 s on, past a page's wait)."""
    first = await database_sync_to_async(_started)(players)
    second = await database_sync_to_async(_started)(players)
    beats = _Heartbeats()
    told: list[int] = []
    reading, release, first_told = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def write(then: Any, keys: list[int]) -> Any:
        if not reading.is_set():  # the first read is slow
            reading.set()
            await release.wait()
        return await database_sync_to_async(then)(keys)

    async def tell(match_id: int, info: Any) -> None:
        told.append(match_id)
        first_told.set()

    monkeypatch.setattr(beats, "_write", write)
    monkeypatch.setattr("game.heartbeats.tell_presence", tell)
    beats.add("alice-1", first.pk, "A")
    coalesce = settings.SNOOKER["PRESENCE_COALESCE"]
    await asyncio.sleep(0)
    set_clock.move(coalesce)  # the flush starts, and reads
    await reading.wait()
    beats.add("bob-2", second.pk, "B")  # comes now: the flush has taken its matches
    release.set()
    async with asyncio.timeout(10):
        await first_told.wait()
    assert beats.flushing is not None
    await set_clock.until_asleep(beats.flushing)  # done, or waiting to flush again
    await set_clock.advance(coalesce)  # well inside the half beat
    assert told == [first.pk, second.pk]
    beats.reset()
