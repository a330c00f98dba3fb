"""A stroke request played for real: the physics simulates it, the referee settles it.

This is the one function the server calls for a stroke; it is pure (no I/O) and deterministic,
so a match can be rebuilt from its stored stroke requests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules import referee
from rules.physics import ShotResult, Strike, simulate
from rules.referee import Ruling
from rules.state import FrameState, Player, Shot, make_balls
from rules.table import WHITE, Point


@dataclass(frozen=True, slots=True)
class StrokeRequest:
    """What the striker's browser sends: aim, power, spin, nomination, placement from hand."""

    angle: float  # radians, 0 = +x, π/2 = towards the top cushion
    speed: float  # cue-ball speed in m/s
    side: float = 0.0  # tip offset, fraction of the ball radius, + = right
    height: float = 0.0  # tip offset, + = top spin, - = screw
    nominated: str | None = None
    cue_ball: Point | None = None  # only when in hand


def play_stroke(
    frame: FrameState, by: Player, request: StrokeRequest
) -> tuple[FrameState, Ruling, ShotResult]:
    """Simulate and settle one stroke; an illegal request raises before anything is simulated."""
    referee.check_stroke(frame, by, request.nominated, request.cue_ball)
    table = frame.ball_map()
    cue = request.cue_ball if frame.in_hand else table[WHITE]
    assert cue is not None
    table.pop(WHITE, None)
    result = simulate(
        table,
        Strike(cue, request.angle, request.speed, side=request.side, height=request.height),
    )
    present = list(table)
    on = referee.balls_on(frame.on, present)
    if frame.free_ball and request.nominated is not None:
        on.add(request.nominated)
    closest = min((result.closest_approach.get(b, math.inf) for b in on), default=math.inf)
    shot = Shot(
        first_contact=result.first_contact,
        potted=result.potted,
        off_table=result.off_table,
        nominated=request.nominated,
        cue_ball=request.cue_ball if frame.in_hand else None,
        after=make_balls(result.positions),
        closest_on_mm=None if math.isinf(closest) else closest,
    )
    new, ruling = referee.strike(frame, by, shot)
    return new, ruling, result
