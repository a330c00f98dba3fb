"""The frozen records a simulated stroke is made of: its events and each ball's segments.

The engine (rules/physics/engine.py) hands these out; rules/physics/shot.py reads them into
the `ShotResult`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

Point = tuple[float, float]


class EventKind(StrEnum):
    BALL_BALL = "ball_ball"
    BALL_CUSHION = "ball_cushion"
    BALL_JAW = "ball_jaw"
    POCKET = "pocket"
    SLIDING_TO_ROLLING = "sliding_to_rolling"
    SLIDING_TO_REST = "sliding_to_rest"  # the slide ended with no speed left (may still spin)
    ROLLING_TO_REST = "rolling_to_rest"  # stops moving; may still spin in place
    SPIN_TO_REST = "spin_to_rest"  # a ball spinning in place stops spinning


class Motion(StrEnum):
    """A ball's state over a segment, in the order of its code in the JSON form (0 to 4)."""

    SLIDING = "sliding"
    ROLLING = "rolling"
    SPINNING = "spinning"
    STATIONARY = "stationary"
    POCKETED = "pocketed"


@dataclass(frozen=True, slots=True)
class Event:
    """One event of a stroke. `balls` are the ids involved (two for ball_ball), `positions`
    their centres at that instant, `where` names the cushion (ball_cushion) or the pocket
    (ball_jaw: the pocket whose jaw was hit; pocket: the pocket it fell into)."""

    time: float
    kind: EventKind
    balls: tuple[str, ...]
    positions: tuple[Point, ...]
    where: str = ""


@dataclass(frozen=True, slots=True)
class Segment:
    """A closed-form piece of one ball's motion, valid for t0 <= t <= t1 (seconds):
    p(t) = p0 + v·(t−t0) + ½·a·(t−t0)², ωx,y(t) = ω0 + dω·(t−t0), and
    ωz(t) = ωz0 + dωz·(t−t0) until it reaches 0, then 0."""

    t0: float
    t1: float
    motion: Motion
    x0: float
    y0: float
    vx: float
    vy: float
    ax: float
    ay: float
    wx: float
    wy: float
    wz: float
    dwx: float
    dwy: float
    dwz: float

    def position(self, t: float) -> Point:
        tau = t - self.t0
        return (
            self.x0 + (self.vx + 0.5 * self.ax * tau) * tau,
            self.y0 + (self.vy + 0.5 * self.ay * tau) * tau,
        )

    def velocity(self, t: float) -> Point:
        tau = t - self.t0
        return self.vx + self.ax * tau, self.vy + self.ay * tau

    def spin(self, t: float) -> tuple[float, float, float]:
        tau = t - self.t0
        wz = self.wz + self.dwz * tau
        if self.wz * wz <= 0.0:
            wz = 0.0
        return self.wx + self.dwx * tau, self.wy + self.dwy * tau, wz
