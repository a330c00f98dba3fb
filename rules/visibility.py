"""Exact views of the cue ball, from a point or from anywhere in the D (RULES.md §7, seed §15).

The cue ball's centre moves on straight lines. It touches an object ball when its centre comes
within a ball diameter of that ball's centre, and a jaw when it comes within the jaw's radius
plus a ball radius: every ball and jaw is a *circle* the centre may not enter. So every question
the referee asks about views is about lines and circles, and is decided exactly, never sampled:

- **From a point** (`free_direction`): the directions in which a ball is the first thing the
  cue ball touches are open intervals whose ends are tangents to circles, or directions to a
  point where two circles cross (where the order in which they are reached swaps). One direction
  inside each interval between consecutive such ends decides the whole interval.
- **From the D** (`walk`): the places from which a view exists form a region bounded by a
  finite set of curves (the D's arc and baulk line, the circles round the balls, and lines
  tangent to those circles). A region with any area has an edge on one of those curves; along
  a curve the answer can only change where it crosses another. So testing one point of every
  piece of every curve, cut at all its crossings inside the D, finds a place if there is one.

Every "yes" comes with its witness (a place, a direction), which the plain point tests of this
module confirm; tests hold the answers to a dense brute-force search.

A tolerance of `TOL` (a millionth of a millimetre) lets a path that grazes a circle pass, and
lets the cue ball be placed touching a ball, as a real cue ball can be.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from rules.table import BAULK_Y, D_CENTRE, D_RADIUS, Point

Circle = tuple[float, float, float]  # centre x, centre y, radius

TOL: Final = 1e-6  # mm: how far inside a circle a path must go to touch it
_TAU: Final = 2 * math.pi
_PIECE: Final = 1e-9  # pieces of a curve shorter than this (mm or radians) are not tested


# --- a path and a circle -----------------------------------------------------------------------
def blocks(p: Point, q: Point, c: Circle) -> bool:
    """Moving from p to q, the cue ball's centre goes inside circle c."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    wx, wy = c[0] - px, c[1] - py
    length2 = dx * dx + dy * dy
    t = (wx * dx + wy * dy) / length2 if length2 > 0 else 0.0
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    ex, ey = wx - t * dx, wy - t * dy
    reach = c[2] - TOL
    return ex * ex + ey * ey < reach * reach


def entry(p: Point, ux: float, uy: float, c: Circle) -> float | None:
    """How far the cue ball's centre travels from p along the unit direction (ux, uy) before it
    enters circle c; None if it never does (0 if it starts inside, heading into it)."""
    wx, wy = c[0] - p[0], c[1] - p[1]
    proj = wx * ux + wy * uy
    if proj <= 0:
        return None
    perp2 = wx * wx + wy * wy - proj * proj
    reach = c[2] - TOL
    if perp2 >= reach * reach:
        return None
    return max(0.0, proj - math.sqrt(max(0.0, c[2] * c[2] - perp2)))


def edge_points(p: Point, target: Circle) -> tuple[Point, Point]:
    """Where the cue ball's centre is when it just grazes the target at each extreme edge, seen
    from p (the two tangent points of the target's circle); p itself when it touches it."""
    cx, cy, r = target
    dx, dy = p[0] - cx, p[1] - cy
    d = math.hypot(dx, dy)
    if d <= r:
        return p, p
    beta = math.atan2(dy, dx)
    gamma = math.acos(r / d)
    a, b = beta + gamma, beta - gamma
    return (
        (cx + r * math.cos(a), cy + r * math.sin(a)),
        (cx + r * math.cos(b), cy + r * math.sin(b)),
    )


def both_edges_clear(p: Point, target: Circle, blockers: Sequence[Circle]) -> bool:
    """§15: from p the target can be hit at both extreme edges without touching a blocker."""
    left, right = edge_points(p, target)
    return not any(blocks(p, left, b) or blocks(p, right, b) for b in blockers)


def first_blocker(p: Point, q: Point, blockers: Sequence[Circle]) -> int | None:
    """Index of the blocker the cue ball's centre enters first on its way from p to q."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return None
    ux, uy = dx / length, dy / length
    best: tuple[float, int] | None = None
    for i, b in enumerate(blockers):
        if blocks(p, q, b):
            s = entry(p, ux, uy, b)
            s = 0.0 if s is None else s
            if best is None or s < best[0]:
                best = (s, i)
    return None if best is None else best[1]


def circle_crossings(a: Circle, b: Circle) -> list[Point]:
    """The points where two circles cross (none, one or two)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d == 0 or d > a[2] + b[2] or d < abs(a[2] - b[2]):
        return []
    along = (a[2] * a[2] - b[2] * b[2] + d * d) / (2 * d)
    h = math.sqrt(max(0.0, a[2] * a[2] - along * along))
    mx, my = a[0] + along * dx / d, a[1] + along * dy / d
    return [(mx - h * dy / d, my + h * dx / d), (mx + h * dy / d, my - h * dx / d)]


def _wrap(a: float) -> float:
    """An angle in (-pi, pi]."""
    a = math.fmod(a, _TAU)
    if a > math.pi:
        a -= _TAU
    elif a <= -math.pi:
        a += _TAU
    return a


def free_direction(p: Point, target: Circle, others: Sequence[Circle]) -> float | None:
    """A direction (radians) in which the cue ball at p touches `target` before entering any of
    `others`, or None if there is none. Exact: see the module's docstring."""
    px, py = p
    cx, cy, r = target
    d = math.hypot(cx - px, cy - py)
    centre = math.atan2(cy - py, cx - px)
    if d <= r + TOL:
        return centre  # already touching it
    half = math.asin(r / d)
    near: list[tuple[float, float, Circle]] = []  # each obstacle's directions, and itself
    front: list[tuple[float, float]] = []
    cuts = [-half, half]
    for o in others:
        ox, oy, orad = o
        od = math.hypot(ox - px, oy - py)
        if od - orad >= d:
            continue  # reached, if at all, only after the target
        oh = math.asin(orad / od) if od > orad else math.pi / 2
        oc = _wrap(math.atan2(oy - py, ox - px) - centre)
        if oc + oh <= -half or oc - oh >= half:
            continue
        near.append((oc - oh, oc + oh, o))
        if od < d - r:  # wholly nearer than the target: it blocks every direction it covers
            front.append((oc - oh, oc + oh))
        cuts += [oc - oh, oc + oh]
        for x in circle_crossings(target, o):
            cuts.append(_wrap(math.atan2(x[1] - py, x[0] - px) - centre))
    front.sort()
    edge = -half
    for lo, hi in front:
        if lo > edge:
            break
        edge = max(edge, hi)
    if edge >= half:
        return None
    cuts = sorted(c for c in cuts if -half <= c <= half)
    for a, b in pairwise(cuts):
        if b - a <= 1e-12:
            continue
        mid = (a + b) / 2
        if any(lo < mid < hi for lo, hi in front):
            continue
        angle = centre + mid
        ux, uy = math.cos(angle), math.sin(angle)
        reach = entry(p, ux, uy, target)
        if reach is None:
            continue
        if all(
            not lo < mid < hi or (s := entry(p, ux, uy, o)) is None or s >= reach
            for lo, hi, o in near
        ):
            return angle
    return None


# --- lines tangent to circles ------------------------------------------------------------------
Ray = tuple[Point, Point]  # a point on a line and its unit direction


def common_tangents(a: Circle, b: Circle) -> list[Ray]:
    """The lines tangent to both circles (up to four)."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    rho = math.hypot(vx, vy)
    if rho == 0:
        return []
    theta = math.atan2(vy, vx)
    lines: list[Ray] = []
    for sign in (1.0, -1.0):  # the same side of both circles, or opposite sides
        delta = sign * b[2] - a[2]
        if abs(delta) > rho:
            continue
        spread = math.acos(delta / rho)
        for phi in (theta + spread, theta - spread):
            nx, ny = math.cos(phi), math.sin(phi)
            lines.append(((a[0] - a[2] * nx, a[1] - a[2] * ny), (-ny, nx)))
    return lines


def tangent_at(c: Circle, x: Point) -> Ray:
    """The line tangent to circle c at its point x."""
    nx, ny = x[0] - c[0], x[1] - c[1]
    n = math.hypot(nx, ny) or 1.0
    return x, (-ny / n, nx / n)


def tangents_through(x: Point, c: Circle) -> list[Ray]:
    """The lines through x tangent to circle c (none if x is inside it)."""
    dx, dy = x[0] - c[0], x[1] - c[1]
    d = math.hypot(dx, dy)
    if d < c[2]:
        return []
    if d - c[2] <= TOL:
        return [tangent_at(c, x)]
    base, spread = math.atan2(dy, dx), math.acos(c[2] / d)
    lines: list[Ray] = []
    for a in (base + spread, base - spread):
        tx, ty = c[0] + c[2] * math.cos(a), c[1] + c[2] * math.sin(a)
        length = math.hypot(tx - x[0], ty - x[1])
        lines.append((x, ((tx - x[0]) / length, (ty - x[1]) / length)))
    return lines


def tangent_angle_circles(target: Circle, other: Circle) -> list[float]:
    """The angles (of the point of tangency on `target`) of the lines tangent to `target` that
    also touch `other`, or whose point of tangency lies on `other`'s circle: where, seen from
    anywhere along such a line, `other` starts or stops hiding one of the target's edges."""
    vx, vy = other[0] - target[0], other[1] - target[1]
    rho = math.hypot(vx, vy)
    if rho == 0:
        return []
    theta = math.atan2(vy, vx)
    rt, ro = target[2], other[2]
    angles: list[float] = []
    for level in (rt + ro, rt - ro):  # the line tangent to both circles
        if abs(level) <= rho:
            spread = math.acos(level / rho)
            angles += [theta + spread, theta - spread]
    cos_on = (rt * rt + rho * rho - ro * ro) / (2 * rt * rho)  # the tangency point on `other`
    if abs(cos_on) <= 1:
        spread = math.acos(cos_on)
        angles += [theta + spread, theta - spread]
    return angles


def in_hull(q: Point, a: Circle, b: Circle) -> bool:
    """q lies in the convex hull of two discs (the union of the discs between them)."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(vx, vy)
    if length <= abs(b[2] - a[2]):
        big = a if a[2] >= b[2] else b
        return math.hypot(q[0] - big[0], q[1] - big[1]) <= big[2]
    ex, ey = vx / length, vy / length
    wx, wy = q[0] - a[0], q[1] - a[1]
    along, across = wx * ex + wy * ey, abs(wx * ey - wy * ex)
    k = (b[2] - a[2]) / length
    s = min(max(along + k * across / math.sqrt(1 - k * k), 0.0), length)
    return math.hypot(along - s, across) <= a[2] + s * k


# --- curves through the D and the walk along them ----------------------------------------------
@dataclass(frozen=True, slots=True)
class Line:
    """The part of a straight line with parameter in [lo, hi] (millimetres from `origin`)."""

    origin: Point
    direction: Point
    lo: float
    hi: float

    def at(self, t: float) -> Point:
        return (self.origin[0] + t * self.direction[0], self.origin[1] + t * self.direction[1])

    def param(self, p: Point) -> float:
        return (p[0] - self.origin[0]) * self.direction[0] + (p[1] - self.origin[1]) * (
            self.direction[1]
        )


@dataclass(frozen=True, slots=True)
class Arc:
    """The part of a circle with angle in [lo, hi] (radians, lo <= hi <= lo + 2 pi)."""

    circle: Circle
    lo: float = 0.0
    hi: float = _TAU

    def at(self, t: float) -> Point:
        cx, cy, r = self.circle
        return (cx + r * math.cos(t), cy + r * math.sin(t))

    def param(self, p: Point) -> float:
        a = math.atan2(p[1] - self.circle[1], p[0] - self.circle[0])
        while a < self.lo - 1e-12:
            a += _TAU
        return a


Curve = Line | Arc

D_CIRCLE: Final[Circle] = (D_CENTRE[0], D_CENTRE[1], D_RADIUS)
D_ARC: Final = Arc(D_CIRCLE, math.pi, _TAU)
BAULK_SEGMENT: Final = Line((D_CENTRE[0] - D_RADIUS, BAULK_Y), (1.0, 0.0), 0.0, 2 * D_RADIUS)


def near_d(p: Point, slack: float = 1e-6) -> bool:
    """p lies in the D (the line and the arc included), give or take `slack`."""
    return (
        p[1] <= BAULK_Y + slack
        and math.hypot(p[0] - D_CENTRE[0], p[1] - D_CENTRE[1]) <= D_RADIUS + slack
    )


def line_through_d(ray: Ray) -> Line | None:
    """The chord of a line across the D's circle, or None if it misses it."""
    (ox, oy), (ux, uy) = ray
    wx, wy = ox - D_CENTRE[0], oy - D_CENTRE[1]
    b = wx * ux + wy * uy
    disc = b * b - (wx * wx + wy * wy - D_RADIUS * D_RADIUS)
    if disc <= 0:
        return None
    root = math.sqrt(disc)
    return Line((ox, oy), (ux, uy), -b - root, -b + root)


def arc_in_d(c: Circle) -> Arc | None:
    """A circle round a ball, if it reaches into the D."""
    gap = math.hypot(c[0] - D_CENTRE[0], c[1] - D_CENTRE[1])
    if gap > D_RADIUS + c[2] or c[1] - c[2] > BAULK_Y:
        return None
    return Arc(c)


def meet(a: Curve, b: Curve) -> list[Point]:
    """Where two curves cross, taken whole (full lines and full circles)."""
    if isinstance(a, Line) and isinstance(b, Line):
        (ox, oy), (ux, uy) = a.origin, a.direction
        (px, py), (vx, vy) = b.origin, b.direction
        cross = ux * vy - uy * vx
        if abs(cross) < 1e-15:
            return []
        t = ((px - ox) * vy - (py - oy) * vx) / cross
        return [(ox + t * ux, oy + t * uy)]
    if isinstance(a, Arc) and isinstance(b, Arc):
        return circle_crossings(a.circle, b.circle)
    line, arc = (a, b) if isinstance(a, Line) else (b, a)
    assert isinstance(line, Line) and isinstance(arc, Arc)
    (ox, oy), (ux, uy) = line.origin, line.direction
    cx, cy, r = arc.circle
    wx, wy = ox - cx, oy - cy
    half_b = wx * ux + wy * uy
    disc = half_b * half_b - (wx * wx + wy * wy - r * r)
    if disc < 0:
        return []
    root = math.sqrt(disc)
    return [(ox + t * ux, oy + t * uy) for t in (-half_b - root, -half_b + root)]


def walk(
    curves: Sequence[Curve], cutters: Sequence[Curve], ok: Callable[[Point], bool]
) -> Point | None:
    """A point of the D where `ok` holds, or None if there is none with any area round it.

    Each curve of `curves` is cut at its crossings, inside the D, with every other curve of
    `curves` and `cutters`, and `ok` is asked at the middle of each piece. This is complete when
    the region where `ok` holds (in the D) is bounded by pieces of these curves (and the caller
    walks every curve that can carry its edge)."""
    cuts: list[list[float]] = [[c.lo, c.hi] for c in curves]
    for i, c in enumerate(curves):
        for j in range(i + 1, len(curves)):
            other = curves[j]
            for x in meet(c, other):
                if near_d(x):
                    cuts[i].append(c.param(x))
                    cuts[j].append(other.param(x))
        for other in cutters:
            for x in meet(c, other):
                if near_d(x):
                    cuts[i].append(c.param(x))
    for c, ts in zip(curves, cuts, strict=True):
        ts = sorted(t for t in ts if c.lo <= t <= c.hi)
        for a, b in pairwise(ts):
            if b - a > _PIECE:
                p = c.at((a + b) / 2)
                if ok(p):
                    return p
    return None


# A few places to look first: most positions are decided by one of them.
QUICK_D_POINTS: Final[tuple[Point, ...]] = tuple(
    (D_CENTRE[0] + r * math.cos(a), D_CENTRE[1] + r * math.sin(a))
    for r, a in (
        (146.0, -math.pi / 2), (146.0, -math.pi / 6), (146.0, -5 * math.pi / 6),
        (250.0, -math.pi / 2), (250.0, -math.pi / 10), (250.0, -9 * math.pi / 10),
        (60.0, -math.pi / 2),
    )
)  # fmt: skip


def placeable(p: Point, occupants: Sequence[Circle]) -> bool:
    """The cue ball may rest at p (in the D, touching but not overlapping any ball)."""
    if not near_d(p, 1e-9):
        return False
    for ox, oy, r in occupants:
        reach = r - TOL
        dx, dy = p[0] - ox, p[1] - oy
        if dx * dx + dy * dy < reach * reach:
            return False
    return True


def edges_from_d(
    targets: Sequence[Circle], blockers: Sequence[Circle], occupants: Sequence[Circle]
) -> tuple[int, Point] | None:
    """A target (its index) and a place in the D, clear of `occupants`, from which both extreme
    edges of that target are in view past `blockers`; None if there is none (§15 from hand,
    RULES.md §7). A few places are tried for every target before any target is searched."""
    inside = [o for o in occupants if arc_in_d(o) is not None]
    near = [[b for b in blockers if _between(b, t)] for t in targets]
    for p in QUICK_D_POINTS:
        if placeable(p, inside):
            for i, t in enumerate(targets):
                if both_edges_clear(p, t, near[i]):
                    return i, p
    for i, t in enumerate(targets):
        place = _edges_walk(t, near[i], inside)
        if place is not None:
            return i, place
    return None


def _between(obstacle: Circle, target: Circle) -> bool:
    """The obstacle can touch a path from the D to the target's circle."""
    return in_hull(obstacle[:2], _grown(D_CIRCLE, obstacle[2]), _grown(target, obstacle[2]))


def _edges_walk(
    target: Circle, relevant: Sequence[Circle], inside: Sequence[Circle]
) -> Point | None:
    """The search of `edges_from_d` for one target. The region's edges lie on the D, on the
    circles round the balls in it, and on the lines tangent to the target's circle where a
    blocker starts or stops hiding an edge."""

    def ok(p: Point) -> bool:
        return placeable(p, inside) and both_edges_clear(p, target, relevant)

    curves: list[Curve] = [D_ARC, BAULK_SEGMENT]
    curves += [Arc(o) for o in inside]
    for b in relevant:
        for phi in tangent_angle_circles(target, b):
            nx, ny = math.cos(phi), math.sin(phi)
            ray = ((target[0] + target[2] * nx, target[1] + target[2] * ny), (-ny, nx))
            line = line_through_d(ray)
            if line is not None:
                curves.append(line)
    return walk(curves, (), ok)


def _grown(c: Circle, by: float) -> Circle:
    return (c[0], c[1], c[2] + by)


def path_from_d(
    targets: Sequence[Circle], obstacles: Sequence[Circle], occupants: Sequence[Circle]
) -> tuple[Point, float] | None:
    """A place in the D, clear of `occupants`, and a direction from it in which the first thing
    the cue ball touches is one of `targets` (before any of `obstacles`); None if there is none
    (RULES.md §7, clear path from hand).

    A free path from the D can always be shortened to start where it leaves the D (or where it
    meets the target's circle), so only the D's edge and the targets' circles are walked. The
    places on them that see a target are bounded by the circles round the balls and by lines
    tangent to two circles (a target's and an obstacle's, or two obstacles' where the line
    reaches a target), or tangent at, or passing through, a point where a target's circle
    crosses an obstacle's."""
    near = [[o for o in obstacles if _between(o, t)] for t in targets]
    inside = [o for o in occupants if arc_in_d(o) is not None]

    def sight(p: Point) -> float | None:
        # A target reached before every obstacle: whatever is touched first is a target (this
        # one or another in front of it), so the other targets need not be looked at.
        if not placeable(p, inside):
            return None
        for i, t in enumerate(targets):
            angle = free_direction(p, t, near[i])
            if angle is not None:
                return angle
        return None

    # First, a line at the middle of each target from a few places: it usually gets there.
    for p in QUICK_D_POINTS:
        if placeable(p, inside):
            for i, t in enumerate(targets):
                middle = math.atan2(t[1] - p[1], t[0] - p[0])
                if _reaches_first(p, middle, t, near[i]):
                    return p, middle
    for p in QUICK_D_POINTS:
        angle = sight(p)
        if angle is not None:
            return p, angle
    walked: list[Curve] = [D_ARC, BAULK_SEGMENT]
    walked += [arc for t in targets if (arc := arc_in_d(t)) is not None]
    cutters: list[Curve] = [Arc(o) for o in inside]
    rays: list[Ray] = []
    relevant = sorted({o for group in near for o in group})
    crossings: list[Point] = []
    for t, group in zip(targets, near, strict=True):
        for o in group:
            rays += common_tangents(t, o)
            for x in circle_crossings(t, o):
                crossings.append(x)
                rays += [tangent_at(t, x), tangent_at(o, x)]
    for i, a in enumerate(relevant):
        for b in relevant[i + 1 :]:
            rays += [ray for ray in common_tangents(a, b) if any(_meets(ray, t) for t in targets)]
    circles = relevant + list(targets)
    for i, x in enumerate(crossings):
        for c in circles:
            rays += tangents_through(x, c)
        for y in crossings[i + 1 :]:
            length = math.hypot(y[0] - x[0], y[1] - x[1])
            if length > 0:
                rays.append((x, ((y[0] - x[0]) / length, (y[1] - x[1]) / length)))
    cutters += [line for ray in rays if (line := line_through_d(ray)) is not None]

    def ok(p: Point) -> bool:
        return sight(p) is not None

    found = walk(walked, cutters, ok)
    if found is None:
        return None
    direction = sight(found)
    assert direction is not None
    return found, direction


def _reaches_first(p: Point, angle: float, target: Circle, obstacles: Sequence[Circle]) -> bool:
    """Along this direction the cue ball reaches the target before any of the obstacles."""
    ux, uy = math.cos(angle), math.sin(angle)
    reach = entry(p, ux, uy, target)
    return reach is not None and all(
        (s := entry(p, ux, uy, o)) is None or s >= reach for o in obstacles
    )


def _meets(ray: Ray, c: Circle) -> bool:
    """The line comes within (or just touches) circle c."""
    (ox, oy), (ux, uy) = ray
    return abs((c[0] - ox) * uy - (c[1] - oy) * ux) <= c[2] + TOL
