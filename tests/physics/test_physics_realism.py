"""The figures of issue 11 against their references (docs/physics.md, "Figures against
references"): throw, follow, cushion rebounds with side, squirt and the pockets' windows.

benchmarks/physics_figures.py measures the same figures for the doc; these hold them.
"""

from __future__ import annotations

import math

import pytest

from benchmarks import physics_figures as F
from rules.physics import Strike


@pytest.mark.parametrize(
    ("cut", "speed", "reference"),
    [(30, 0.25, 4.8), (30, 1.0, 4.1), (30, 4.0, 1.2), (60, 0.25, 5.3), (60, 1.0, 2.9),
     (60, 4.0, 0.7)],
)  # fmt: skip
def test_throw_falls_with_speed_as_measured(cut: float, speed: float, reference: float) -> None:
    assert F.throw(cut, speed) == pytest.approx(reference, abs=0.7)


def test_follow_is_within_five_percent_of_the_two_sevenths_rule() -> None:
    ours, rule = F.follow()
    assert abs(ours / rule - 1) < 0.05


@pytest.mark.parametrize(
    ("k", "mathavan"),
    [(0.0, F.RECORDED_MATHAVAN["none"]), (-0.5, F.RECORDED_MATHAVAN["running 0.5"]),
     (0.5, F.RECORDED_MATHAVAN["check 0.5"]), (-1.0, F.RECORDED_MATHAVAN["running 1.0"]),
     (1.0, F.RECORDED_MATHAVAN["check 1.0"])],
)  # fmt: skip
def test_cushion_rebound_within_four_degrees_of_mathavan(
    k: float, mathavan: tuple[float, float]
) -> None:
    now, rolling = F.rebound(k)
    assert now == pytest.approx(mathavan[0], abs=4.0)
    assert rolling == pytest.approx(mathavan[1], abs=4.0)


def test_running_side_widens_the_angle() -> None:
    for k in (0.5, 1.0):
        assert F.rebound(-k)[1] > F.rebound(k)[1] + 2.0


def test_hard_impacts_lose_more() -> None:
    from rules.physics.cushion import restitution

    assert restitution(1000.0) == restitution(2500.0) == 0.98
    assert restitution(5000.0) < restitution(3000.0) < 0.98


@pytest.mark.parametrize(("side", "degrees"), [(0.3, 1.5), (0.5, 2.3)])
def test_squirt_at_pooltools_magnitude(side: float, degrees: float) -> None:
    squirt = Strike((0.0, 0.0), 0.0, 1.0, side=side).squirt()
    assert math.degrees(squirt) == pytest.approx(degrees, abs=0.1)
    assert Strike((0.0, 0.0), 0.0, 1.0, side=-side).squirt() == -squirt


def test_middle_pocket_forgives_a_slow_straight_ball_at_least_as_a_corner() -> None:
    middle = F.middle_window(0, 0.8)
    assert middle >= 60.0  # ±30 mm
    assert middle >= F.corner_window(0.8)


def test_middle_pocket_takes_a_slow_ball_at_45_degrees_and_rejects_a_fast_one() -> None:
    assert F.middle_window(45, 0.5) >= 30.0
    assert F.middle_window(45, 1.0) >= 30.0
    assert F.middle_window(45, 3.0) <= 10.0


def test_corner_rejects_fast_balls_along_the_cushion_more_than_slow_ones() -> None:
    slow, fast = F.corner_hug(0.5), F.corner_hug(3.0)
    assert slow >= 3.0 and fast < slow / 4
