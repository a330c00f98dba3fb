"""The coach's analysis stored (computer/analysis.py, docs/coach.md): asked for by a player of
a finished match or an organiser, never of a live match; queued once for every viewer; run
stroke by stroke in the pool's background lane, each stroke stored as it is done."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from computer import analysis, driver
from computer.models import Analysis
from fixtures.models import Fixture
from game import service
from game.protocol import client_in
from tests.game.helpers import started

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def thinking_in_a_thread():  # type: ignore[no-untyped-def]
    driver.use_pool(ThreadPoolExecutor(max_workers=1))
    yield
    driver.use_pool(None)


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    return users.create_user("alice", password="pw"), users.create_user("bob", password="pw")


def _finished(players):  # type: ignore[no-untyped-def]
    """A best of one: Alice breaks off, Bob plays a stroke and concedes the match."""
    match = started(service.create_match(players[0], players[1], best_of=1, draw="A"))
    service.submit(match.pk, players[0], client_in.Stroke(
        type="stroke", client_id="a1", version=1, angle=math.pi / 2, speed=8.0,
        cue_ball=(-150.0, -1150.0),
    ))  # fmt: skip
    service.submit(match.pk, players[1], client_in.Stroke(
        type="stroke", client_id="b0", version=2, angle=-math.pi / 2, speed=0.5,
    ))  # fmt: skip
    concede = client_in.Concede(type="concede", client_id="b1", scope="match")
    service.submit(match.pk, players[1], concede)
    return match


def test_only_a_player_or_an_organiser_asks_and_only_once_the_match_is_over(players) -> None:  # type: ignore[no-untyped-def]
    live = started(service.create_match(players[0], players[1], best_of=3, draw="A"))
    with pytest.raises(analysis.AnalysisRefused) as refused:
        analysis.request(players[0], live.pk, 1)
    assert refused.value.code == "match_live"
    match = _finished(players)
    stranger = get_user_model().objects.create_user("carol", password="pw")
    with pytest.raises(analysis.AnalysisRefused) as refused:
        analysis.request(stranger, match.pk, 1)
    assert refused.value.code == "not_a_player"
    with pytest.raises(analysis.AnalysisRefused) as refused:
        analysis.request(players[0], match.pk, 2)
    assert refused.value.code == "bad_frame"
    asked = analysis.request(players[1], match.pk, 1)
    assert asked.status == Analysis.Status.QUEUED and asked.requested_by == players[1]
    organiser = get_user_model().objects.create_user("org", password="pw", is_staff=True)
    assert analysis.request(organiser, match.pk, 1).pk == asked.pk  # stored once
    assert Analysis.objects.count() == 1


async def test_a_queued_frame_is_analysed_stroke_by_stroke_and_stored(players) -> None:  # type: ignore[no-untyped-def]
    match = await database_sync_to_async(_finished)(players)
    asked = await database_sync_to_async(analysis.request)(players[0], match.pk, 1)
    assert await analysis.analyse_waiting() == 2  # the break-off and Bob's stroke
    done = await database_sync_to_async(Analysis.objects.get)(pk=asked.pk)
    assert done.status == Analysis.Status.DONE and done.finished is not None
    assert done.done == done.total == len(done.strokes) == 2
    assert [s["seat"] for s in done.strokes] == ["A", "B"]
    first = done.strokes[0]
    assert first["best"] is not None and first["lost"] >= 0.0
    assert set(first) >= {"index", "mark", "reason", "best_value", "played_value", "best_leave",
                          "chance", "accuracy"}  # fmt: skip
    figures = analysis.accuracy_of(done.strokes)
    assert set(figures) == {"A", "B"} and all(0 <= f <= 100 for f in figures.values())
    assert await analysis.analyse_waiting() == 0  # nothing left: never run twice


def test_the_analysis_is_asked_for_and_read_over_http(players) -> None:  # type: ignore[no-untyped-def]
    match = _finished(players)
    url = f"/computer/analysis/{match.pk}/1/"
    web = Client()
    assert web.get(url).json() == {
        "status": "none", "done": 0, "total": 0, "strokes": [], "accuracy": {}
    }  # fmt: skip
    assert web.post(url).status_code == 403  # a visitor never asks
    web.force_login(get_user_model().objects.create_user("carol", password="pw"))
    refused = web.post(url)
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    web.force_login(players[0])
    asked = web.post(url)
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    assert web.post(f"/computer/analysis/{match.pk}/2/").json()["code"] == "bad_frame"
    assert Client().get(url).json()["status"] == "queued"  # anyone reads it


async def test_a_members_profile_shows_their_accuracy_over_analysed_frames(players) -> None:  # type: ignore[no-untyped-def]
    match = await database_sync_to_async(_finished)(players)
    web = Client()
    page = await database_sync_to_async(lambda: web.get("/players/bob/").content.decode())()
    assert 'data-testid="coach-accuracy"' not in page  # nothing analysed yet
    await database_sync_to_async(analysis.request)(players[0], match.pk, 1)
    await analysis.analyse_waiting()
    found = await database_sync_to_async(analysis.average_accuracy)(players[1].pk)
    assert found is not None and found[1] == 1 and 0 <= found[0] <= 100
    page = await database_sync_to_async(lambda: web.get("/players/bob/").content.decode())()
    assert f"Accuracy {round(found[0])} on average, over 1 analysed frame." in page


def _league_match(players, settings, analyse: bool):  # type: ignore[no-untyped-def]
    """A ladder fixture's match, finished (the fixture already decided, so nothing but the
    analysis hears of it), with the club's setting as asked."""
    settings.COMPUTER = {**settings.COMPUTER, "ANALYSE_LEAGUE": analyse}
    match = started(service.create_match(players[0], players[1], best_of=1, draw="A"))
    Fixture.objects.create(kind="ladder", first=players[0], second=players[1], match=match,
                           status=Fixture.Status.DECIDED)  # fmt: skip
    concede = client_in.Concede(type="concede", client_id="a-c", scope="match")
    service.submit(match.pk, players[0], concede)
    return match


def test_a_league_match_is_analysed_when_the_club_says_so(players, settings) -> None:  # type: ignore[no-untyped-def]
    _league_match(players, settings, analyse=False)
    assert Analysis.objects.count() == 0
    match = _league_match(players, settings, analyse=True)
    queued = Analysis.objects.get()
    assert queued.match_id == match.pk and queued.frame == 1 and queued.requested_by is None
    # A friendly is not a league match.
    _finished(players)
    assert Analysis.objects.count() == 1
