"""Whether two tables show the same position, near enough for the Pro's advice on one to serve
the other: the pure part of "no engine help while it matters" (docs/security.md).

The physics is deterministic and every event carries its command, so a spectator can replay
a live match's strokes at a practice table and reach its position exactly; a few strokes
played a hair differently reach it within a fraction of a millimetre. The server keeps, for
every live match that is not practice, its position's `key` (stored with each stroke,
game/positions.py), and refuses engine help for a position `near` one of them.

- The **key** is coarse and exact: which balls are on the table, the ball on, and the cell of
  a grid of `CELL_MM` that holds the balls' centroid. Quantising every ball would put a
  position nudged across one of 44 cell boundaries under another key (2**44 neighbours in the
  worst case); the centroid of balls each moved by at most `TOLERANCE_MM` moves by at most
  `TOLERANCE_MM` itself, so with cells more than twice that wide a position near another's
  lies under one of at most four keys (`keys_near`), whichever balls straddle what.
- **near** is the precise test over the candidates under those keys: the same balls, the same
  ball on, and every ball within `TOLERANCE_MM` of its counterpart.
- A frame's **opening** position (the balls on their spots, the breaker in hand) is every
  frame's first: it is no live match's secret, and refusing it would protect nothing (it can
  be asked at any quiet moment), so it has no key.

Whose turn it is is not part of a position: a practice table's seats are drawn apart from the
match it copies, and the same balls call for the same stroke whoever plays it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from rules.state import Balls, FrameState
from rules.table import BALL_IDS, Point

# A fifth of a ball's diameter (52.5 mm): every ball of a copy placed by eye, or reached by
# strokes played nearly as the match's were, lies closer than this; two positions of honest
# play essentially never do, but at a frame's opening (which has no key).
TOLERANCE_MM: Final = 10.0
CELL_MM: Final = 2 * TOLERANCE_MM + 1  # more than twice the tolerance: see `keys_near`
_SLACK: Final = 1e-6  # millimetres: a centroid's rounding never hides a neighbouring cell
KEY_LENGTH: Final = 40  # the longest key: "colour:3fffff:-45:-90" and room to spare

_BIT = {ball: 1 << i for i, ball in enumerate(BALL_IDS)}


@dataclass(frozen=True, slots=True)
class Position:
    """What the Pro's advice for a stroke depends on, as compared between tables."""

    balls: Balls  # canonical order (rules.state.make_balls)
    on: str

    @property
    def centroid(self) -> Point:
        n = len(self.balls)
        return (sum(p[0] for _, p in self.balls) / n, sum(p[1] for _, p in self.balls) / n)


def position_of(frame: FrameState) -> Position | None:
    """The frame's position as compared, or None when it is nobody's secret: the frame is
    over, no ball is on the table, or it is a frame's opening."""
    if frame.frame_over or frame.opening or not frame.balls:
        return None
    return Position(frame.balls, frame.on)


def _mask(position: Position) -> int:
    mask = 0
    for ball, _ in position.balls:
        mask |= _BIT[ball]
    return mask


def _key(position: Position, cx: int, cy: int) -> str:
    return f"{position.on}:{_mask(position):x}:{cx}:{cy}"


def key(position: Position) -> str:
    """The index's key: the ball on, the set of balls, the centroid's cell."""
    x, y = position.centroid
    return _key(position, math.floor(x / CELL_MM), math.floor(y / CELL_MM))


def keys_near(position: Position, tolerance: float = TOLERANCE_MM) -> tuple[str, ...]:
    """Every key a position `near` this one may have: the cells the centroid's square of
    half-side `tolerance` touches (one or two a side, as a cell is more than twice as wide)."""
    reach = tolerance + _SLACK
    assert reach * 2 <= CELL_MM, "a cell narrower than twice the tolerance misses keys"
    x, y = position.centroid

    def cells(c: float) -> range:
        return range(math.floor((c - reach) / CELL_MM), math.floor((c + reach) / CELL_MM) + 1)

    return tuple(_key(position, cx, cy) for cx in cells(x) for cy in cells(y))


def near(a: Position, b: Position, tolerance: float = TOLERANCE_MM) -> bool:
    """Whether `b` is `a` to within `tolerance`: the same balls and ball on, each ball within
    `tolerance` millimetres of where it lies in `a`."""
    if a.on != b.on or len(a.balls) != len(b.balls):
        return False
    for (ball_a, pa), (ball_b, pb) in zip(a.balls, b.balls, strict=True):
        if ball_a != ball_b or math.dist(pa, pb) > tolerance:
            return False
    return True
