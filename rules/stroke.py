"""A stroke played for real: the physics simulates it, the referee settles it.

Pure (no I/O) and deterministic, so a match can be rebuilt from its stored strokes.
"""

from __future__ import annotations

from rules import referee
from rules.commands import Stroke
from rules.physics import ShotResult, Strike, simulate
from rules.referee import Ruling
from rules.state import FrameState, Player, Shot, make_balls
from rules.table import WHITE


def play_stroke(
    frame: FrameState, by: Player, stroke: Stroke, *, closest: bool = True
) -> tuple[FrameState, Ruling, ShotResult]:
    """Simulate and settle one stroke; an illegal request raises before anything is simulated.
    Without `closest` (the computer's search) no close approach is measured, so a foul that
    misses every ball on is never excused as a near attempt from a snooker (RULES.md §6 (a))."""
    table = referee.check_stroke(frame, by, stroke.nominated, stroke.cue_ball)
    cue = table.pop(WHITE)
    result = simulate(
        table,
        Strike(cue, stroke.angle, stroke.speed, side=stroke.side, height=stroke.height),
        closest=closest,
    )
    shot = Shot(
        first_contact=result.first_contact,
        potted=result.potted,
        off_table=(),  # the physics is 2-D: no ball ever leaves the table
        jumped=False,  # nor jumps
        nominated=stroke.nominated,
        cue_ball=stroke.cue_ball if frame.in_hand else None,
        after=make_balls(result.positions),
        closest_on_mm=referee.closest_on(frame, stroke.nominated, result.closest_approach),
    )
    new, ruling = referee.strike(frame, by, shot)
    return new, ruling, result
