"""The referee's views as they were computed before they were made exact (sampled).

Kept only so that `benchmarks/bench_views.py` can time the exact views of rules/visibility.py
against them, and show where sampling misses a narrow view. Copied from rules/geometry.py as it
stood before the change; not used by the referee.

"Snookered from hand" samples about a hundred points of the D; "clear path" 25 lines per ball.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Final

from rules.table import (
    BALL_DIAMETER,
    BALL_RADIUS,
    BAULK_Y,
    D_CENTRE,
    D_RADIUS,
    JAWS,
    WHITE,
    Jaw,
    Point,
    in_d,
)

_EPS: Final = 1e-7
# Directions tried across a ball on when looking for a clear path (plus both extreme edges).
_PATH_SAMPLES: Final = 24


def gap(a: Point, b: Point) -> float:
    """Distance between the surfaces of two balls at these centres."""
    return math.hypot(a[0] - b[0], a[1] - b[1]) - BALL_DIAMETER


def _contact(start: Point, ux: float, uy: float, centre: Point) -> float | None:
    """How far the cue ball travels along (ux, uy) before it touches a ball at `centre`."""
    dx, dy = centre[0] - start[0], centre[1] - start[1]
    proj = dx * ux + dy * uy
    perp2 = dx * dx + dy * dy - proj * proj
    reach2 = BALL_DIAMETER * BALL_DIAMETER
    if perp2 >= reach2 - _EPS or proj <= 0:
        return None
    return max(0.0, proj - math.sqrt(reach2 - perp2))


def _hits_jaw(start: Point, ux: float, uy: float, length: float, jaw: Jaw) -> bool:
    """Does the cue ball touch this knuckle while its centre moves `length` along (ux, uy)?"""
    dx, dy = jaw.centre[0] - start[0], jaw.centre[1] - start[1]
    s = min(max(dx * ux + dy * uy, 0.0), length)
    px, py = start[0] + ux * s - jaw.centre[0], start[1] + uy * s - jaw.centre[1]
    return math.hypot(px, py) < jaw.radius + BALL_RADIUS - _EPS


def first_ball_along(
    start: Point, angle: float, balls: Mapping[str, Point]
) -> tuple[str, float] | None:
    """The ball the cue ball would touch first along this direction, and how far it travels."""
    ux, uy = math.cos(angle), math.sin(angle)
    best: tuple[str, float] | None = None
    for ball, centre in balls.items():
        if ball == WHITE:
            continue
        s = _contact(start, ux, uy, centre)
        if s is not None and (best is None or s < best[1]):
            best = (ball, s)
    return best


def _edge_angles(cue: Point, target: Point) -> tuple[float, float, float]:
    """Direction to the target's centre and its half-width as seen from the cue ball."""
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    dist = math.hypot(dx, dy)
    centre = math.atan2(dy, dx)
    half = math.asin(min(1.0, BALL_DIAMETER / dist)) if dist > 0 else math.pi / 2
    return centre, half, dist


def _line_free(
    cue: Point, angle: float, target: str, balls: Mapping[str, Point], blockers: Collection[str]
) -> bool:
    """Along this line the cue ball reaches `target` before touching any of `blockers`."""
    ux, uy = math.cos(angle), math.sin(angle)
    reach = _contact(cue, ux, uy, balls[target])
    if reach is None:
        return False
    for ball in blockers:
        if ball in (target, WHITE):
            continue
        s = _contact(cue, ux, uy, balls[ball])
        if s is not None and s < reach - _EPS:
            return False
    return True


def d_points(balls: Mapping[str, Point]) -> list[Point]:
    """Points of the D where the cue ball can be placed: the arc, the line and the inside."""
    points: list[Point] = []
    cx, cy = D_CENTRE
    for i in range(33):  # the arc, from the green spot round to the yellow spot
        a = math.pi + math.pi * i / 32
        points.append((cx + D_RADIUS * math.cos(a), cy + D_RADIUS * math.sin(a)))
    for i in range(1, 24):  # the baulk line
        points.append((cx - D_RADIUS + 2 * D_RADIUS * i / 24, BAULK_Y))
    for r in (73.0, 146.0, 219.0):  # the inside
        for i in range(1, 12):
            a = math.pi + math.pi * i / 12
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    points.append(D_CENTRE)
    occupied = [p for b, p in balls.items() if b != WHITE]
    return [p for p in points if in_d(p) and all(gap(p, q) >= 0 for q in occupied)]


def _cue_positions(balls: Mapping[str, Point], from_hand: bool) -> list[Point]:
    if from_hand:
        return d_points(balls)
    return [balls[WHITE]] if WHITE in balls else []


def snookered(balls: Mapping[str, Point], on: Collection[str], *, from_hand: bool) -> bool:
    """§15: no ball on can be hit at both extreme edges by lines free of balls not on.

    From hand the cue ball is snookered only if that holds from every point of the D.
    """
    targets = [b for b in on if b in balls]
    if not targets:
        return False
    blockers = [b for b in balls if b not in on and b != WHITE]
    for cue in _cue_positions(balls, from_hand):
        for target in targets:
            centre, half, _ = _edge_angles(cue, balls[target])
            inside = half * (1 - 1e-6)  # a hair inside each edge, so the line meets the ball
            if _line_free(cue, centre - inside, target, balls, blockers) and _line_free(
                cue, centre + inside, target, balls, blockers
            ):
                return False
    return True


def clear_path(
    balls: Mapping[str, Point], on: Collection[str], *, from_hand: bool, jaws: bool = True
) -> bool:
    """RULES.md §7: some straight line takes the cue ball to a ball on before anything else.

    With `jaws=False` the cushion knuckles are ignored (used to tell "angled" apart).
    """
    targets = [b for b in on if b in balls]
    for cue in _cue_positions(balls, from_hand):
        for target in targets:
            centre, half, _ = _edge_angles(cue, balls[target])
            for i in range(_PATH_SAMPLES + 1):
                angle = centre - half * (1 - 1e-6) + 2 * half * (1 - 1e-6) * i / _PATH_SAMPLES
                hit = first_ball_along(cue, angle, balls)
                if hit is None or hit[0] not in on:
                    continue
                ux, uy = math.cos(angle), math.sin(angle)
                if not jaws or not any(_hits_jaw(cue, ux, uy, hit[1], j) for j in JAWS):
                    return True
    return False


def angled(balls: Mapping[str, Point], on: Collection[str]) -> bool:
    """§16: no clear path to any ball on because of the jaws (the cue ball is on the table)."""
    if WHITE not in balls:
        return False
    return not clear_path(balls, on, from_hand=False) and clear_path(
        balls, on, from_hand=False, jaws=False
    )
