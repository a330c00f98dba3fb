"""No-shows (issue 19): a friendly the two players have not started within the club's wait is
abandoned (club/noshows.py): no result, unrated, no figures, gone from the lobby, both players
told; a ladder match is left to its play-by window; each match once, whoever gets there first.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.test import Client as HttpClient
from django.utils import timezone

from club import jobs, lobby, noshows, service
from club.models import Challenge
from game import presence as game_presence
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from members.models import MatchFigures
from rules.challenges import Format, Kind, Status
from tests.club.helpers import LobbyClient
from tests.game.helpers import Client
from tests.ladder.test_ladder_concurrency import at_once

WAIT = timedelta(minutes=10)


def _friendly(members) -> Match:  # type: ignore[no-untyped-def]
    """Bob accepts Alice's challenge: a friendly nobody has come to yet."""
    alice, bob, _ = members
    made = service.challenge(alice, bob, Format(3))
    assert made.challenge is not None
    done = service.accept(bob, made.challenge.pk)
    assert done.match is not None
    return done.match


def _status(match: Match) -> str:
    return Match.objects.get(pk=match.pk).status


@pytest.mark.django_db
def test_a_friendly_not_started_in_time_is_abandoned_once(members) -> None:
    match = _friendly(members)
    # Bob glanced at the table and left; Alice never came.
    game_presence.connect(match.pk, "bob-1", "B")
    game_presence.disconnect(match.pk, "bob-1", "B")
    assert noshows.abandon_due(match.created + WAIT - timedelta(seconds=1)) == []
    assert _status(match) == Match.Status.LIVE
    done = noshows.abandon_due(match.created + WAIT)
    assert [gone.match for gone in done] == [match.pk]
    assert done[0].names == {"A": "alice", "B": "bob"}
    assert done[0].presence.abandoned
    row = Match.objects.get(pk=match.pk)
    assert row.status == Match.Status.ABANDONED and row.deadline is None
    assert noshows.abandon_due(match.created + WAIT * 2) == []  # once
    # Nothing is played, claimed or started at an abandoned table, and nothing is recorded.
    stroke = client_in.Concede(type="concede", client_id="late", scope="match")
    with pytest.raises(game_service.ServiceError) as refused:
        game_service.submit(match.pk, members[0], stroke)
    assert refused.value.code == "abandoned"
    game_presence.connect(match.pk, "alice-1", "A")
    game_presence.connect(match.pk, "bob-2", "B")
    assert Match.objects.get(pk=match.pk).started is None
    assert not MatchFigures.objects.filter(match_id=match.pk).exists()
    # The lobby: not among the live matches; a row told of it says abandoned.
    assert match.pk not in [m.pk for m in lobby.live_matches()]
    assert [r.status for r in lobby.update([match.pk], []).matches] == ["abandoned"]


@pytest.mark.django_db
def test_a_started_match_and_a_ladder_match_are_not_abandoned(members) -> None:
    alice, _, carol = members
    played = _friendly(members)
    game_presence.connect(played.pk, "alice-1", "A")
    game_presence.connect(played.pk, "bob-1", "B")  # both here: started
    ladder = game_service.create_match(alice, carol, 1, draw="A", rated=True)
    now = timezone.now()
    Challenge.objects.create(
        kind=Kind.LADDER, challenger=carol, target=alice, best_of=1, rated=True,
        status=Status.ACCEPTED, created=now, expires=now, answered=now, match=ladder,
    )  # fmt: skip
    practice = service.practise(alice, 1)
    # The two are still at the table (their process's heartbeat): a started match they are
    # at is played, or claimed for stalling, never abandoned (test_stalling.py).
    game_presence.beat(["alice-1", "bob-1"], now + WAIT * 10)
    assert noshows.abandon_due(now + WAIT * 10) == []
    for match in (played, ladder, practice):
        assert _status(match) == Match.Status.LIVE


@pytest.mark.django_db
def test_an_arrival_or_another_process_first_wins(members, monkeypatch) -> None:
    """The write is conditional: a match started (or abandoned by another process) between
    the pass's read and its write is left as it is."""
    first, second = _friendly(members), _friendly_again(members)
    real = noshows.abandoned
    later = second.created + WAIT

    def meanwhile(started, created, is_ladder, wait, now):  # type: ignore[no-untyped-def]
        if not calls:
            calls.append(1)
            # Both players come to the first table just now; another process's pass
            # abandons the second before this one writes it.
            Match.objects.filter(pk=first.pk).update(started=now)
            assert [g.match for g in noshows.abandon_due(later)] == [second.pk]
        return real(started, created, is_ladder, wait, now)

    calls: list[int] = []
    monkeypatch.setattr(noshows, "abandoned", meanwhile)
    assert noshows.abandon_due(later) == []  # nothing left for this pass to write
    assert _status(first) == Match.Status.LIVE
    assert _status(second) == Match.Status.ABANDONED


def _friendly_again(members) -> Match:  # type: ignore[no-untyped-def]
    alice, _, carol = members
    made = service.challenge(carol, alice, Format(1))
    assert made.challenge is not None
    done = service.accept(alice, made.challenge.pk)
    assert done.match is not None
    return done.match


@pytest.mark.django_db
def test_the_pages_and_records_treat_an_abandoned_match_sensibly(members) -> None:
    match = _friendly(members)
    noshows.abandon_due(match.created + WAIT)
    browser = HttpClient()
    browser.force_login(members[0])
    page = browser.get(f"/match/{match.pk}/")
    assert page.status_code == 200
    assert b'data-testid="abandoned"' in page.content
    ru = browser.get(f"/match/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Отменён, не начавшись" in ru.content.decode()
    assert browser.get("/players/alice/").status_code == 200
    assert browser.get(f"/match/{match.pk}/replay/").status_code == 404
    assert browser.get("/").status_code == 200
    out = StringIO()
    call_command("record_figures", stdout=out)
    assert not MatchFigures.objects.filter(match_id=match.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_the_command_for_cron(members) -> None:
    """Outside a transaction, as cron runs it: the command's database work goes through
    channels' `database_sync_to_async` (under `async_to_sync`, so back on this thread), which
    closes the thread's connection around each call when it is not in autocommit, as a test's
    transaction would have it; the real closing is what runs here."""
    match = _friendly(members)
    out = StringIO()
    call_command("abandon_no_shows", "--now", match.created.isoformat(), stdout=out)
    assert out.getvalue().startswith("abandoned 0 match(es)")
    call_command("abandon_no_shows", "--now", (match.created + WAIT).isoformat(), stdout=out)
    assert "abandoned 1 match(es)" in out.getvalue()
    assert _status(match) == Match.Status.ABANDONED


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_clients")
async def test_both_players_are_told_and_the_lobby_drops_it(members, settings) -> None:
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0.1}
    alice, bob, _ = members
    match = await database_sync_to_async(_friendly)(members)
    notices = [LobbyClient(alice, lobby=False), LobbyClient(bob, lobby=False)]
    for socket in notices:
        await socket.open()
    watcher = LobbyClient(address="10.8.0.1")
    welcome = await watcher.open()
    assert match.pk in [m["id"] for m in welcome["matches"]]
    table = Client(match.pk, bob)  # Bob waits at the table; Alice never comes
    await table.open()
    waiting = await table.expect("presence")
    assert waiting["started"] is None and not waiting["abandoned"]
    done = await jobs.abandon_no_shows(match.created + WAIT)
    assert [gone.match for gone in done] == [match.pk]
    for socket in notices:
        told = await socket.expect("abandoned")
        assert told["match"] == match.pk and told["players"] == {"A": "alice", "B": "bob"}
    presence = await table.expect("presence")
    while not presence["abandoned"]:
        presence = await table.expect("presence")
    row = None
    while row is None or row["status"] != "abandoned":
        update = await watcher.expect("update", timeout=10)
        row = next((m for m in update["matches"] if m["id"] == match.pk), None)
    await table.stroke()
    assert (await table.expect("error"))["code"] == "abandoned"


@pytest.mark.django_db(transaction=True)
def test_two_passes_at_once_abandon_a_match_once(members) -> None:
    """Two processes' passes (two threads, two connections): both finish, one abandons."""
    match = _friendly(members)
    later = match.created + WAIT
    results = at_once(lambda: noshows.abandon_due(later), lambda: noshows.abandon_due(later))
    assert all(isinstance(r, list) for r in results), results
    assert sorted(len(r) for r in results) == [0, 1]
    assert _status(match) == Match.Status.ABANDONED


@pytest.mark.django_db(transaction=True)
def test_an_arrival_racing_the_pass_either_starts_or_finds_it_abandoned(members, settings) -> None:
    # Nobody beats these sockets: a stall time past the pass's `later` keeps a started match
    # from being judged deserted (test_stalling.py), so only the arrival's race is tried here.
    settings.SNOOKER = {**settings.SNOOKER, "STALL": 3600.0}
    match = _friendly(members)
    game_presence.connect(match.pk, "alice-1", "A")
    later = match.created + WAIT

    def bob_comes() -> object:
        return game_presence.connect(match.pk, "bob-1", "B")

    results = at_once(lambda: noshows.abandon_due(later), bob_comes)
    row = Match.objects.get(pk=match.pk)
    # Never both: an abandoned match is not started, a started one is not abandoned.
    if row.status == Match.Status.ABANDONED:
        assert row.started is None and len(results[0]) == 1
    else:
        assert row.status == Match.Status.LIVE and row.started is not None
        assert results[0] == []


@pytest.mark.django_db(transaction=True)
async def test_the_job_runs_at_once_and_then_every_interval(settings, set_clock) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "NO_SHOW_EVERY": 0.05}
    jobs.NO_SHOWS.passes = 0
    jobs.NO_SHOWS.start()
    first = jobs.NO_SHOWS.task
    jobs.NO_SHOWS.start()  # once per loop
    assert first is not None and jobs.NO_SHOWS.task is first
    try:
        await set_clock.until_asleep(first)
        assert jobs.NO_SHOWS.passes == 1  # at once
        await set_clock.advance(0.04)
        assert jobs.NO_SHOWS.passes == 1
        await set_clock.advance(0.02)
        assert jobs.NO_SHOWS.passes == 2  # then every interval
        await set_clock.advance(0.06)
        assert jobs.NO_SHOWS.passes == 3
    finally:
        jobs.NO_SHOWS.stop()
    settings.SNOOKER = {**settings.SNOOKER, "NO_SHOW_EVERY": 0}
    jobs.NO_SHOWS.start()  # switched off: cron alone
    assert jobs.NO_SHOWS.task is None
