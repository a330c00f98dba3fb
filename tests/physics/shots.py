"""Named strokes shared by the golden tests and the benchmark (benchmarks/bench_physics.py)."""

from __future__ import annotations

import math

from rules.physics import Strike
from rules.physics.constants import R
from rules.table import BAULK_Y, initial_rack

Point = tuple[float, float]
Shot = tuple[dict[str, Point], Strike]


def aim(cue: Point, target: Point) -> float:
    return math.atan2(target[1] - cue[1], target[0] - cue[0])


def ghost(obj: Point, pocket: Point) -> Point:
    """Where the cue ball's centre must be at contact to send `obj` straight at `pocket`."""
    d = math.dist(obj, pocket)
    return (obj[0] - 2 * R * (pocket[0] - obj[0]) / d, obj[1] - 2 * R * (pocket[1] - obj[1]) / d)


def break_apex() -> Shot:
    """The full rack, cue ball in the D at 8 m/s aimed at the apex red's centre. (The pink,
    1 mm in front of the apex, is met first: no line from the D reaches the apex red first.)"""
    balls = initial_rack()
    cue = (-150.0, BAULK_Y - 100.0)
    return balls, Strike(cue, aim(cue, balls["red1"]), 8.0)


def break_thin() -> Shot:
    """An ordinary opening: a thin contact on the right-hand back red with left-hand side."""
    balls = initial_rack()
    cue = (180.0, BAULK_Y - 20.0)
    red = balls["red15"]
    return balls, Strike(cue, aim(cue, (red[0] + 47.0, red[1])), 6.0, side=-0.3)


def pot_with_screw() -> Shot:
    """Mid-frame: a red straight into the top-left corner, screw back."""
    balls = {
        "red4": (-700.0, 1600.0),
        "red9": (300.0, 1200.0),
        "black": (0.0, 1460.5),
        "pink": (0.0, 892.25),
        "blue": (0.0, 0.0),
    }
    cue = (-500.0, 1400.0)
    return balls, Strike(cue, aim(cue, ghost(balls["red4"], (-889.0, 1784.5))), 2.5, height=-0.45)


def cut_blue_middle() -> Shot:
    """The blue cut into the right middle pocket with a touch of follow, aimed 9 mm low of the
    pocket's centre to allow for the throw."""
    balls = {"blue": (600.0, 150.0), "red2": (-300.0, 700.0), "brown": (0.0, BAULK_Y)}
    cue = (150.0, 300.0)
    return balls, Strike(cue, aim(cue, ghost(balls["blue"], (919.0, -9.0))), 1.6, height=0.2)


def safety_thin() -> Shot:
    """A thin safety off the side of a red, the cue ball back towards baulk."""
    balls = {"red6": (-100.0, 1250.0), "red7": (150.0, 1300.0), "black": (0.0, 1460.5)}
    cue = (250.0, -300.0)
    return balls, Strike(cue, aim(cue, (-100.0 + 50.0, 1250.0)), 2.5, side=0.2, height=0.1)


def in_off() -> Shot:
    """A red potted in the top-right corner and the cue ball following it in."""
    balls = {"red1": (700.0, 1600.0), "pink": (0.0, 892.25)}
    cue = (400.0, 1300.0)
    return balls, Strike(cue, aim(cue, ghost(balls["red1"], (889.0, 1784.5))), 2.0, height=0.45)


def kick_off_cushion() -> Shot:
    """Off the left cushion onto a red behind a blocker, right-hand side."""
    balls = {"red5": (-300.0, 900.0), "green": (-300.0, 300.0), "blue": (0.0, 0.0)}
    cue = (-300.0, -200.0)
    return balls, Strike(cue, aim(cue, (-862.75, 420.0)), 2.0, side=0.25)


GOLDEN: dict[str, Shot] = {
    "break_apex": break_apex(),
    "break_thin": break_thin(),
    "pot_with_screw": pot_with_screw(),
    "cut_blue_middle": cut_blue_middle(),
    "safety_thin": safety_thin(),
    "in_off": in_off(),
    "kick_off_cushion": kick_off_cushion(),
}
