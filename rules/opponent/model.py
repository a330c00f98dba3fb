"""The computer's hand and eye: the levels, the error model, and the pot chance it implies.

A level is a human-like error model (how far the struck stroke strays from the one meant) and
a search (how many strokes it weighs, how far ahead it looks). Weaker levels are never made by
choosing bad strokes: they mean the best stroke they can find and miss it more often.

The error of one stroke (docs/opponent.md, "The error model"):

    σ_angle = (aim + aim_per_m · d) · (1 + aim_cut · cut / 90°) · (1.6 on a cushion)
    speed   · (1 + N(0, pace)),   height + N(0, spin),   side + N(0, SIDE_SHARE · spin)

(side is struck far more truly than height: an unmeant side squirts the cue ball off line, so
its error is part of the aim's).

d the distance from the cue ball to the ball it plays first (metres), cut the cut angle.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Final

from rules.commands import Stroke
from rules.physics.constants import MAX_SPEED, MISCUE_LIMIT, SQUIRT_MASS_RATIO
from rules.table import BALL_RADIUS, HALF_LENGTH, HALF_WIDTH, Point

MIN_SPEED: Final = 0.15  # m/s: a stroke the hand cannot play softer
# Within this gap of a cushion the cue ball can only be struck over the rail (harder to aim).
CUSHION_GAP: Final = 12.0
CUSHION_FACTOR: Final = 1.6
SIDE_SHARE: Final = 0.15


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    aim: float  # angular error (radians, one standard deviation) of a short straight stroke
    aim_per_m: float  # its growth per metre from the cue ball to the first ball
    aim_cut: float  # its relative growth at a 90° cut
    pace: float  # relative error of the speed (one standard deviation)
    spin: float  # error of the tip's height, fraction of the ball's radius (side: SIDE_SHARE)
    width: int  # pots weighed (the best by their chance and value)
    finalists: int  # strokes played over under sampled error before one is chosen
    samples: int  # sampled executions of each finalist
    depth: int  # 0: pots only; 1: and position for the next ball; 2: and the one after
    spins: bool  # plays screw and top (and, with depth 2, side) for position
    safety_budget: int  # nominal simulations of safety strokes


NOVICE: Final = Level(
    "novice", aim=0.0012, aim_per_m=0.0010, aim_cut=0.6, pace=0.14, spin=0.12,
    width=3, finalists=2, samples=4, depth=0, spins=False, safety_budget=20,
)  # fmt: skip
CLUB: Final = Level(
    "club", aim=0.0005, aim_per_m=0.00035, aim_cut=0.5, pace=0.08, spin=0.07,
    width=4, finalists=3, samples=6, depth=1, spins=True, safety_budget=36,
)  # fmt: skip
PRO: Final = Level(
    "pro", aim=0.0002, aim_per_m=0.0002, aim_cut=0.4, pace=0.035, spin=0.03,
    width=4, finalists=3, samples=8, depth=2, spins=True, safety_budget=44,
)  # fmt: skip
LEVELS: Final[dict[str, Level]] = {lv.name: lv for lv in (NOVICE, CLUB, PRO)}


def on_cushion(p: Point) -> bool:
    """The cue ball lies within CUSHION_GAP of a cushion face: it is struck over the rail."""
    return (
        abs(p[0]) >= HALF_WIDTH - BALL_RADIUS - CUSHION_GAP
        or abs(p[1]) >= HALF_LENGTH - BALL_RADIUS - CUSHION_GAP
    )


def aim_sigma(level: Level, distance: float, cut: float, cushion: bool = False) -> float:
    """The angular error (radians) of a stroke at a ball `distance` mm away, cut `cut` rad."""
    sigma = (level.aim + level.aim_per_m * distance / 1000.0) * (
        1.0 + level.aim_cut * min(abs(cut), math.pi / 2) / (math.pi / 2)
    )
    return sigma * (CUSHION_FACTOR if cushion else 1.0)


def line_sigma(level: Level, distance: float, cut: float, cushion: bool = False) -> float:
    """The spread of the cue ball's line: the aim's error and the squirt of the side's
    (the squirt grows as 2.5 / (1 + m/me + 2.5) per unit of side, rules/physics)."""
    squirt = 2.5 / (1.0 + SQUIRT_MASS_RATIO + 2.5) * level.spin * SIDE_SHARE
    return math.hypot(aim_sigma(level, distance, cut, cushion), squirt)


def execute(
    stroke: Stroke,
    level: Level,
    rng: random.Random,
    distance: float,
    cut: float,
    cushion: bool = False,
) -> Stroke:
    """The stroke as the hand plays it: `stroke` (the one meant) with the level's errors.
    A placement from hand is exact (the ball is put down, not struck)."""
    angle = stroke.angle + rng.gauss(0.0, aim_sigma(level, distance, cut, cushion))
    speed = stroke.speed * (1.0 + rng.gauss(0.0, level.pace))
    speed = min(MAX_SPEED, max(MIN_SPEED, speed))
    side = stroke.side + rng.gauss(0.0, level.spin * SIDE_SHARE)
    height = stroke.height + rng.gauss(0.0, level.spin)
    norm = math.hypot(side, height)
    if norm > MISCUE_LIMIT:  # the hand never miscues: the tip stays inside the limit
        side, height = side * MISCUE_LIMIT / norm * 0.999, height * MISCUE_LIMIT / norm * 0.999
    return replace(stroke, angle=angle, speed=speed, side=side, height=height)


def pot_chance(sigma: float, d0: float, d1: float, cut: float, tolerance: float) -> float:
    """The chance of a pot under angular error `sigma`: the cue ball travels `d0` mm to the
    ghost ball, the object ball `d1` mm to the pocket, which accepts it within `tolerance` mm
    either side of the line meant. An error δ of the cue's line moves the contact by d0·δ, so
    the object ball's line by d0·δ / (2R·cos cut), which grows to d1·d0·δ / (2R·cos cut) at
    the pocket."""
    cos_cut = max(math.cos(cut), 0.12)
    spread = sigma * max(d0, BALL_RADIUS) * max(d1, BALL_RADIUS) / (2 * BALL_RADIUS * cos_cut)
    if spread <= 0.0:
        return 1.0
    return math.erf(tolerance / (spread * math.sqrt(2.0)))
