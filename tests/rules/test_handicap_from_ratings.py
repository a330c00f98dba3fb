"""The handicap from play (rules/handicap.py, docs/handicaps.md): from two ratings to a start."""

from __future__ import annotations

import math
import re
from pathlib import Path
from statistics import NormalDist

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import handicap as h
from rules.ratings import NEW, Rating, rate_match
from rules.state import NO_START, start_refusal

ROOT = Path(__file__).resolve().parents[2]
CAP = 70  # SNOOKER_HANDICAP_CAP's default

ratings = st.builds(Rating, st.floats(800, 2600), st.floats(30, 350))


def test_equal_ratings_give_no_start() -> None:
    assert h.start_for(NEW, NEW, CAP) == NO_START
    assert h.start_for(Rating(1800, 40), Rating(1800, 300), CAP) == NO_START


def test_the_weaker_member_gets_the_start() -> None:
    strong, weak = Rating(1800, 50), Rating(1500, 50)
    assert h.start_for(strong, weak, CAP) == (0, 22)
    assert h.start_for(weak, strong, CAP) == (22, 0)


def test_the_three_steps_of_the_model() -> None:
    """300 rating points, both settled (RD 50): Glicko expects the stronger to win 84 % of
    rated matches; a best of 3 won 84 % of the time is 75 % a frame; a normal margin with an
    SD of 33 points won 75 % of the time has a mean of 22 points: the start."""
    e = h.expected_score(Rating(1800, 50), Rating(1500, 50))
    assert e == pytest.approx(0.844, abs=0.001)
    p = h.frame_chance(e)
    assert p * p * (3 - 2 * p) == pytest.approx(e, abs=1e-9)  # best of 3: win 2 before 2
    assert p == pytest.approx(0.750, abs=0.001)
    assert h.points_edge(p) == pytest.approx(h.MARGIN_SD * NormalDist().inv_cdf(p))
    assert round(h.points_edge(p)) == 22


def test_match_chance_by_format() -> None:
    assert h.match_chance(0.6, 1) == pytest.approx(0.6)
    assert h.match_chance(0.6, 3) == pytest.approx(0.6**2 * (3 - 2 * 0.6))
    assert h.match_chance(0.5, 7) == pytest.approx(0.5)
    assert h.frame_chance(0.5) == pytest.approx(0.5)
    assert h.frame_chance(0.9, best_of=1) == pytest.approx(0.9)


def test_the_cap() -> None:
    strong, weak = Rating(2600, 30), Rating(900, 30)
    assert h.start_for(strong, weak, CAP) == (0, CAP)
    assert h.start_for(strong, weak, 40) == (0, 40)
    assert h.start_for(strong, weak, 0) == NO_START
    with pytest.raises(ValueError):
        h.start_for(strong, weak, -1)


def test_an_uncertain_rating_gives_a_smaller_start() -> None:
    weak = Rating(1500, 50)
    settled = h.start_for(Rating(1800, 50), weak, CAP)[1]
    newcomer = h.start_for(Rating(1800, 350), weak, CAP)[1]
    assert 0 < newcomer < settled


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, st.integers(0, 147))
def test_a_start_is_one_member_s_and_within_the_cap(a: Rating, b: Rating, cap: int) -> None:
    start = h.start_for(a, b, cap)
    assert start_refusal(start) is None and max(start) <= cap
    assert h.start_for(b, a, cap) == (start[1], start[0])  # the same pair either way round
    if a.rating > b.rating:
        assert start[0] == 0  # the stronger never gets one


@settings(max_examples=200, deadline=None)
@given(ratings, st.floats(0, 800), st.floats(0, 800))
def test_a_wider_gap_never_gives_a_smaller_start(weak: Rating, d1: float, d2: float) -> None:
    near, far = sorted((d1, d2))
    rd = weak.rd
    small = h.start_for(Rating(weak.rating + near, rd), weak, 147)[1]
    large = h.start_for(Rating(weak.rating + far, rd), weak, 147)[1]
    assert small <= large


def test_after_rated_matches_the_winner_gives_a_start() -> None:
    """Ratings as the club makes them: the member who won three rated matches in a row gives
    the other a start; the more they won, the larger."""
    a, b = NEW, NEW
    starts = []
    for _ in range(3):
        a, b = rate_match(a, b, 1.0)
        starts.append(h.start_for(a, b, CAP)[1])
    assert starts == sorted(starts) and starts[0] > 0
    assert h.start_for(a, b, CAP)[0] == 0


def test_the_docs_give_the_constants_the_code_uses() -> None:
    text = (ROOT / "docs" / "handicaps.md").read_text(encoding="utf-8")
    said = dict(re.findall(r"`(MARGIN_SD|RATED_BEST_OF)` \(([\d.]+)\)", text))
    assert said == {"MARGIN_SD": f"{h.MARGIN_SD:g}", "RATED_BEST_OF": str(h.RATED_BEST_OF)}
    assert math.isfinite(h.MARGIN_SD) and h.MARGIN_SD > 0
