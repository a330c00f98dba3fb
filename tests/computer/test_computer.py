"""The computer at the club (computer/): the page starts a match against a level, and the
driver plays the computer's turns through the same service and sockets as a member's."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client as PageClient

from computer import driver
from computer.models import Computer
from computer.service import ComputerError, play_computer
from game.models import Match, MatchEvent
from rules.opponent.address import address_seconds
from tests.game.helpers import Client, started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


def seats() -> dict[str, User]:
    """The computer's users (the migration makes them; a transactional test's flush may have
    taken them away)."""
    users = get_user_model().objects
    out = {}
    for level in ("novice", "club", "pro"):
        user, _ = users.get_or_create(username=f"computer-{level}", defaults={"is_active": False})
        Computer.objects.get_or_create(level=level, defaults={"user": user})
        out[level] = user
    return out


@pytest.fixture(autouse=True)
def thinking_in_a_thread(settings):  # type: ignore[no-untyped-def]
    settings.COMPUTER = {**settings.COMPUTER, "ADDRESS_SECONDS": 0.0}
    driver.use_pool(ThreadPoolExecutor(max_workers=1))
    yield
    driver.use_pool(None)


def test_the_page_starts_an_unrated_match_against_the_level() -> None:
    seats()
    member = get_user_model().objects.create_user("alice", password="pw")
    page = PageClient()
    page.force_login(member)
    assert page.get("/computer/").status_code == 200
    response = page.post("/computer/", {"level": "pro", "best_of": 1})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    assert match.player_a == member and match.player_b.computer.level == "pro"
    assert not match.rated and not match.practice
    # The computer plays nobody as a member.
    with pytest.raises(ComputerError):
        play_computer(match.player_b, "club", 1)


async def test_the_computer_answers_a_members_stroke_through_the_service() -> None:
    users = await database_sync_to_async(seats)()
    alice = await database_sync_to_async(get_user_model().objects.create_user)("alice")
    match = await database_sync_to_async(play_computer)(alice, "novice", 1)
    client = Client(match.pk, alice)
    await client.open()
    await client.break_off()
    mine = await client.expect("event")
    assert mine["seat"] == "A"
    # The computer addresses the ball (its aim, as a browser's), then plays: its event
    # follows, made by its user, through the same checks as any request.
    aim = await client.expect("aim", timeout=30)
    assert aim["seat"] == "B"
    theirs = await client.expect("event", timeout=30)
    assert theirs["seat"] == "B"
    event = await database_sync_to_async(
        MatchEvent.objects.filter(match=match, seat="B").select_related("actor").first
    )()
    assert event is not None and event.actor == users["novice"]


async def test_a_server_leaves_the_computers_turns_to_its_own_process(settings) -> None:
    """With SNOOKER_COMPUTER_PROCESS the server drives nothing: it tells the computer's process
    which of its matches moved (driver.TURNS), and that process plays the turn."""
    from channels.layers import get_channel_layer

    from game import service

    settings.COMPUTER = {**settings.COMPUTER, "OWN_PROCESS": True}
    await database_sync_to_async(seats)()
    users = get_user_model().objects
    alice = await database_sync_to_async(users.create_user)("alice")
    bob = await database_sync_to_async(users.create_user)("bob")
    match = await database_sync_to_async(play_computer)(alice, "novice", 1)
    friendly = await database_sync_to_async(service.create_match)(bob, alice, 1, draw="A")
    await database_sync_to_async(started)(friendly)  # Bob plays from the start
    layer = get_channel_layer()
    assert layer is not None
    theirs = Client(friendly.pk, bob)
    await theirs.open()
    await theirs.break_off()
    await theirs.expect("event")
    client = Client(match.pk, alice)
    await client.open()
    await client.break_off()
    await client.expect("event")
    # Told (for the break-off, maybe for Alice's arrival too), and only of the computer's match.
    told = await asyncio.wait_for(layer.receive(driver.TURNS), 10)
    assert told == {"type": "computer.turn", "match": match.pk}
    # A drive would have been scheduled as the event was published, before it was told.
    assert not driver._TASKS and not driver.plays_here()
    assert driver._KNOWN[match.pk] and not driver._KNOWN.get(friendly.pk)
    # The computer's process: the turn it is told of, it plays.
    serving = asyncio.create_task(driver.serve())
    try:
        await layer.send(driver.TURNS, told)
        assert (await client.expect("event", timeout=30))["seat"] == "B"
    finally:
        await layer.send(driver.TURNS, {"type": "computer.stop"})
        await asyncio.wait_for(serving, 10)


async def test_the_computer_never_takes_the_members_own_thread(monkeypatch) -> None:
    """A member's stroke never waits behind the computer's reads or strokes: those go to
    channels' shared database thread, the members' requests to their own (game.work.play)."""
    import threading

    from game import service

    await database_sync_to_async(seats)()
    alice = await database_sync_to_async(get_user_model().objects.create_user)("alice")
    match = await database_sync_to_async(play_computer)(alice, "novice", 1)
    threads: dict[str, set[str]] = {"member": set(), "computer": set()}
    submit = service.submit

    def recorded(match_id, user, message):  # type: ignore[no-untyped-def]
        who = "member" if user.pk == alice.pk else "computer"
        threads[who].add(threading.current_thread().name)
        return submit(match_id, user, message)

    monkeypatch.setattr(service, "submit", recorded)
    client = Client(match.pk, alice)
    await client.open()
    await client.break_off()
    await client.expect("event")
    assert (await client.expect("event", timeout=30))["seat"] == "B"
    assert threads["member"] and threads["computer"]
    assert not any(name.startswith("play") for name in threads["computer"]), threads


async def test_the_computer_plays_once_the_balls_have_stopped(set_clock) -> None:
    """It thinks while its opponent's balls roll, and addresses the ball only once they have
    stopped on the watchers' tables, as a player must."""
    await database_sync_to_async(seats)()
    alice = await database_sync_to_async(get_user_model().objects.create_user)("alice")
    match = await database_sync_to_async(play_computer)(alice, "novice", 1)
    client = Client(match.pk, alice)
    await client.open()
    await client.break_off()
    rolling = (await client.expect("event"))["shot"]["duration"]
    assert rolling > 2
    drives = [t for t in driver._TASKS if not t.done()]
    assert drives  # the break-off's broadcast started the computer's turn
    await set_clock.until_asleep(*drives, timeout=30)  # it has decided, and waits
    await set_clock.advance(rolling - 1)
    while not await client.ws.receive_nothing(timeout=0.1):
        await client.recv()
    assert not [m for m in client.seen if m["type"] == "aim"]
    await set_clock.advance(2)
    assert (await client.expect("aim", timeout=30))["seat"] == "B"
    assert (await client.expect("event", timeout=30))["seat"] == "B"


def test_the_profile_shows_results_against_the_computer_apart() -> None:
    seats()
    member = get_user_model().objects.create_user("alice", password="pw")
    for winner in ("A", "B"):  # each finished before the next (at most two live at once)
        match = play_computer(member, "pro", 1)
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.FINISHED, state={**match.state, "winner": winner}
        )
    play_computer(member, "novice", 1)  # still being played: not counted
    page = PageClient()
    page.force_login(member)
    text = page.get("/players/alice/").content.decode()
    assert 'data-testid="computer-record"' in text
    record = text[text.index('data-testid="computer-record"') :]
    record = record[: record.index("</ul>")]
    assert "Professional: won 1 of 2 matches" in record and "Novice" not in record


def test_matches_against_the_computer_stay_out_of_the_members_totals() -> None:
    from game import service
    from game.protocol import client_in
    from members.models import MatchFigures
    from members.views import totals

    seats()
    member = get_user_model().objects.create_user("alice", password="pw")
    match = play_computer(member, "club", 1)
    concede = client_in.Concede(type="concede", client_id="c1", scope="match")
    service.submit(match.pk, member, concede)  # the figures are written as for any match
    assert MatchFigures.objects.filter(match=match, player=member).exists()
    assert totals(member.pk)["played"] == 0


def finished(match: Match, winner: str = "A") -> None:
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, state={**match.state, "winner": winner}
    )


def test_the_end_panel_offers_to_play_the_level_again_never_a_rematch() -> None:
    seats()
    member = get_user_model().objects.create_user("alice", password="pw")
    match = play_computer(member, "club", 3)
    finished(match)
    page = PageClient()
    page.force_login(member)
    text = page.get(f"/match/{match.pk}/end/").content.decode()
    assert 'data-testid="play-computer-again"' in text and "offer-rematch" not in text
    assert 'name="level" value="club"' in text and 'name="best_of" value="3"' in text
    # An offer posted anyway is refused: the computer answers none.
    assert page.post(f"/match/{match.pk}/rematch/").status_code == 409
    from club.models import Challenge

    assert not Challenge.objects.exists()
    # "Play again": a new match at the same level and format.
    response = page.post("/computer/", {"level": "club", "best_of": 3})
    again = Match.objects.exclude(pk=match.pk).get()
    assert response["Location"] == f"/match/{again.pk}/"
    assert again.player_b == match.player_b and again.best_of == 3


def test_breaks_made_against_the_computer_stay_off_the_best_breaks() -> None:
    from game import service
    from members.models import HighBreak

    seats()
    users = get_user_model().objects
    member = users.create_user("alice", password="pw")
    bob = users.create_user("bob", password="pw")
    against_computer = play_computer(member, "novice", 1)
    against_bob = service.create_match(member, bob, 1, draw="A")
    HighBreak.objects.create(match=against_computer, player=member, frame=1, points=87)
    HighBreak.objects.create(match=against_bob, player=member, frame=1, points=52)
    page = PageClient()
    page.force_login(member)
    text = page.get("/players/alice/").content.decode()
    assert 'data-testid="best-breaks"' in text
    assert "<b>52</b>" in text and "<b>87</b>" not in text


async def test_a_computer_turn_left_waiting_by_a_restart_is_picked_up(monkeypatch) -> None:
    import math

    from game import service
    from game.protocol import client_in
    from tests.game.helpers import BREAK_AT, BREAK_CUE

    await database_sync_to_async(seats)()
    alice = await database_sync_to_async(get_user_model().objects.create_user)("alice")
    match = await database_sync_to_async(play_computer)(alice, "novice", 1)
    angle = math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0])
    # The member's break-off was stored, but no event announced it (the server went down
    # between the commit and the broadcast).
    monkeypatch.setattr(service, "publish_on_commit", lambda *args: None)
    stroke = client_in.Stroke(
        type="stroke", client_id="b1", version=match.version, angle=angle, speed=8.0,
        side=0.0, height=0.0, nominated=None, cue_ball=BREAK_CUE,
    )  # fmt: skip
    await database_sync_to_async(service.submit)(match.pk, alice, stroke)
    monkeypatch.undo()
    driver._KNOWN.clear()  # a new process knows nothing
    # A member's live match is none of the computer's business.
    bob = await database_sync_to_async(get_user_model().objects.create_user)("bob")
    await database_sync_to_async(lambda: service.create_match(alice, bob, 1, draw="A"))()
    tasks = await driver.resume()
    assert len(tasks) == 1
    await asyncio.gather(*tasks)
    played = await database_sync_to_async(MatchEvent.objects.filter(match=match, seat="B").exists)()
    assert played
    # Nothing is waiting now: a second pass drives and leaves it as it was.
    count = await database_sync_to_async(MatchEvent.objects.filter(match=match).count)()
    await asyncio.gather(*await driver.resume())
    assert await database_sync_to_async(MatchEvent.objects.filter(match=match).count)() == count


def test_a_match_against_the_computer_is_never_abandoned_as_a_no_show() -> None:
    from datetime import timedelta

    from club.noshows import abandon_due

    seats()
    member = get_user_model().objects.create_user("alice", password="pw")
    match = play_computer(member, "novice", 1)
    # The computer never comes to the table: the match has started when it was made.
    assert match.started is not None
    assert abandon_due(match.created + timedelta(hours=2)) == []
    assert Match.objects.get(pk=match.pk).status == Match.Status.LIVE


def test_the_pools_workers_think_below_the_servers_priority() -> None:
    import os

    from computer.thinking import NICENESS

    driver.use_pool(None)  # the real pool: spawned processes
    try:
        niceness = driver.pool().submit(os.nice, 0).result(timeout=60)
        policy = driver.pool().submit(os.sched_getscheduler, 0).result(timeout=60)
    finally:
        pool = driver.pool()
        driver.use_pool(None)
        pool.shutdown()
    assert niceness == min(19, os.nice(0) + NICENESS)
    assert policy == os.SCHED_IDLE


async def test_the_computer_lines_up_and_settles_for_its_address_time(set_clock, settings) -> None:
    """It says it is thinking; once the balls have stopped it shows its cue swinging in onto
    the line and then still on it, for the stroke's address time (at least a Novice's
    quickest, a tap-in's), before it strikes; a page reloaded meanwhile is sent its aim."""
    settings.COMPUTER = {**settings.COMPUTER, "ADDRESS_SECONDS": 1.0}
    await database_sync_to_async(seats)()
    alice = await database_sync_to_async(get_user_model().objects.create_user)("alice")
    match = await database_sync_to_async(play_computer)(alice, "novice", 1)
    client = Client(match.pk, alice)
    await client.open()
    await client.break_off()
    event = await client.expect("event")
    thinking = await client.expect("thinking", timeout=30)
    assert thinking == {"type": "thinking", "seat": "B", "version": event["version"]}
    drives = [t for t in driver._TASKS if not t.done()]
    await set_clock.until_asleep(*drives, timeout=30)
    await set_clock.advance(event["shot"]["duration"] + 1)
    first = await client.expect("aim", timeout=30)
    assert first["seat"] == "B" and first["version"] == event["version"]
    # A reload now: the new page is sent the cue as it stands, after its welcome.
    again = Client(match.pk, alice)
    await again.open()
    assert (await again.expect("aim"))["version"] == event["version"]
    aims, elapsed, struck = [first], 0.0, False
    while True:
        while not await client.ws.receive_nothing(timeout=0.05):
            message = await client.recv()
            # The aims before its stroke. One after it is for its next (a ball potted): its
            # balls stop at the event's row time (the wall's) plus the stroke's, which this
            # test's clock, moved on faster than the wall, may have passed already.
            if message["type"] == "event" and message["seat"] == "B":
                struck = True
            elif message["type"] == "aim" and not struck:
                aims.append(message)
        if struck:
            break
        await set_clock.advance(0.05)
        elapsed += 0.05
        assert elapsed < 10, "the computer never struck"
    quickest = address_seconds("pot", "novice", 0.0, 0.0)
    assert elapsed >= quickest - 0.06, (elapsed, quickest)
    angles = [a["angle"] for a in aims]
    assert len(set(angles)) > 1  # it lines up: the cue moves onto the line ...
    assert all(a["version"] == event["version"] for a in aims)
    await again.ws.disconnect()


def test_a_member_has_at_most_two_live_matches_against_the_computer(settings) -> None:  # type: ignore[no-untyped-def]
    """SNOOKER_COMPUTER_LIVE (2): a third is refused, on the page with the member's words
    (409), until one has ended; an abandoned or finished one no longer counts."""
    from django.utils import translation

    seats()
    member = get_user_model().objects.create_user("alice", password="pw")
    first = play_computer(member, "novice", 1)
    play_computer(member, "pro", 1)
    with pytest.raises(ComputerError) as refused:
        play_computer(member, "club", 1)
    assert refused.value.code == "too_many_live"
    page = PageClient()
    page.force_login(member)
    response = page.post("/computer/", {"level": "club", "best_of": 1})
    assert response.status_code == 409
    assert "You already have 2 matches against the computer being played" in (
        response.content.decode()
    )
    with translation.override("ru"):
        russian = PageClient(HTTP_ACCEPT_LANGUAGE="ru")
        russian.force_login(member)
        text = russian.post("/computer/", {"level": "club", "best_of": 1}).content.decode()
    assert "У вас уже идут 2 матча с компьютером" in text
    # Another member is not held to Alice's.
    bob = get_user_model().objects.create_user("bob", password="pw")
    assert play_computer(bob, "club", 1).player_a == bob
    Match.objects.filter(pk=first.pk).update(status=Match.Status.ABANDONED)
    assert play_computer(member, "club", 1).player_a == member
    settings.COMPUTER = {**settings.COMPUTER, "LIVE": 3}
    assert play_computer(member, "club", 1).player_a == member
