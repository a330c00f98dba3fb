"""The drills' pure rules (rules/drills.py, docs/coach.md "Drills")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import drills, referee, setup
from rules.drills import DRILLS, Rule, step
from rules.referee import Ruling
from rules.state import Shot
from rules.table import BAULK_Y, SPOTS, WHITE

CUE = (100.0, BAULK_Y - 100.0)  # in the D, clear of the brown


@pytest.mark.parametrize("drill", DRILLS, ids=lambda d: d.key)
def test_every_start_is_a_position_the_referee_plays(drill: drills.Drill) -> None:
    setup.check(drill.start)
    assert drill.start.in_hand and drill.start.striker == "A" and drill.start.scores == (0, 0)


def test_the_drills_and_their_balls() -> None:
    assert drills.KEYS == ("line_up", "t", "colours", "long_pots", "cluster")
    line_up = drills.BY_KEY["line_up"].start
    assert len(line_up.reds) == 15
    assert all(p[0] == 0.0 for b, p in line_up.balls if b in line_up.reds)
    assert len(drills.BY_KEY["t"].start.reds) == 15
    colours = drills.BY_KEY["colours"].start
    assert colours.reds == () and colours.on == "yellow" and len(colours.colours) == 6
    assert drills.BY_KEY["long_pots"].start.ball_map() == {"red1": SPOTS["blue"]}
    assert len(drills.BY_KEY["cluster"].start.reds) == 6


def test_a_long_pot_scores_one_and_respots_the_ball_and_the_cue_ball() -> None:
    drill = drills.BY_KEY["long_pots"]
    shot = Shot(first_contact=("red1",), potted=("red1",), cue_ball=CUE,
                after=((WHITE, (100.0, 300.0)),))  # fmt: skip
    after, ruling = referee.strike(drill.start, "A", shot)
    assert ruling.points == 1 and after.frame_over  # the referee's frame: the table cleared
    first = step(drill, 0, after, ruling)
    assert first.goes_on and first.score == 1
    assert first.next.ball_map() == {"red1": SPOTS["blue"]} and first.next.in_hand
    setup.check(first.next)
    after, ruling = referee.strike(first.next, "A", shot)
    second = step(drill, first.score, after, ruling)
    assert second.goes_on and second.score == 2


def test_a_long_pot_missed_ends_the_run_at_its_score() -> None:
    drill = drills.BY_KEY["long_pots"]
    shot = Shot(first_contact=("red1",), cue_ball=CUE, after=((WHITE, (100.0, 300.0)),))
    after, ruling = referee.strike(drill.start, "A", shot)
    ended = step(drill, 7, after, ruling)
    assert not ended.goes_on and ended.score == 7 and ended.next == drill.start


def test_the_colours_in_order_and_a_wrong_colour_ends_the_run() -> None:
    drill = drills.BY_KEY["colours"]
    yellow = Shot(first_contact=("yellow",), potted=("yellow",), cue_ball=CUE,
                  after=((WHITE, (0.0, -600.0)),))  # fmt: skip
    after, ruling = referee.strike(drill.start, "A", yellow)
    run = step(drill, 0, after, ruling)
    assert run.goes_on and run.score == 2 and run.next.on == "green"
    wrong = Shot(first_contact=("blue",), potted=("blue",), after=((WHITE, (0.0, -300.0)),))
    after, ruling = referee.strike(run.next, "A", wrong)
    assert ruling.foul
    ended = step(drill, run.score, after, ruling)
    assert not ended.goes_on and ended.score == 2


def test_a_break_drill_keeps_the_referee_table_with_the_colour_respotted() -> None:
    drill = drills.BY_KEY["line_up"]
    red = Shot(first_contact=("red1",), potted=("red1",), cue_ball=CUE,
               after=((WHITE, (200.0, -200.0)),))  # fmt: skip
    after, ruling = referee.strike(drill.start, "A", red)
    run = step(drill, 0, after, ruling)
    assert run.goes_on and run.score == 1 and run.next == after
    black = Shot(first_contact=("black",), potted=("black",), nominated="black",
                 after=((WHITE, (200.0, 600.0)),))  # fmt: skip
    after, ruling = referee.strike(run.next, "A", black)
    run = step(drill, run.score, after, ruling)
    assert run.goes_on and run.score == 8 and run.next.ball_map()["black"] == SPOTS["black"]


rulings = st.builds(
    Ruling, foul=st.booleans(), points=st.integers(min_value=0, max_value=7),
    penalty=st.sampled_from([0, 4, 7]),
)  # fmt: skip


@given(drill=st.sampled_from(DRILLS), score=st.integers(min_value=0, max_value=200), ruling=rulings)
def test_a_run_never_loses_points_and_ends_at_a_foul_or_no_pot(
    drill: drills.Drill, score: int, ruling: Ruling
) -> None:
    after = drill.start.with_(in_hand=False, balls=(*drill.start.balls, (WHITE, CUE)))
    out = step(drill, score, after, ruling)
    assert out.score >= score
    if ruling.foul or ruling.points == 0:
        assert not out.goes_on and out.score == score and out.next == drill.start
    else:
        assert out.goes_on
        gained = 1 if drill.rule is Rule.RESPOT else ruling.points
        assert out.score == score + gained
        setup.check(out.next)
