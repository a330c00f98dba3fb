"""Shot simulation: event-based, closed-form ball motion on the snooker table (docs/physics.md).

    result = simulate(balls, Strike(cue_ball=(x, y), angle=a, speed=v, side=s, height=h))

Pure Python, deterministic, no Django. Lengths in mm, times in s, the strike speed in m/s.
"""

from rules.physics.constants import FIRST_CONTACT_TOLERANCE
from rules.physics.records import Event, EventKind, Motion, Segment
from rules.physics.shot import ShotResult, Strike, simulate

__all__ = [
    "FIRST_CONTACT_TOLERANCE",
    "Event",
    "EventKind",
    "Motion",
    "Segment",
    "ShotResult",
    "Strike",
    "simulate",
]
