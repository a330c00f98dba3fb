"""The coach's analysis (rules/opponent/analysis.py, docs/coach.md): a stroke that threw an
easy pot away is marked, the computer's own stroke is not, a choice that gives the table away
is marked, and the same frame and seed give the same analysis."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace

import pytest

from rules import match as m
from rules.commands import Choose, Stroke
from rules.opponent import NOVICE, PRO
from rules.opponent.analysis import (
    BLUNDER,
    Mark,
    Reason,
    agrees,
    analyse_frame,
    analyse_stroke,
    first_ball,
    mark_of,
)
from rules.opponent.player import SIMS, plan
from rules.opponent.search import Budget
from rules.opponent.selfplay import Step, play_match
from rules.state import FrameState, Pending, make_balls
from rules.table import BALL_RADIUS, SPOTS, WHITE

# The blue on its spot, the cue ball straight behind it: into the middle pocket, a pot the
# Pro makes nearly always.
EASY_BLUE = {WHITE: (-250.0, 0.0), "blue": SPOTS["blue"], "pink": SPOTS["pink"],
             "black": SPOTS["black"]}  # fmt: skip


def easy_blue() -> m.Match:
    frame = FrameState(balls=make_balls(EASY_BLUE), striker="A", scores=(40, 40), on="blue")
    return m.Match(1, "A", frame)


def test_marks_follow_the_thresholds() -> None:
    assert mark_of(0.0) is None and mark_of(1.9) is None
    assert mark_of(2.0) is Mark.INACCURACY and mark_of(4.0) is Mark.MISTAKE
    assert mark_of(BLUNDER) is Mark.BLUNDER and mark_of(30.0) is Mark.BLUNDER


def test_the_first_ball_and_the_cut_come_from_the_geometry() -> None:
    frame = easy_blue().frame
    distance, cut = first_ball(frame, Stroke(0.0, 2.0))  # straight at the blue
    assert distance == 250.0 - 2 * BALL_RADIUS and cut == 0.0
    # Aimed half a ball to the side: a half-ball contact, a 30° cut.
    aside = math.atan2(BALL_RADIUS, 250.0)
    _, half = first_ball(frame, Stroke(aside, 2.0))
    assert math.degrees(half) == pytest.approx(30.0, abs=1.0)
    assert first_ball(frame, Stroke(math.pi, 2.0)) == (1500.0, 0.0)  # at nothing


def test_an_easy_pot_left_short_is_marked() -> None:
    """Straight at the blue, far too soft to reach the pocket: no foul, no pot, and the
    opponent is left the blue."""
    analysed = analyse_stroke(easy_blue(), "A", Stroke(0.0, 0.7), 0, "easy")
    assert analysed.lost >= BLUNDER and analysed.mark is Mark.BLUNDER
    assert analysed.reason is Reason.EASY_POT and not analysed.agrees
    assert analysed.best is not None and analysed.best_kind == "pot"
    assert analysed.best_value > analysed.played_value and analysed.accuracy < 50
    assert 0.5 < analysed.chance < 0.9  # level, the blue left, at the table


def test_a_foul_from_an_open_table_is_avoidable() -> None:
    analysed = analyse_stroke(easy_blue(), "A", Stroke(math.pi, 1.0), 0, "foul")
    assert analysed.mark is Mark.BLUNDER and analysed.reason is Reason.AVOIDABLE_FOUL


def test_the_computers_own_stroke_loses_nothing() -> None:
    match = easy_blue()
    seed = "own"
    own = plan(match.frame, "A", PRO, random.Random(f"{seed}:search"), Budget(SIMS["pro"]))
    analysed = analyse_stroke(match, "A", own.stroke, 0, seed)
    assert analysed.lost == 0.0 and analysed.mark is None and analysed.reason is None
    assert analysed.best == own.stroke and analysed.accuracy == pytest.approx(100.0, abs=0.01)
    assert analysed.agrees


def test_a_choice_that_gives_the_table_away_is_marked() -> None:
    """After A's foul B may play an easy red: putting A back in gives the chance away."""
    balls = {WHITE: (300.0, 1205.0), "red1": (600.0, 1500.0), "black": SPOTS["black"]}
    frame = FrameState(
        balls=make_balls(balls), striker="B", scores=(20, 24),
        pending=Pending("B", ("play", "put_back"), "A", None),
    )  # fmt: skip
    analysed = analyse_stroke(m.Match(1, "A", frame), "B", Choose("put_back"), 3, "choice")
    assert analysed.choice and analysed.best_kind == "play"
    assert analysed.played_option == "put_back" and analysed.mark is not None
    assert analysed.reason is Reason.CHOICE
    same = analyse_stroke(m.Match(1, "A", frame), "B", Choose("play"), 3, "choice")
    assert same.lost == 0.0 and same.mark is None


def test_a_frame_is_analysed_the_same_from_the_same_seed() -> None:
    """A short seeded frame of the Novice against itself, its first strokes analysed twice."""
    start = FrameState(balls=make_balls(EASY_BLUE), striker="A", scores=(40, 40), on="blue")
    steps: list[Step] = []
    play_match({"A": NOVICE, "B": NOVICE}, random.Random(5), start=start, max_strokes=12,
               on_step=steps.append)  # fmt: skip
    commands = [(s.seat, s.command) for s in steps]

    def analysed() -> list[object]:
        found = analyse_frame(m.Match(1, "A", start), commands, 1, "seeded")
        return list(itertools.islice(found, 3))

    first = analysed()
    assert len(first) == 3 and first == analysed()


def test_a_stroke_agrees_with_the_pros_within_what_a_hand_sets_apart() -> None:
    best = Stroke(1.0, 2.0, 0.1, -0.3, None, (150.0, -1150.0))
    assert agrees(best, best)
    assert agrees(replace(best, angle=1.004, speed=2.1, cue_ball=(160.0, -1150.0)), best)
    assert not agrees(replace(best, angle=1.01), best)
    assert not agrees(replace(best, speed=2.5), best)
    assert not agrees(replace(best, height=0.0), best)
    assert not agrees(replace(best, cue_ball=(150.0, -1100.0)), best)
    assert not agrees(replace(best, cue_ball=None), best)
    # Angles a turn apart are the same aim.
    assert agrees(replace(best, angle=1.0 + 2 * math.pi), best)
