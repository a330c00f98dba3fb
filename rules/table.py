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


# --- pockets and jaws (figures and their sources in docs/physics.md) ------------------------
@dataclass(frozen=True, slots=True)
class Jaw:
    """A cushion knuckle: the rounded end of a cushion face where it turns into a pocket.

    Modelled as a circle: the face line is tangent to it at the point where the face stops.
    A ball whose centre comes closer than `radius + BALL_RADIUS` to `centre` touches the jaw.
    """

    centre: Point
    radius: float


@dataclass(frozen=True, slots=True)
class Wall:
    """A straight wall of a pocket's throat, the segment `a`–`b`: a jaw's face behind its
    knuckle, or the back of the pocket. `normal` is a unit vector from the throat into the
    wall; a ball touches it when its centre is BALL_RADIUS short of the segment."""

    a: Point
    b: Point
    normal: Point


@dataclass(frozen=True, slots=True)
class Pocket:
    name: str
    # The middle of the mouth, on the line joining the two points where the cushion faces stop.
    mouth: Point
    # Unit vector pointing from the mouth into the pocket (out of the bed).
    inward: Point
    # Distance between the two points where the cushion faces stop (nose to nose).
    mouth_width: float
    jaws: tuple[Jaw, Jaw]
    # The ball's centre is over the fall (the edge of the bed) once it is this far beyond the
    # mouth line; there it drops unless it comes back within DROP_TIME (docs/physics.md).
    fall_depth: float
    # The narrowest gap between the two knuckles.
    opening: float
    # The jaws' faces, one behind each knuckle (in the order of `jaws`), and the pocket's back.
    facings: tuple[Wall, Wall]
    back: Wall


# Approximations of the WPBSA templates, which are not published (docs/physics.md, "Pockets"):
# the narrowest gap between the knuckles, the knuckles' radius, how the jaws' faces run into
# the pocket (degrees from the pocket's axis, negative: the throat narrows), and how far
# beyond the mouth line the fall and the back of the pocket are.
CORNER_OPENING: Final = 88.0
CORNER_KNUCKLE_RADIUS: Final = 15.0
CORNER_FACING_ANGLE: Final = -7.0
CORNER_FALL_DEPTH: Final = 30.0
CORNER_BACK_DEPTH: Final = 95.0
MIDDLE_OPENING: Final = 108.0
MIDDLE_KNUCKLE_RADIUS: Final = 25.0
MIDDLE_FACING_ANGLE: Final = -10.0
MIDDLE_FALL_DEPTH: Final = 35.0
MIDDLE_BACK_DEPTH: Final = 115.0


def _throat(
    centres: tuple[Point, Point], radius: float, mouth: Point, inward: Point, angle: float,
    back_depth: float,
) -> tuple[tuple[Wall, Wall], Wall]:  # fmt: skip
    """The jaws' faces behind two knuckles and the back of the pocket: each face leaves its
    knuckle on the throat's side at `angle` degrees from the axis (positive: widening) and
    runs to the back, `back_depth` beyond the mouth line."""
    wx, wy = inward
    ux, uy = -wy, wx  # across the mouth
    c = math.cos(math.radians(angle))
    s = math.sin(math.radians(angle))
    facings: list[Wall] = []
    for cx, cy in centres:
        side = 1.0 if (cx - mouth[0]) * ux + (cy - mouth[1]) * uy > 0.0 else -1.0
        dx, dy = wx * c + side * ux * s, wy * c + side * uy * s  # along the face, inwards
        nx, ny = side * ux * c - wx * s, side * uy * c - wy * s  # into the wall
        a = (cx - radius * nx, cy - radius * ny)
        depth = (a[0] - mouth[0]) * wx + (a[1] - mouth[1]) * wy
        length = (back_depth - depth) / c
        facings.append(Wall(a, (a[0] + dx * length, a[1] + dy * length), (nx, ny)))
    back = Wall(facings[0].b, facings[1].b, (wx, wy))
    return (facings[0], facings[1]), back


def _corner(name: str, sx: int, sy: int) -> Pocket:
    """A corner pocket at the corner (sx * HALF_WIDTH, sy * HALF_LENGTH)."""
    r = CORNER_KNUCKLE_RADIUS
    # Where each face stops, from the corner: the knuckles (r behind their faces) are then
    # CORNER_OPENING apart, surface to surface.
    cut = (CORNER_OPENING + 2 * r) / math.sqrt(2) - r
    cx, cy = sx * HALF_WIDTH, sy * HALF_LENGTH
    # End of the long (side) cushion face and of the short (end) cushion face.
    side_end = (cx, cy - sy * cut)
    end_end = (cx - sx * cut, cy)
    centres = ((side_end[0] + sx * r, side_end[1]), (end_end[0], end_end[1] + sy * r))
    mouth = ((side_end[0] + end_end[0]) / 2, (side_end[1] + end_end[1]) / 2)
    inward = (sx / math.sqrt(2), sy / math.sqrt(2))
    facings, back = _throat(centres, r, mouth, inward, CORNER_FACING_ANGLE, CORNER_BACK_DEPTH)
    return Pocket(
        name, mouth, inward, cut * math.sqrt(2), (Jaw(centres[0], r), Jaw(centres[1], r)),
        CORNER_FALL_DEPTH, CORNER_OPENING, facings, back,
    )  # fmt: skip


def _middle(name: str, sx: int) -> Pocket:
    r = MIDDLE_KNUCKLE_RADIUS
    half = MIDDLE_OPENING / 2 + r  # where each face stops: the knuckles are OPENING apart
    x = sx * HALF_WIDTH
    centres = ((x + sx * r, -half), (x + sx * r, half))
    inward = (float(sx), 0.0)
    facings, back = _throat(centres, r, (x, 0.0), inward, MIDDLE_FACING_ANGLE, MIDDLE_BACK_DEPTH)
    return Pocket(
        name, (x, 0.0), inward, 2 * half, (Jaw(centres[0], r), Jaw(centres[1], r)),
        MIDDLE_FALL_DEPTH, MIDDLE_OPENING, facings, back,
    )  # fmt: skip


POCKETS: Final[tuple[Pocket, ...]] = (
    _corner("bottom_left", -1, -1),
    _corner("bottom_right", 1, -1),
    _middle("middle_left", -1),
    _middle("middle_right", 1),
    _corner("top_left", -1, 1),
    _corner("top_right", 1, 1),
)
JAWS: Final[tuple[Jaw, ...]] = tuple(jaw for pocket in POCKETS for jaw in pocket.jaws)


def _clear_of_facing(p: Point, wall: Wall, eps: float) -> bool:
    """A ball at p does not reach into this jaw face (beyond its knuckle end)."""
    dx, dy = wall.b[0] - wall.a[0], wall.b[1] - wall.a[1]
    along = (p[0] - wall.a[0]) * dx + (p[1] - wall.a[1]) * dy
    if along < 0.0 or along > dx * dx + dy * dy:
        return True  # alongside the knuckle (the jaw check covers it) or past the back
    into = (p[0] - wall.a[0]) * wall.normal[0] + (p[1] - wall.a[1]) * wall.normal[1]
    return not -BALL_RADIUS + eps < into < BALL_RADIUS


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
            and all(_clear_of_facing(p, wall, eps) for wall in pocket.facings)
        ):
            return True
    return False
