"""Random strokes on random legal layouts (Hypothesis): they always end, at rest, on the bed,
with no overlaps, a consistent event log and trajectories that end where the balls rest."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.physics import EventKind, Strike, simulate
from rules.physics.constants import R
from rules.physics.geometry import on_surface
from rules.table import HALF_LENGTH, HALF_WIDTH, OBJECT_BALLS
from tests.physics.helpers import check_stroke

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Point = tuple[float, float]


@st.composite
def layouts(draw: st.DrawFn) -> dict[str, Point]:
    """The cue ball and 1-6 object balls, anywhere on the bed, apart (some touching each other
    or a cushion)."""
    count = draw(st.integers(1, 6))
    names = draw(st.permutations(OBJECT_BALLS))[:count]
    placed: dict[str, Point] = {}
    for name in ["white", *names]:
        for _ in range(20):
            if placed and draw(st.booleans()) and draw(st.booleans()):
                # touching another ball
                other = placed[draw(st.sampled_from(sorted(placed)))]
                a = draw(st.floats(0, 2 * math.pi))
                p = (other[0] + 2 * R * math.cos(a), other[1] + 2 * R * math.sin(a))
            else:
                p = (
                    draw(st.floats(-HALF_WIDTH + R, HALF_WIDTH - R)),
                    draw(st.floats(-HALF_LENGTH + R, HALF_LENGTH - R)),
                )
                if draw(st.integers(0, 5)) == 0:  # frozen to a cushion
                    if draw(st.booleans()):
                        p = (math.copysign(HALF_WIDTH - R, p[0]), p[1])
                    else:
                        p = (p[0], math.copysign(HALF_LENGTH - R, p[1]))
            if on_surface(p) and all(math.dist(p, q) >= 2 * R for q in placed.values()):
                placed[name] = p
                break
    return placed


@st.composite
def strikes(draw: st.DrawFn, cue: Point) -> Strike:
    r = draw(st.floats(0.0, 0.5))
    a = draw(st.floats(0.0, 2 * math.pi))
    return Strike(
        cue_ball=cue,
        angle=draw(st.floats(-math.pi, math.pi)),
        speed=draw(st.floats(0.05, 10.0)),
        side=r * math.cos(a),
        height=r * math.sin(a),
    )


@SETTINGS
@given(data=st.data())
def test_random_strokes_end_at_rest_consistently(data: st.DataObject) -> None:
    layout = data.draw(layouts())
    strike = data.draw(strikes(layout["white"]))
    balls = {k: v for k, v in layout.items() if k != "white"}
    result = simulate(balls, strike)
    assert not result.truncated
    check_stroke(result, layout, samples=2)
    # Every ball is accounted for: on the table at rest or potted, never both.
    assert set(result.positions) | set(result.potted) == set(layout)
    assert not set(result.positions) & set(result.potted)
    pots = [e.balls[0] for e in result.events if e.kind is EventKind.POCKET]
    assert tuple(pots) == result.potted
    if result.first_contact:
        first = next(e for e in result.events if e.kind is EventKind.BALL_BALL)
        assert "white" in first.balls and result.first_contact[0] in first.balls
        assert result.closest_approach[result.first_contact[0]] == 0.0
    assert all(gap >= 0.0 for gap in result.closest_approach.values())
