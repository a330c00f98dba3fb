"""The frame-winning chance and accuracy (rules/opponent/chances.py, docs/coach.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.opponent.chances import frame_accuracy, frame_chance, stroke_accuracy

leads = st.integers(min_value=-147, max_value=147)
lefts = st.integers(min_value=0, max_value=147)


@given(leads, lefts)
def test_the_two_players_chances_make_one(lead: int, left: int) -> None:
    assert frame_chance(lead, left, True) + frame_chance(-lead, left, False) == pytest.approx(1.0)


@given(leads, lefts)
def test_more_lead_more_chance_and_the_table_is_worth_something(lead: int, left: int) -> None:
    assert frame_chance(lead + 1, left) >= frame_chance(lead, left)
    assert frame_chance(lead, left, True) >= frame_chance(lead, left, False)
    assert frame_chance(0, left, True) > 0.5 > frame_chance(0, left, False)


def test_a_lead_counts_for_more_as_the_balls_go() -> None:
    assert frame_chance(20, 147) < frame_chance(20, 40) < frame_chance(20, 10)
    assert frame_chance(0, 147) == pytest.approx(frame_chance(0, 10), abs=0.01)
    assert frame_chance(20, 7) > 0.95  # the black cannot catch it up without snookers


def test_accuracy_follows_lichess_curve() -> None:
    assert stroke_accuracy(0.0) == pytest.approx(100.0, abs=0.001)
    assert stroke_accuracy(-0.1) == stroke_accuracy(0.0)
    assert 70 < stroke_accuracy(0.05) < 85 and stroke_accuracy(1.0) == 0.0
    assert frame_accuracy([]) is None
    assert frame_accuracy([100.0, 100.0]) == pytest.approx(100.0)
    # One blunder weighs more than in a plain mean.
    assert frame_accuracy([100.0, 100.0, 10.0]) < (100 + 100 + 10) / 3
