"""Drills at a practice table (club/drills.py, docs/coach.md "Drills"): a run kept stroke by
stroke through the game service, each table rebuilding from its events, the member's best and
history and the club's best on /practice/drills/ at a fixed number of queries."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club import drills
from club.models import DrillRun
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from rules.drills import BY_KEY
from rules.match import match_from_json
from rules.table import BAULK_Y
from tests.queries import same_cost

pytestmark = pytest.mark.django_db(transaction=True)

# From here, at this pace, the red on the blue spot goes into the top left pocket (found with
# the physics); a quarter of a radian wider it is only hit.
CUE = (150.0, BAULK_Y - 150.0)
POT = 1.6765102816617037
WIDE = POT + 0.3


def _strike(table: Match, angle: float, client_id: str) -> None:
    table.refresh_from_db()
    stroke = client_in.Stroke(
        type="stroke", client_id=client_id, version=table.version, angle=angle, speed=2.0,
        cue_ball=CUE,
    )  # fmt: skip
    game_service.submit(table.pk, table.player_a, stroke)


def test_a_long_pots_run_moves_table_each_pot_and_keeps_its_score_and_best(members) -> None:
    alice = members[0]
    first = drills.start(alice, "long_pots")
    assert match_from_json(first.state).frame == BY_KEY["long_pots"].start
    _strike(first, POT, "p1")
    run = DrillRun.objects.get(member=alice)
    assert run.score == 1 and run.ended is None and run.match_id != first.pk
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED  # the pot ended its table
    second = Match.objects.get(pk=run.match_id)
    web = Client()
    web.force_login(alice)
    panel = web.get(reverse("match_end", args=[first.pk])).content.decode()
    assert 'data-testid="end-drill-next"' in panel and f"/match/{second.pk}/" in panel
    # The red back on the blue spot, the cue ball in hand; the scoreboard shows the run.
    frame = match_from_json(second.state).frame
    assert frame.ball_map() == {"red1": (0.0, 0.0)} and frame.in_hand and frame.scores == (1, 0)
    _strike(second, POT, "p2")
    run.refresh_from_db()
    third = Match.objects.get(pk=run.match_id)
    _strike(third, WIDE, "p3")
    run.refresh_from_db()
    assert run.score == 2 and run.ended is not None
    third.refresh_from_db()
    assert third.status == Match.Status.FINISHED  # the run over: the table conceded
    for table in (first, second, third):  # every table rebuilds from its own events
        table.refresh_from_db()
        assert game_service.rebuild(table.pk) == match_from_json(table.state)

    again = drills.start(alice, "long_pots")
    _strike(again, WIDE, "q1")
    rows, recent, running = drills.page(alice)
    row = next(r for r in rows if r.key == "long_pots")
    assert (row.best, row.runs, row.club_best, row.club_holder) == (2, 2, 2, "alice")
    assert [r.score for r in recent] == [0, 2] and running is None
    profile = web.get(reverse("player", args=["alice"])).content.decode()
    assert 'data-testid="drill-bests"' in profile and "Long pots from baulk: <b>2</b>" in profile


def test_a_run_left_open_ends_when_the_next_starts_and_no_unknown_drill(members) -> None:
    alice = members[0]
    drills.start(alice, "colours")
    drills.start(alice, "t")
    runs = DrillRun.objects.filter(member=alice).order_by("started")
    assert [(r.drill, r.ended is None) for r in runs] == [("colours", False), ("t", True)]
    with pytest.raises(drills.ClubError) as err:
        drills.start(alice, "nine_ball")
    assert err.value.code == "no_such_drill"


def test_the_drills_page_shows_bests_and_runs_at_a_fixed_cost(members) -> None:
    alice, bob, _ = members
    web = Client()
    web.force_login(alice)
    address = reverse("drills")

    def load() -> None:
        page = web.get(address)
        assert page.status_code == 200

    def grow() -> None:
        for i, key in enumerate(("line_up", "t", "colours", "long_pots", "cluster")):
            for who, score in ((alice, 3 + i), (bob, 9 + i)):
                table = drills.start(who, key)
                DrillRun.objects.filter(match=table).update(score=score)

    same_cost(load, grow, most=8)
    text = web.get(address).content.decode()
    assert text.count('data-testid="drill-start"') == 5
    assert "Your best: 3" in text and "by bob" in text
    ru = Client(headers={"accept-language": "ru"})
    ru.force_login(alice)
    assert ru.get(address).status_code == 200
    started = web.post(reverse("drill_start", args=["cluster"]))
    assert started.status_code == 302
    assert web.post(reverse("drill_start", args=["nine_ball"])).status_code == 404


def test_clearing_the_colours_counts_the_break_at_one_table(members) -> None:
    alice = members[0]
    table = drills.start(alice, "colours")
    table.refresh_from_db()
    yellow = client_in.Stroke(
        type="stroke", client_id="y", version=table.version, angle=0.6327885718723107,
        speed=2.0, cue_ball=CUE,
    )  # fmt: skip
    game_service.submit(table.pk, alice, yellow)  # the yellow potted (found with the physics)
    run = DrillRun.objects.get(member=alice)
    table.refresh_from_db()
    assert run.score == 2 and run.ended is None and run.match_id == table.pk
    assert match_from_json(table.state).frame.on == "green"
    soft = client_in.Stroke(
        type="stroke", client_id="s", version=table.version, angle=-1.0, speed=0.3
    )
    game_service.submit(table.pk, alice, soft)  # pots nothing: the run is over
    run.refresh_from_db()
    table.refresh_from_db()
    assert run.score == 2 and run.ended is not None
    assert table.status == Match.Status.FINISHED
    assert game_service.rebuild(table.pk) == match_from_json(table.state)
