"""Nothing of the computer's grows without bound (issue 42): a match against it nobody touches
for an hour is abandoned with no result (club/jobs.py, IDLE_COMPUTER), the resume pass reads
only the matches whose turn is the computer's, in batches, off channels' shared database
thread (computer/driver.py), and the lobby counts those matches instead of listing them."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client as PageClient

from club import jobs, lobby
from club import process as club_process
from computer import driver
from computer.service import play_computer
from game import service as game_service
from game.models import Match
from members.models import MatchFigures
from tests.club.helpers import LobbyClient
from tests.computer.test_computer import seats

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]

HOUR = timedelta(hours=1)


def _waits_for(match: Match, seat: str, pending: bool = False, over: bool = False) -> None:
    """Store `match` with its frame waiting for `seat`: to strike, or (pending) to choose
    after the other's foul; `over`: the frame is over."""
    row = Match.objects.get(pk=match.pk)
    frame = dict(row.state["frame"])
    other = "A" if seat == "B" else "B"
    frame["striker"] = other if pending else seat
    frame["pending"] = (
        {"holder": seat, "options": ["play", "put_back"], "offender": other, "restore": None}
        if pending
        else None
    )
    frame["frame_over"] = over
    Match.objects.filter(pk=match.pk).update(state={**row.state, "frame": frame})


def _member(name: str) -> Any:
    return get_user_model().objects.create_user(name, password="pw")


def test_the_resume_pass_reads_only_the_computers_turns() -> None:
    seats()
    alice, bob, carol, dan = (_member(n) for n in ("alice", "bob", "carol", "dan"))
    strikes = play_computer(alice, "novice", 1)
    _waits_for(strikes, "B")
    chooses = play_computer(bob, "club", 1)
    _waits_for(chooses, "B", pending=True)
    members_turn = play_computer(carol, "pro", 1)  # carol breaks: her turn
    members_choice = play_computer(dan, "pro", 1)
    _waits_for(members_choice, "A", pending=True)  # the computer fouled: dan chooses
    between_frames = play_computer(dan, "novice", 1)
    _waits_for(between_frames, "B", over=True)
    ended = play_computer(carol, "novice", 1)
    _waits_for(ended, "B")
    Match.objects.filter(pk=ended.pk).update(status=Match.Status.ABANDONED)
    friendly = game_service.create_match(alice, bob, 1, draw="B")  # nobody's computer
    assert friendly.pk and members_turn.pk
    assert driver._waiting(0, 100) == [strikes.pk, chooses.pk]
    assert driver._waiting(strikes.pk, 100) == [chooses.pk]
    assert driver._waiting(0, 1) == [strikes.pk]


async def test_the_resume_pass_reads_in_batches_on_a_thread_of_its_own(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Each batch is one read; on a server's database (not SQLite's shared in-memory test
    database, where a second thread is refused) never on channels' shared thread."""
    settings.COMPUTER = {**settings.COMPUTER, "RESUME_BATCH": 2}

    def made() -> list[int]:
        seats()
        ids = []
        for name in ("alice", "bob", "carol", "dan", "erin"):
            match = play_computer(_member(name), "novice", 1)
            _waits_for(match, "B")
            ids.append(match.pk)
        return ids

    ids = await database_sync_to_async(made)()
    reads: list[tuple[int, str]] = []
    real = driver._waiting

    def recorded(after: int, batch: int) -> list[int]:
        reads.append((after, threading.current_thread().name))
        return real(after, batch)

    driven: list[int] = []

    async def drive(match_id: int) -> None:
        driven.append(match_id)

    monkeypatch.setattr(driver, "_waiting", recorded)
    monkeypatch.setattr(driver, "drive", drive)
    tasks = await driver.resume()
    for task in tasks:
        await task
    assert sorted(driven) == ids
    assert [after for after, _ in reads] == [0, ids[1], ids[3]]  # 2, 2, then the last 1
    in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
    if not in_memory:
        assert all(name.startswith("computer-resume") for _, name in reads), reads


async def test_a_match_nobody_touches_for_an_hour_is_abandoned_with_no_result(
    settings: Any,
) -> None:
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0.1}

    def made() -> tuple[Any, Match, Match, Match]:
        seats()
        alice, bob = _member("alice"), _member("bob")
        idle = play_computer(alice, "novice", 1)
        played = play_computer(alice, "pro", 1)
        friendly = game_service.create_match(alice, bob, 1, draw="A")
        Match.objects.filter(pk=friendly.pk).update(started=friendly.created)
        return alice, idle, played, friendly

    alice, idle, played, friendly = await database_sync_to_async(made)()
    # The second was played half an hour in (every event sets turn_began).
    touched = played.created + HOUR / 2
    await database_sync_to_async(Match.objects.filter(pk=played.pk).update)(turn_began=touched)
    notices = LobbyClient(alice, lobby=False)
    await notices.open()
    watcher = LobbyClient(address="10.8.0.1")
    assert (await watcher.open())["computer_live"] == 2
    assert await jobs.abandon_idle_computer(idle.created + HOUR - timedelta(seconds=1)) == []
    done = await jobs.abandon_idle_computer(idle.created + HOUR + timedelta(seconds=1))
    assert [gone.match for gone in done] == [idle.pk]
    told = await notices.expect("abandoned")
    assert told["match"] == idle.pk and told["started"]
    # The count rides on the lobby's next update (club/process.py sends one only when a row
    # changed): here the friendly's.
    club_process.LOBBY.note(matches=(friendly.pk,))
    update = await watcher.rows()  # past those saying only who is online
    while update["computer_live"] != 1:
        update = await watcher.rows()
    assert [m["id"] for m in update["matches"]] == [friendly.pk]  # counted, never listed

    def statuses() -> dict[int, str]:
        rows = Match.objects.filter(pk__in=[idle.pk, played.pk, friendly.pk])
        return dict(rows.values_list("pk", "status"))

    assert await database_sync_to_async(statuses)() == {
        idle.pk: "abandoned",
        played.pk: "live",
        friendly.pk: "live",
    }
    # No result: no winner, nothing counted.
    row = await database_sync_to_async(Match.objects.get)(pk=idle.pk)
    assert row.state["winner"] is None
    assert not await database_sync_to_async(MatchFigures.objects.filter(match=idle.pk).exists)()
    # The played one goes an hour after its last event; the friendly is never the job's.
    later = touched + HOUR + timedelta(seconds=1)
    assert [g.match for g in await jobs.abandon_idle_computer(later)] == [played.pk]
    assert await database_sync_to_async(statuses)() == {
        idle.pk: "abandoned",
        played.pk: "abandoned",
        friendly.pk: "live",
    }


def test_the_lobby_counts_matches_against_the_computer_apart() -> None:
    from django.utils import translation

    seats()
    alice, bob, carol = _member("alice"), _member("bob"), _member("carol")
    mine = play_computer(alice, "novice", 1)
    play_computer(bob, "pro", 1)
    friendly = game_service.create_match(bob, carol, 1, draw="A")
    welcome = lobby.welcome(alice, lobby=True)
    assert [m.id for m in welcome.matches] == [friendly.pk]
    assert welcome.computer_live == 2
    # Her own is among her matches, marked, and the page keeps it out of the live list.
    assert [(m.id, m.computer) for m in welcome.my_matches] == [(mine.pk, True)]
    assert lobby.welcome(alice, lobby=False).computer_live == 0  # a notices socket
    update = lobby.update([mine.pk, friendly.pk], [])
    assert [m.id for m in update.matches] == [friendly.pk] and update.computer_live == 2
    page = PageClient()
    text = page.get("/").content.decode()
    assert "Matches against the computer now: 2" in text
    assert f"/match/{mine.pk}/" not in text
    with translation.override("ru"):
        russian = PageClient(HTTP_ACCEPT_LANGUAGE="ru").get("/").content.decode()
    assert "Матчей с компьютером сейчас: 2" in russian


def test_the_driver_forgets_the_matches_it_knows_past_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Which matches have a computer seat is kept per process, but never more than
    KNOWN_KEPT of them: past it, all are forgotten, and each is read again at its next move."""
    monkeypatch.setattr(driver, "KNOWN_KEPT", 3)
    for match_id in (1, 2, 3):
        driver._know(match_id, False)
    driver._know(3, True)  # known already: nothing forgotten
    assert driver._KNOWN == {1: False, 2: False, 3: True}
    driver._know(4, False)
    assert driver._KNOWN == {4: False}
