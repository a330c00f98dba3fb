"""The table as the physics sees it, derived from rules/table.py (RULES.md §1).

- six straight cushion faces (the rails between the pockets), each a segment of a line;
- twelve knuckle jaws (circles) where the faces turn into the pockets;
- eighteen pocket walls: the jaws' faces behind the knuckles and the back of each pocket;
- six pocket falls: a ball whose centre is beyond the fall line of a pocket is over the hole,
  and drops unless it comes back within DROP_TIME (the engine keeps that clock).

Everything here is built once, at import, from `POCKETS`, `HALF_WIDTH` and `HALF_LENGTH`, so an
edit of the pocket figures in rules/table.py reaches the physics and the referee alike.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Final

from rules.table import HALF_LENGTH, HALF_WIDTH, POCKETS, Jaw, Wall

from .constants import R


@dataclass(frozen=True, slots=True)
class Rail:
    """A straight cushion face: the points p with n·p = face, for t·p in [lo, hi]."""

    name: str
    normal: tuple[float, float]  # unit, out of the bed into the cushion
    face: float  # n·p of the face line
    tangent: tuple[float, float]  # unit, along the face
    lo: float
    hi: float


@dataclass(frozen=True, slots=True)
class Fall:
    """The fall of a pocket: inward·p >= depth means the ball has dropped."""

    pocket: str
    inward: tuple[float, float]
    depth: float


_TOL: Final = 1e-6


def _touches_line(jaw: Jaw, normal: tuple[float, float], face: float) -> bool:
    nx, ny = normal
    cx, cy = jaw.centre
    return abs(nx * cx + ny * cy - (face + jaw.radius)) < _TOL


def _rails() -> tuple[Rail, ...]:
    sides = (
        ("bottom", (0.0, -1.0), HALF_LENGTH, (1.0, 0.0)),
        ("top", (0.0, 1.0), HALF_LENGTH, (1.0, 0.0)),
        ("left", (-1.0, 0.0), HALF_WIDTH, (0.0, 1.0)),
        ("right", (1.0, 0.0), HALF_WIDTH, (0.0, 1.0)),
    )
    rails: list[Rail] = []
    for name, normal, face, tangent in sides:
        # Where the face stops: the tangent points of the jaws that round this face off.
        stops = sorted(
            tangent[0] * jaw.centre[0] + tangent[1] * jaw.centre[1]
            for pocket in POCKETS
            for jaw in pocket.jaws
            if _touches_line(jaw, normal, face)
        )
        if len(stops) % 2:
            raise ValueError(f"cushion {name}: an odd number of jaws ends it: {stops}")
        pieces = [(stops[k], stops[k + 1]) for k in range(0, len(stops), 2)]
        for index, (lo, hi) in enumerate(pieces):
            label = name if len(pieces) == 1 else f"{name}_{('lower', 'upper')[index]}"
            rails.append(Rail(label, normal, face, tangent, lo, hi))
    return tuple(rails)


RAILS: Final[tuple[Rail, ...]] = _rails()
# (pocket name, jaw) for each of the 12 knuckles, in POCKETS order.
KNUCKLES: Final[tuple[tuple[str, Jaw], ...]] = tuple(
    (pocket.name, jaw) for pocket in POCKETS for jaw in pocket.jaws
)
# (pocket name, wall) for each jaw face and pocket back, in POCKETS order.
WALLS: Final[tuple[tuple[str, Wall], ...]] = tuple(
    (pocket.name, wall) for pocket in POCKETS for wall in (*pocket.facings, pocket.back)
)
FALLS: Final[tuple[Fall, ...]] = tuple(
    Fall(
        pocket.name,
        pocket.inward,
        pocket.inward[0] * pocket.mouth[0] + pocket.inward[1] * pocket.mouth[1] + pocket.fall_depth,
    )
    for pocket in POCKETS
)


def fallen(p: tuple[float, float]) -> str | None:
    """The pocket whose fall the ball centre `p` has crossed, if any."""
    for fall in FALLS:
        if fall.inward[0] * p[0] + fall.inward[1] * p[1] >= fall.depth:
            return fall.pocket
    return None


def on_surface(p: tuple[float, float], tol: float = 1e-6) -> bool:
    """A ball centred at `p` lies on the playing surface: inside the cushion faces, or in a
    pocket mouth short of the fall without touching a jaw."""
    return _on_surface(p[0], p[1], tol)


# Remembered: every stroke checks each ball's place before it is played, and the computer's
# search plays a hundred strokes from one position, which made this check a seventh of its
# thinking (docs/opponent.md, "Speed"). A pure function of its arguments, so the answer
# remembered is the answer computed.
@functools.lru_cache(maxsize=4096)
def _on_surface(x: float, y: float, tol: float) -> bool:
    p = (x, y)
    if not (math.isfinite(x) and math.isfinite(y)) or fallen(p) is not None:
        return False
    for rail in RAILS:
        s = rail.tangent[0] * x + rail.tangent[1] * y
        depth = rail.normal[0] * x + rail.normal[1] * y
        if rail.lo <= s <= rail.hi and depth > rail.face - R + tol:
            return False
    for _, jaw in KNUCKLES:
        if math.hypot(x - jaw.centre[0], y - jaw.centre[1]) < jaw.radius + R - tol:
            return False
    return all(_clear_of_wall(p, wall, tol) for _, wall in WALLS)


def over_fall(p: tuple[float, float]) -> bool:
    """A ball centred at `p` hangs over a pocket's hole (beyond its fall line) clear of the
    pocket's walls: where a ball may be for up to DROP_TIME before it drops."""
    return fallen(p) is not None and all(_clear_of_wall(p, wall, 1e-6) for _, wall in WALLS)


def _clear_of_wall(p: tuple[float, float], wall: Wall, tol: float) -> bool:
    ax, ay = wall.a
    dx = wall.b[0] - ax
    dy = wall.b[1] - ay
    along = (p[0] - ax) * dx + (p[1] - ay) * dy
    if along < 0.0 or along > dx * dx + dy * dy:
        return True
    into = (p[0] - ax) * wall.normal[0] + (p[1] - ay) * wall.normal[1]
    return not -R + tol < into < R
