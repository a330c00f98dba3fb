"""Geometry the referee needs on the real table (RULES.md §7, §8; seed §12, §15–§18).

Every function takes plain positions (ball id -> (x, y) in mm) and the set of balls on, so the
referee can ask the same question of the position before a stroke, after it, or with a ball
taken away. Lines are the paths of the cue ball's centre; a ball is touched when the centres
come within a ball diameter. The views (snookered, clear path, angled) are decided exactly by
rules/visibility.py, from a point or from the whole D.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from typing import Final

from rules import visibility
from rules.table import (
    BALL_DIAMETER,
    BALL_RADIUS,
    COLOURS,
    HALF_LENGTH,
    JAWS,
    SPOTS,
    VALUES,
    WHITE,
    Point,
)
from rules.visibility import Circle

TOUCHING_GAP: Final = 0.5  # mm between surfaces: "touching ball" (RULES.md §7)
SPOT_CLEARANCE: Final = 0.01  # mm left between a spotted ball and the ball it would touch
_EPS: Final = 1e-7


def gap(a: Point, b: Point) -> float:
    """Distance between the surfaces of two balls at these centres."""
    return math.hypot(a[0] - b[0], a[1] - b[1]) - BALL_DIAMETER


def _circle(p: Point) -> Circle:
    """The circle round a ball that the cue ball's centre touches it on."""
    return (p[0], p[1], BALL_DIAMETER)


# The circles round the cushion knuckles that the cue ball's centre touches them on.
_JAW_CIRCLES: Final[tuple[Circle, ...]] = tuple(
    (j.centre[0], j.centre[1], j.radius + BALL_RADIUS) for j in JAWS
)


def _split(balls: Mapping[str, Point], on: Collection[str]) -> tuple[list[str], list[str]]:
    """The balls on present, and the other object balls."""
    targets = [b for b in balls if b in on and b != WHITE]
    others = [b for b in balls if b not in on and b != WHITE]
    return targets, others


def edges_view(
    balls: Mapping[str, Point], on: Collection[str], *, from_hand: bool
) -> tuple[str, Point] | None:
    """§15, RULES.md §7: a ball on, and a place of the cue ball (where it lies, or from hand
    anywhere in the D) from which that ball can be hit at both extreme edges by straight lines
    that touch no ball not on; None if there is none (the cue ball is snookered).

    Exact: from hand the D is searched analytically (rules/visibility.py), so a strip of the D
    however narrow from which both edges are in view is found."""
    targets, others = _split(balls, on)
    blockers = [_circle(balls[b]) for b in others]
    if not from_hand:
        cue = balls.get(WHITE)
        if cue is None:
            return None
        for target in targets:
            if visibility.both_edges_clear(cue, _circle(balls[target]), blockers):
                return target, cue
        return None
    occupants = [_circle(p) for b, p in balls.items() if b != WHITE]
    found = visibility.edges_from_d([_circle(balls[t]) for t in targets], blockers, occupants)
    return None if found is None else (targets[found[0]], found[1])


def snookered(balls: Mapping[str, Point], on: Collection[str], *, from_hand: bool) -> bool:
    """§15: no ball on can be hit at both extreme edges by lines free of balls not on.

    From hand the cue ball is snookered only if that holds from every point of the D."""
    if not any(b in on and b != WHITE for b in balls):
        return False
    return edges_view(balls, on, from_hand=from_hand) is None


def snookering_balls(balls: Mapping[str, Point], on: Collection[str]) -> frozenset[str]:
    """§15: the effective snookering ball(s) of the cue ball where it lies: of the balls that
    hide an extreme edge of a ball on (on each such line, the first the cue ball would touch),
    the nearest to the cue ball; all of them if equally near. Empty if not snookered.

    RULES.md §7: the cue ball is snookered behind the free ball when the free ball is one."""
    cue = balls.get(WHITE)
    targets, others = _split(balls, on)
    if cue is None or not targets:
        return frozenset()
    circles = [_circle(balls[b]) for b in others]
    hiding: set[str] = set()
    for target in targets:
        seen = 0
        for edge in visibility.edge_points(cue, _circle(balls[target])):
            first = visibility.first_blocker(cue, edge, circles)
            if first is None:
                seen += 1
            else:
                hiding.add(others[first])
        if seen == 2:
            return frozenset()
    nearest = min(math.dist(cue, balls[b]) for b in hiding)
    return frozenset(b for b in hiding if math.dist(cue, balls[b]) <= nearest + visibility.TOL)


def path_view(
    balls: Mapping[str, Point], on: Collection[str], *, from_hand: bool, jaws: bool = True
) -> tuple[Point, float] | None:
    """RULES.md §7: a place of the cue ball (where it lies, or anywhere in the D from hand)
    and a direction (radians) in which the first thing it touches is a ball on, not a jaw
    (unless `jaws` is False) or another ball; None if there is no clear path. Exact."""
    targets, others = _split(balls, on)
    # A ball on reached before every ball not on and every jaw: whatever is touched first is a
    # ball on (this one or another in front of it).
    obstacles = [_circle(balls[b]) for b in others] + (list(_JAW_CIRCLES) if jaws else [])
    if not from_hand:
        cue = balls.get(WHITE)
        if cue is None:
            return None
        for target in targets:
            angle = visibility.free_direction(cue, _circle(balls[target]), obstacles)
            if angle is not None:
                return cue, angle
        return None
    occupants = [_circle(p) for b, p in balls.items() if b != WHITE]
    return visibility.path_from_d([_circle(balls[t]) for t in targets], obstacles, occupants)


def clear_path(
    balls: Mapping[str, Point], on: Collection[str], *, from_hand: bool, jaws: bool = True
) -> bool:
    """RULES.md §7: some straight line takes the cue ball to a ball on before anything else.

    With `jaws=False` the cushion knuckles are ignored (used to tell "angled" apart)."""
    return path_view(balls, on, from_hand=from_hand, jaws=jaws) is not None


def angled(balls: Mapping[str, Point], on: Collection[str]) -> bool:
    """§16: no clear path to any ball on because of the jaws (the cue ball is on the table)."""
    if WHITE not in balls:
        return False
    return not clear_path(balls, on, from_hand=False) and clear_path(
        balls, on, from_hand=False, jaws=False
    )


def touching(balls: Mapping[str, Point], candidates: Iterable[str]) -> str | None:
    """§18: the ball (of those that are or could be on) the cue ball rests against, if any."""
    if WHITE not in balls:
        return None
    cue = balls[WHITE]
    best: tuple[float, str] | None = None
    for ball in candidates:
        if ball in balls and ball != WHITE:
            g = gap(cue, balls[ball])
            if g <= TOUCHING_GAP and (best is None or g < best[0]):
                best = (g, ball)
    return best[1] if best else None


def occupied(point: Point, balls: Mapping[str, Point]) -> bool:
    """§17: a ball cannot be placed here without touching another ball."""
    return any(gap(point, p) < _EPS for p in balls.values())


def _free_along(x: float, y0: float, direction: int, balls: Mapping[str, Point]) -> Point | None:
    """The nearest free point to (x, y0) on the vertical line through it, going one way."""
    limit = HALF_LENGTH - BALL_RADIUS
    reach = BALL_DIAMETER + SPOT_CLEARANCE
    candidates = [y0]
    for px, py in balls.values():
        dx = abs(px - x)
        if dx < reach:
            dy = math.sqrt(reach * reach - dx * dx)
            candidates += [py + dy, py - dy]
    for y in sorted(candidates, key=lambda c: abs(c - y0)):
        if (y - y0) * direction < -_EPS or abs(y) > limit:
            continue
        if not occupied((x, y), balls):
            return (x, y)
    return None


def spot_colours(balls: Mapping[str, Point], colours: Iterable[str]) -> list[tuple[str, Point]]:
    """§12: where each colour goes back, highest value first, each seeing the ones before it."""
    table = dict(balls)
    placed: list[tuple[str, Point]] = []
    for colour in sorted(colours, key=lambda c: -VALUES[c]):
        own = SPOTS[colour]
        spot: Point | None = None
        if not occupied(own, table):
            spot = own
        else:
            for other in sorted(COLOURS, key=lambda c: -VALUES[c]):
                if not occupied(SPOTS[other], table):
                    spot = SPOTS[other]
                    break
        if spot is None:
            spot = _free_along(own[0], own[1], +1, table) or _free_along(own[0], own[1], -1, table)
        if spot is None:  # a table too full to spot on: cannot happen with 22 balls
            raise RuntimeError(f"no room to spot {colour}")
        table[colour] = spot
        placed.append((colour, spot))
    return placed
