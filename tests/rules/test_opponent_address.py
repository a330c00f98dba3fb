"""The computer's address time and the cue's lining up (rules/opponent/address.py): a tap-in
quicker than a long pot, a safety or an escape; a Novice slower than a Pro; the cue swinging
in onto the line and still on it at the end."""

from __future__ import annotations

import itertools

import pytest

from rules.opponent.address import (
    LINING_SHARE,
    STEP,
    address,
    address_seconds,
    difficulty,
)


def test_a_tap_in_is_quicker_than_a_long_cut_a_safety_and_an_escape() -> None:
    for level in ("novice", "club", "pro"):
        tap_in = address_seconds("pot", level, 150.0, 0.0)
        long_cut = address_seconds("pot", level, 2200.0, 0.9)
        safety = address_seconds("safety", level, 0.0, 0.0)
        escape = address_seconds("escape", level, 0.0, 0.0)
        assert tap_in < long_cut < escape
        assert tap_in < safety < escape


def test_a_novice_takes_longer_than_a_club_player_and_a_pro() -> None:
    for kind in ("pot", "safety", "escape", "break"):
        novice, club, pro = (
            address_seconds(kind, lv, 800.0, 0.3) for lv in ("novice", "club", "pro")
        )
        assert novice > club > pro


def test_the_figures_of_docs_opponent_md() -> None:
    assert address_seconds("pot", "club", 0.0, 0.0) == pytest.approx(0.55)
    assert address_seconds("pot", "pro", 0.0, 0.0) == pytest.approx(0.44)
    assert address_seconds("pot", "novice", 4000.0, 3.0) == pytest.approx(1.45 * 1.35)
    assert address_seconds("escape", "novice", 0.0, 0.0) == pytest.approx(2.97)
    assert address_seconds("safety", "pro", 0.0, 0.0) == pytest.approx(1.44)
    assert difficulty("pot", 1000.0, -0.6) == pytest.approx(1.0)  # cut either way
    assert address_seconds("pot", "club", 0.0, 0.0, base=0.0) == 0.0  # tests: at once


def test_the_cue_swings_in_onto_the_line_and_settles_on_it() -> None:
    plan = address("safety", "novice", 0.0, 0.0, 1.0)
    assert plan.seconds == pytest.approx(address_seconds("safety", "novice", 0.0, 0.0))
    assert plan.lining == pytest.approx(plan.seconds * LINING_SHARE)
    times = [at for at, _ in plan.aims]
    assert times == sorted(times) and times[0] == 0.0 and times[-1] == pytest.approx(plan.lining)
    assert all(b - a <= STEP + 1e-9 for a, b in itertools.pairwise(times))
    offsets = [abs(angle - 1.0) for _, angle in plan.aims]
    assert offsets[0] > 0.03 and offsets[-1] == 0.0  # off the line at first, on it at the end
    assert max(offsets[len(offsets) // 2 :]) < offsets[0]  # the swing dies away
    # A Pro's cue wavers less.
    pro = address("safety", "pro", 0.0, 0.0, 1.0)
    assert max(abs(a - 1.0) for _, a in pro.aims) < max(offsets)


def test_with_no_address_time_it_shows_its_aim_once_and_strikes() -> None:
    plan = address("pot", "pro", 500.0, 0.2, 0.5, base=0.0)
    assert plan.aims == ((0.0, 0.5),) and plan.seconds == 0.0
