"""The snooker table shared by the referee and the physics (RULES.md §1).

All lengths are millimetres. The origin is the centre spot; x points right as seen from the
baulk end, y points towards the top cushion. Figures for the pockets are documented, with their
sources, in docs/physics.md; everything else is the rule book's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

Point = tuple[float, float]

# --- the bed and the balls (§2, §3) -------------------------------------------------------
HALF_WIDTH: Final = 889.0  # cushion face to the long axis
HALF_LENGTH: Final = 1784.5  # cushion face to the centre line
BALL_RADIUS: Final = 26.25
BALL_DIAMETER: Final = 2 * BALL_RADIUS

# --- markings (§4, §5) --------------------------------------------------------------------
BAULK_Y: Final = -1084.5
D_CENTRE: Final[Point] = (0.0, BAULK_Y)
D_RADIUS: Final = 292.0

WHITE: Final = "white"
REDS: Final[tuple[str, ...]] = tuple(f"red{i}" for i in range(1, 16))
COLOURS: Final[tuple[str, ...]] = ("yellow", "green", "brown", "blue", "pink", "black")
OBJECT_BALLS: Final[tuple[str, ...]] = REDS + COLOURS
BALL_IDS: Final[tuple[str, ...]] = (WHITE, *OBJECT_BALLS)

VALUES: Final[dict[str, int]] = {
    **{red: 1 for red in REDS},
    "yellow": 2,
    "green": 3,
    "brown": 4,
    "blue": 5,
    "pink": 6,
    "black": 7,
}

SPOTS: Final[dict[str, Point]] = {
    "yellow": (292.0, BAULK_Y),
    "green": (-292.0, BAULK_Y),
    "brown": (0.0, BAULK_Y),
    "blue": (0.0, 0.0),
    "pink": (0.0, 892.25),
    "black": (0.0, 1460.5),
}

# The gap between the pink and the apex red (§3: "as close as possible without touching").
APEX_GAP: Final = 1.0
# Centre-to-centre spacing inside the triangle. A hair over a diameter so that the rack is
# "tight" to the eye but no two balls start in contact: the physics then sees every contact in
# the break as a real event instead of a pile of simultaneous zero-distance ones.
RACK_SPACING: Final = BALL_DIAMETER + 0.01


def is_red(ball: str) -> bool:
    return ball.startswith("red")


def is_colour(ball: str) -> bool:
    return ball in VALUES and not is_red(ball)


def initial_rack() -> dict[str, Point]:
    """Every object ball on its starting position (§3); the cue ball starts in hand."""
    balls: dict[str, Point] = dict(SPOTS)
    apex_y = SPOTS["pink"][1] + BALL_DIAMETER + APEX_GAP
    row_step = RACK_SPACING * math.sqrt(3) / 2
    index = 0
    for row in range(5):
        for col in range(row + 1):
            x = (col - row / 2) * RACK_SPACING
            balls[REDS[index]] = (x, apex_y + row * row_step)
            index += 1
    return balls


def in_d(p: Point) -> bool:
    """The line and the arc belong to the D (RULES.md §1)."""
    x, y = p
    eps = 1e-9
    return y <= BAULK_Y + eps and math.hypot(x - D_CENTRE[0], y - D_CENTRE[1]) <= D_RADIUS + eps


# --- pockets and jaws (WPBSA templates; figures in docs/physics.md) -----------------------
@dataclass(frozen=True, slots=True)
class Jaw:
    """A cushion knuckle: the rounded end of a cushion face where it turns into a pocket.

    Modelled as a circle: the face line is tangent to it at the point where the face stops.
    A ball whose centre comes closer than `radius + BALL_RADIUS` to `centre` touches the jaw.
    """

    centre: Point
    radius: float


@dataclass(frozen=True, slots=True)
class Pocket:
    name: str
    # The middle of the mouth, on the line joining the two knuckle tangent points.
    mouth: Point
    # Unit vector pointing from the mouth into the pocket (out of the bed).
    inward: Point
    # Distance between the two tangent points where the cushion faces stop.
    mouth_width: float
    jaws: tuple[Jaw, Jaw]
    # A ball whose centre crosses this far beyond the mouth line, between the jaws, has fallen.
    fall_depth: float


CORNER_MOUTH: Final = 86.0
MIDDLE_MOUTH: Final = 100.0
CORNER_KNUCKLE_RADIUS: Final = 12.0
MIDDLE_KNUCKLE_RADIUS: Final = 18.0
CORNER_FALL_DEPTH: Final = 30.0
MIDDLE_FALL_DEPTH: Final = 30.0


def _corner(name: str, sx: int, sy: int) -> Pocket:
    """A corner pocket at the corner (sx * HALF_WIDTH, sy * HALF_LENGTH)."""
    cut = CORNER_MOUTH / math.sqrt(2)  # where each face stops, measured from the corner
    cx, cy = sx * HALF_WIDTH, sy * HALF_LENGTH
    # End of the long (side) cushion face and of the short (end) cushion face.
    side_end = (cx, cy - sy * cut)
    end_end = (cx - sx * cut, cy)
    r = CORNER_KNUCKLE_RADIUS
    jaws = (
        Jaw((side_end[0] + sx * r, side_end[1]), r),
        Jaw((end_end[0], end_end[1] + sy * r), r),
    )
    mouth = ((side_end[0] + end_end[0]) / 2, (side_end[1] + end_end[1]) / 2)
    inward = (sx / math.sqrt(2), sy / math.sqrt(2))
    return Pocket(name, mouth, inward, CORNER_MOUTH, jaws, CORNER_FALL_DEPTH)


def _middle(name: str, sx: int) -> Pocket:
    half = MIDDLE_MOUTH / 2
    x = sx * HALF_WIDTH
    r = MIDDLE_KNUCKLE_RADIUS
    jaws = (Jaw((x + sx * r, -half), r), Jaw((x + sx * r, half), r))
    return Pocket(name, (x, 0.0), (float(sx), 0.0), MIDDLE_MOUTH, jaws, MIDDLE_FALL_DEPTH)


POCKETS: Final[tuple[Pocket, ...]] = (
    _corner("bottom_left", -1, -1),
    _corner("bottom_right", 1, -1),
    _middle("middle_left", -1),
    _middle("middle_right", 1),
    _corner("top_left", -1, 1),
    _corner("top_right", 1, 1),
)
JAWS: Final[tuple[Jaw, ...]] = tuple(jaw for pocket in POCKETS for jaw in pocket.jaws)


def on_bed(p: Point) -> bool:
    """A ball centre lies where a resting ball can be: inside the cushion faces, or hanging in
    a pocket mouth short of the fall, clear of the jaws."""
    x, y = p
    eps = 1e-6
    if abs(x) <= HALF_WIDTH - BALL_RADIUS + eps and abs(y) <= HALF_LENGTH - BALL_RADIUS + eps:
        return True
    for pocket in POCKETS:
        dx, dy = x - pocket.mouth[0], y - pocket.mouth[1]
        depth = dx * pocket.inward[0] + dy * pocket.inward[1]
        across = abs(dx * pocket.inward[1] - dy * pocket.inward[0])
        if (
            -BALL_DIAMETER <= depth <= pocket.fall_depth
            and across <= pocket.mouth_width / 2
            and all(
                math.hypot(x - j.centre[0], y - j.centre[1]) >= j.radius + BALL_RADIUS - eps
                for j in pocket.jaws
            )
        ):
            return True
    return False
