"""The public API of the physics: a `Strike` in, a `ShotResult` out (docs/physics.md)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from rules.table import BALL_IDS, WHITE

from . import engine as E
from .constants import (
    DEFAULT_MAX_EVENTS,
    DEFAULT_MAX_TIME,
    FIRST_CONTACT_TOLERANCE,
    MAX_SPEED,
    MISCUE_LIMIT,
    ROLL_DECEL,
    SLIDE_DECEL,
    SPIN_DECEL,
    SQUIRT_MASS_RATIO,
    R,
)
from .geometry import on_surface
from .records import Event, EventKind, Motion, Point, Segment

_MOTION_CODE: Final = {m: k for k, m in enumerate(Motion)}  # the JSON form's codes


@dataclass(frozen=True, slots=True)
class Strike:
    """One stroke of the cue, level cue (no swerve), with squirt.

    cue_ball: where the cue ball rests (mm). angle: direction of the cue, radians, 0 = +x,
    π/2 = +y (towards the top cushion); side squirts the cue ball off it (`squirt`).
    speed: cue-ball speed just after the strike,
    m/s, 0 < speed ≤ 10. side: tip offset to the striker's right as a fraction of R (right
    hand side, which spins the ball anticlockwise seen from above, ωz > 0); height: tip offset
    above centre as a fraction of R (+ topspin, - screw). √(side² + height²) ≤ 0.5 (miscue).
    """

    cue_ball: Point
    angle: float
    speed: float
    side: float = 0.0
    height: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (
            ("angle", self.angle),
            ("speed", self.speed),
            ("side", self.side),
            ("height", self.height),
            ("cue_ball.x", self.cue_ball[0]),
            ("cue_ball.y", self.cue_ball[1]),
        ):
            if not math.isfinite(value):
                raise ValueError(f"Strike.{name} must be finite, got {value!r}")
        if not 0.0 < self.speed <= MAX_SPEED:
            raise ValueError(f"Strike.speed must be in (0, {MAX_SPEED}] m/s, got {self.speed}")
        if math.hypot(self.side, self.height) > MISCUE_LIMIT + 1e-12:
            raise ValueError(
                f"tip offset (side={self.side}, height={self.height}) is beyond the miscue "
                f"limit {MISCUE_LIMIT} R"
            )

    def squirt(self) -> float:
        """How far side turns the cue ball off the cue's line, radians (positive:
        anticlockwise). Alciatore TP A.31: tan α = 5/2·s·√(1−s²) / (1 + m/me + 5/2·(1−s²)),
        s the side offset over R; right-hand side (s > 0) pushes the ball to the left."""
        s = self.side
        c2 = 1.0 - s * s
        return math.atan2(2.5 * s * math.sqrt(c2), 1.0 + SQUIRT_MASS_RATIO + 2.5 * c2)

    def launch(self) -> tuple[float, float, float, float, float]:
        """Cue-ball (vx, vy) in mm/s and spin (ωx, ωy, ωz) in rad/s just after the strike.

        An impulse J at the tip contact r (Alciatore TP A.30, level cue): v = J/m along d, the
        cue's line turned by the squirt, and ω = r × J / I with I = 2/5 m R², so
        ω = 5 v / (2R) · (height·(ẑ×d) + side·ẑ): the top or back spin is about the ball's own
        direction, so a sliding ball runs straight.
        """
        v = self.speed * 1000.0
        direction = self.angle + self.squirt()
        dx = math.cos(direction)
        dy = math.sin(direction)
        k = 2.5 * v / R
        return v * dx, v * dy, -k * self.height * dy, k * self.height * dx, k * self.side


@dataclass(frozen=True, slots=True)
class ShotResult:
    events: tuple[Event, ...]
    first_contact: tuple[str, ...]
    potted: tuple[str, ...]
    positions: Mapping[str, Point]  # at rest, balls still on the table, ids sorted
    closest_approach: Mapping[str, float]  # object ball -> smallest gap to the cue ball, mm
    trajectories: Mapping[str, tuple[Segment, ...]]  # every ball that moved
    truncated: bool
    duration: float

    def to_json(self) -> dict[str, Any]:
        """A compact form for the browser (docs/physics.md, "JSON form").

        `trajectories` maps each ball that moved to rows, one a segment:
        sliding [t0, 0, x0, y0, vx, vy, wx, wy, wz], rolling [t0, 1, x0, y0, vx, vy, wz],
        spinning [t0, 2, x0, y0, wz], at rest [t0, 3, x0, y0], pocketed [t0, 4, x0, y0];
        a trailing 0 is dropped. The accelerations follow from `constants`: sliding
        a = -slide_decel·û, û the unit slip (vx − R·wy, vy + R·wx); rolling a = -roll_decel·v̂;
        dωx,y = (5/2R)·(ay, −ax) while sliding, (−ay, ax)/R while rolling; ωz moves towards 0
        at spin_decel and stops there. A segment lasts until the next row's t0.
        """
        trajectories: dict[str, list[list[float]]] = {}
        for ball, segments in self.trajectories.items():
            rows: list[list[float]] = []
            for s in segments:
                code = _MOTION_CODE[s.motion]
                row: list[float] = [round(s.t0, 5), code, round(s.x0, 2), round(s.y0, 2)]
                if code <= 1:
                    row += [round(s.vx, 2), round(s.vy, 2)]
                if code == 0:
                    row += [round(s.wx, 2), round(s.wy, 2)]
                if code <= 2:
                    row.append(round(s.wz, 2))
                    if row[-1] == 0:
                        row.pop()
                rows.append([_compact(v) for v in row])
            trajectories[ball] = rows
        return {
            "constants": {
                "R": R,
                "slide_decel": SLIDE_DECEL,
                "roll_decel": ROLL_DECEL,
                "spin_decel": round(SPIN_DECEL, 6),
            },
            "duration": round(self.duration, 5),
            "truncated": self.truncated,
            "first_contact": list(self.first_contact),
            "potted": list(self.potted),
            "positions": {b: [round(p[0], 2), round(p[1], 2)] for b, p in self.positions.items()},
            "closest_approach": {b: round(g, 2) for b, g in self.closest_approach.items()},
            "events": [
                [round(e.time, 5), e.kind.value, *e.balls] + ([e.where] if e.where else [])
                for e in self.events
                if e.kind in _LOGGED
            ],
            "trajectories": trajectories,
        }


_LOGGED: Final = frozenset(
    {EventKind.BALL_BALL, EventKind.BALL_CUSHION, EventKind.BALL_JAW, EventKind.POCKET}
)


def _compact(v: float) -> float:
    """-0.0 -> 0 and integral floats as ints, to keep the JSON short."""
    if v == int(v) and abs(v) < 1e15:
        return int(v)
    return v


def simulate(
    balls: Mapping[str, Point],
    strike: Strike,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
    max_time: float = DEFAULT_MAX_TIME,
    closest: bool = True,
) -> ShotResult:
    """Play one stroke: `balls` maps ball ids to resting centres (mm); the cue ball is
    `white` at `strike.cue_ball` (a `white` in `balls` is overridden). Without `closest` the
    closest approaches are left out (a quarter of the time of an everyday stroke; the
    computer's search, which needs no miss calls, plays thousands).

    Raises ValueError for an unknown id, a ball off the playing surface or two balls that
    overlap. Deterministic: the same input gives bit-identical output in any process.
    """
    if max_events < 1 or not max_time > 0.0:
        raise ValueError("max_events and max_time must be positive")
    layout = dict(balls)
    layout[WHITE] = strike.cue_ball
    ids = sorted(layout)
    for ball in ids:
        if ball not in BALL_IDS:
            raise ValueError(f"unknown ball id {ball!r}")
        p = layout[ball]
        if not on_surface(p):
            raise ValueError(f"{ball} at {p} is not on the playing surface")
    points = [(float(layout[b][0]), float(layout[b][1])) for b in ids]
    for a in range(len(ids)):
        for b in range(a + 1, len(ids)):
            gap = math.dist(points[a], points[b]) - 2.0 * R
            if gap < -1e-6:
                raise ValueError(f"{ids[a]} at {points[a]} and {ids[b]} at {points[b]} overlap")
    start: list[E.Seg] = []
    for ball, (x, y) in zip(ids, points, strict=True):
        if ball == WHITE:
            vx, vy, wx, wy, wz = strike.launch()
            start.append(E.make_segment(0.0, x, y, vx, vy, wx, wy, wz))
        else:
            start.append(E.rest_segment(0.0, x, y, 0.0))
    return _result(ids, points, E.run(ids, start, max_events, max_time), closest)


def _result(ids: list[str], points: list[Point], run: E.Run, closest: bool = True) -> ShotResult:
    """The result of `run`; `points` are where the balls `ids` started."""
    potted: list[str] = []
    touched: set[str] = set()
    first: list[str] = []
    first_time = math.inf
    for e in run.events:
        if e.kind is EventKind.BALL_BALL and WHITE in e.balls:
            other = e.balls[1] if e.balls[0] == WHITE else e.balls[0]
            touched.add(other)
            if not first:
                first = [other]
                first_time = e.time
            elif (
                len(first) == 1
                and other != first[0]
                and e.time - first_time <= FIRST_CONTACT_TOLERANCE
            ):
                first.append(other)
        elif e.kind is EventKind.POCKET:
            potted.append(e.balls[0])

    positions_at_rest: dict[str, Point] = {}
    for ball, p in zip(ids, points, strict=True):
        segments = run.trajectories.get(ball)
        if segments is None:
            positions_at_rest[ball] = p
            continue
        last = segments[-1]
        if last.motion is not Motion.POCKETED:
            positions_at_rest[ball] = (
                last.position(run.duration) if run.truncated else (last.x0, last.y0)
            )
    cue = run.trajectories.get(WHITE)
    cue_at = points[ids.index(WHITE)]
    gaps: dict[str, float] = {}
    for ball, p in zip(ids, points, strict=True):
        if ball == WHITE or not closest:
            continue
        path = run.trajectories.get(ball)
        if ball in touched:
            gaps[ball] = 0.0
        elif cue is None:  # a strike too soft to move the cue ball: no ball moved
            dx = p[0] - cue_at[0]
            dy = p[1] - cue_at[1]
            gaps[ball] = max(0.0, math.sqrt(dx * dx + dy * dy) - 2.0 * R)
        elif path is None:
            gaps[ball] = _closest_to(cue, p)
        else:
            gaps[ball] = _closest(cue, path, run.duration)
    return ShotResult(
        events=run.events,
        first_contact=tuple(first),
        potted=tuple(potted),
        positions=MappingProxyType(positions_at_rest),
        closest_approach=MappingProxyType(gaps),
        trajectories=MappingProxyType(run.trajectories),
        truncated=run.truncated,
        duration=run.duration,
    )


def _closest_to(cue: tuple[Segment, ...], p: Point) -> float:
    """Smallest surface-to-surface gap between the cue ball, while on the table, and a ball
    that stayed at p (mm)."""
    best = math.inf
    for sc in cue:
        if sc.motion is Motion.POCKETED:
            break
        h = sc.t1 - sc.t0
        vx = sc.vx
        vy = sc.vy
        ax = sc.ax
        ay = sc.ay
        cx = p[0] - sc.x0
        cy = p[1] - sc.y0
        if math.hypot(cx, cy) - math.hypot(vx, vy) * h - 0.5 * math.hypot(ax, ay) * h * h < best:
            best = min(best, E.min_distance(cx, cy, -vx, -vy, -0.5 * ax, -0.5 * ay, h))
    return max(0.0, best - 2.0 * R)


def _closest(cue: tuple[Segment, ...], obj: tuple[Segment, ...], duration: float) -> float:
    """Smallest surface-to-surface gap between the cue ball and an object ball that moved,
    while both are on the table (mm)."""
    best = math.inf
    times = sorted({s.t0 for s in cue} | {s.t0 for s in obj} | {duration})
    ci = 0
    oi = 0
    for a, b in itertools.pairwise(times):
        while ci + 1 < len(cue) and cue[ci + 1].t0 <= a:
            ci += 1
        while oi + 1 < len(obj) and obj[oi + 1].t0 <= a:
            oi += 1
        sc = cue[ci]
        so = obj[oi]
        if sc.motion is Motion.POCKETED or so.motion is Motion.POCKETED:
            break
        xc, yc = sc.position(a)
        xo, yo = so.position(a)
        vxc, vyc = sc.velocity(a)
        vxo, vyo = so.velocity(a)
        cx = xo - xc
        cy = yo - yc
        bx = vxo - vxc
        by = vyo - vyc
        ax = 0.5 * (so.ax - sc.ax)
        ay = 0.5 * (so.ay - sc.ay)
        h = b - a
        lower = math.hypot(cx, cy) - math.hypot(bx, by) * h - math.hypot(ax, ay) * h * h
        if lower >= best:
            continue
        best = min(best, E.min_distance(cx, cy, bx, by, ax, ay, h))
    if best == math.inf:  # the cue ball fell at once: the start is all there is
        best = math.dist((cue[0].x0, cue[0].y0), (obj[0].x0, obj[0].y0))
    return max(0.0, best - 2.0 * R)
