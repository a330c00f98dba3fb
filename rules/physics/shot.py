"""The public API of the physics: a `Strike` in, a `ShotResult` out (docs/physics.md)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
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
    R,
)
from .geometry import FALLS, KNUCKLES, RAILS, on_surface

Point = tuple[float, float]


class EventKind(StrEnum):
    BALL_BALL = "ball_ball"
    BALL_CUSHION = "ball_cushion"
    BALL_JAW = "ball_jaw"
    POCKET = "pocket"
    SLIDING_TO_ROLLING = "sliding_to_rolling"
    SLIDING_TO_REST = "sliding_to_rest"  # the slide ended with no speed left (may still spin)
    ROLLING_TO_REST = "rolling_to_rest"  # stops moving; may still spin in place
    SPIN_TO_REST = "spin_to_rest"  # a ball spinning in place stops spinning


class Motion(StrEnum):
    SLIDING = "sliding"
    ROLLING = "rolling"
    SPINNING = "spinning"
    STATIONARY = "stationary"
    POCKETED = "pocketed"


_KINDS: Final = {
    E.EV_BALL_BALL: EventKind.BALL_BALL,
    E.EV_CUSHION: EventKind.BALL_CUSHION,
    E.EV_JAW: EventKind.BALL_JAW,
    E.EV_POCKET: EventKind.POCKET,
    E.EV_SLIDE_ROLL: EventKind.SLIDING_TO_ROLLING,
    E.EV_SLIDE_REST: EventKind.SLIDING_TO_REST,
    E.EV_ROLL_REST: EventKind.ROLLING_TO_REST,
    E.EV_SPIN_REST: EventKind.SPIN_TO_REST,
}
_MOTIONS: Final = (
    Motion.SLIDING, Motion.ROLLING, Motion.SPINNING, Motion.STATIONARY, Motion.POCKETED,
)  # fmt: skip
_MOTION_CODE: Final = {m: k for k, m in enumerate(_MOTIONS)}


@dataclass(frozen=True, slots=True)
class Strike:
    """One stroke of the cue, level cue, no squirt or swerve.

    cue_ball: where the cue ball rests (mm). angle: direction of the cue ball, radians,
    0 = +x, π/2 = +y (towards the top cushion). speed: cue-ball speed just after the strike,
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

    def launch(self) -> tuple[float, float, float, float, float]:
        """Cue-ball (vx, vy) in mm/s and spin (ωx, ωy, ωz) in rad/s just after the strike.

        An impulse J along the cue at the tip contact r (Alciatore TP A.30, level cue):
        v = J/m, ω = r × J / I with I = 2/5 m R², so ω = 5 v / (2R) · (height·(ẑ×d) + side·ẑ).
        """
        v = self.speed * 1000.0
        dx = math.cos(self.angle)
        dy = math.sin(self.angle)
        k = 2.5 * v / R
        return v * dx, v * dy, -k * self.height * dy, k * self.height * dx, k * self.side


@dataclass(frozen=True, slots=True)
class Event:
    """One event of a stroke. `balls` are the ids involved (two for ball_ball), `positions`
    their centres at that instant, `where` names the cushion (ball_cushion) or the pocket
    (ball_jaw: the pocket whose jaw was hit; pocket: the pocket it fell into)."""

    time: float
    kind: EventKind
    balls: tuple[str, ...]
    positions: tuple[Point, ...]
    where: str = ""


@dataclass(frozen=True, slots=True)
class Segment:
    """A closed-form piece of one ball's motion, valid for t0 <= t <= t1 (seconds):
    p(t) = p0 + v·(t−t0) + ½·a·(t−t0)², ωx,y(t) = ω0 + dω·(t−t0), and
    ωz(t) = ωz0 + dωz·(t−t0) until it reaches 0, then 0."""

    t0: float
    t1: float
    motion: Motion
    x0: float
    y0: float
    vx: float
    vy: float
    ax: float
    ay: float
    wx: float
    wy: float
    wz: float
    dwx: float
    dwy: float
    dwz: float

    def position(self, t: float) -> Point:
        tau = t - self.t0
        return (
            self.x0 + (self.vx + 0.5 * self.ax * tau) * tau,
            self.y0 + (self.vy + 0.5 * self.ay * tau) * tau,
        )

    def velocity(self, t: float) -> Point:
        tau = t - self.t0
        return self.vx + self.ax * tau, self.vy + self.ay * tau

    def spin(self, t: float) -> tuple[float, float, float]:
        tau = t - self.t0
        wz = self.wz + self.dwz * tau
        if self.wz * wz <= 0.0:
            wz = 0.0
        return self.wx + self.dwx * tau, self.wy + self.dwy * tau, wz


@dataclass(frozen=True, slots=True)
class ShotResult:
    events: tuple[Event, ...]
    first_contact: tuple[str, ...]
    potted: tuple[str, ...]
    off_table: tuple[str, ...]
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
            "off_table": list(self.off_table),
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
) -> ShotResult:
    """Play one stroke: `balls` maps ball ids to resting centres (mm); the cue ball is
    `white` at `strike.cue_ball` (a `white` in `balls` is overridden).

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
    white = ids.index(WHITE)
    start: list[E.Seg] = []
    for k, (x, y) in enumerate(points):
        if k == white:
            vx, vy, wx, wy, wz = strike.launch()
            start.append(E.make_segment(0.0, x, y, vx, vy, wx, wy, wz))
        else:
            start.append(E.rest_segment(0.0, x, y, 0.0))
    raw_events, history, duration, truncated = E.simulate_raw(start, max_events, max_time)
    return _result(ids, white, raw_events, history, duration, truncated)


def _where(kind: int, other: int) -> str:
    if kind == E.EV_CUSHION:
        return RAILS[other].name
    if kind == E.EV_JAW:
        return KNUCKLES[other][0]
    if kind == E.EV_POCKET:
        return FALLS[other].pocket
    return ""


def _result(
    ids: list[str],
    white: int,
    raw_events: list[E.RawEvent],
    history: list[list[E.Seg]],
    duration: float,
    truncated: bool,
) -> ShotResult:
    events: list[Event] = []
    potted: list[str] = []
    touched: set[int] = set()
    first: list[str] = []
    first_time = math.inf
    for t, kind, i, j, x1, y1, x2, y2 in raw_events:
        if kind == E.EV_BALL_BALL:
            balls: tuple[str, ...] = (ids[i], ids[j])
            positions: tuple[Point, ...] = ((x1, y1), (x2, y2))
            if white in (i, j):
                other = j if i == white else i
                touched.add(other)
                if not first:
                    first = [ids[other]]
                    first_time = t
                elif (
                    len(first) == 1
                    and ids[other] != first[0]
                    and t - first_time <= FIRST_CONTACT_TOLERANCE
                ):
                    first.append(ids[other])
        else:
            balls = (ids[i],)
            positions = ((x1, y1),)
        if kind == E.EV_POCKET:
            potted.append(ids[i])
        events.append(Event(t, _KINDS[kind], balls, positions, _where(kind, j)))

    trajectories: dict[str, tuple[Segment, ...]] = {}
    positions_at_rest: dict[str, Point] = {}
    for k, ball in enumerate(ids):
        segs = history[k]
        last = segs[-1]
        if last[E.ST] != E.POCKETED:
            x, y, _, _ = E.kinematics(last, duration) if truncated else (last[E.X], last[E.Y], 0, 0)
            positions_at_rest[ball] = (x, y)
        if len(segs) > 1 or segs[0][E.ST] != E.STATIONARY:
            trajectories[ball] = tuple(
                _segment(s, segs[n + 1][E.T0] if n + 1 < len(segs) else duration)
                for n, s in enumerate(segs)
            )
    closest = {
        ids[k]: (0.0 if k in touched else _closest(history[white], history[k], duration))
        for k in range(len(ids))
        if k != white
    }
    return ShotResult(
        events=tuple(events),
        first_contact=tuple(first),
        potted=tuple(potted),
        off_table=(),
        positions=MappingProxyType(positions_at_rest),
        closest_approach=MappingProxyType(closest),
        trajectories=MappingProxyType(trajectories),
        truncated=truncated,
        duration=duration,
    )


def _segment(s: E.Seg, t1: float) -> Segment:
    return Segment(
        s[E.T0], max(t1, s[E.T0]), _MOTIONS[int(s[E.ST])], s[E.X], s[E.Y], s[E.VX], s[E.VY],
        s[E.AX], s[E.AY], s[E.WX], s[E.WY], s[E.WZ], s[E.DWX], s[E.DWY], s[E.DWZ],
    )  # fmt: skip


def _closest(cue: list[E.Seg], obj: list[E.Seg], duration: float) -> float:
    """Smallest surface-to-surface gap between the cue ball and one object ball while both are
    on the table (mm)."""
    best = math.inf
    if len(obj) == 1:  # the object ball never moved: only the cue ball's pieces matter
        xo = obj[0][E.X]
        yo = obj[0][E.Y]
        for n, sc in enumerate(cue):
            if sc[E.ST] == E.POCKETED:
                break
            a = sc[E.T0]
            h = (cue[n + 1][E.T0] if n + 1 < len(cue) else duration) - a
            vx = sc[E.VX]
            vy = sc[E.VY]
            ax = sc[E.AX]
            ay = sc[E.AY]
            cx = xo - sc[E.X]
            cy = yo - sc[E.Y]
            if (
                math.hypot(cx, cy) - math.hypot(vx, vy) * h - 0.5 * math.hypot(ax, ay) * h * h
                < best
            ):
                best = min(best, E.min_distance(cx, cy, -vx, -vy, -0.5 * ax, -0.5 * ay, h))
        return max(0.0, best - 2.0 * R)
    times = sorted({s[E.T0] for s in cue} | {s[E.T0] for s in obj} | {duration})
    ci = 0
    oi = 0
    for a, b in itertools.pairwise(times):
        while ci + 1 < len(cue) and cue[ci + 1][E.T0] <= a:
            ci += 1
        while oi + 1 < len(obj) and obj[oi + 1][E.T0] <= a:
            oi += 1
        sc = cue[ci]
        so = obj[oi]
        if sc[E.ST] == E.POCKETED or so[E.ST] == E.POCKETED:
            break
        xc, yc, vxc, vyc = E.kinematics(sc, a)
        xo, yo, vxo, vyo = E.kinematics(so, a)
        cx = xo - xc
        cy = yo - yc
        bx = vxo - vxc
        by = vyo - vyc
        ax = 0.5 * (so[E.AX] - sc[E.AX])
        ay = 0.5 * (so[E.AY] - sc[E.AY])
        h = b - a
        lower = math.hypot(cx, cy) - math.hypot(bx, by) * h - math.hypot(ax, ay) * h * h
        if lower >= best:
            continue
        best = min(best, E.min_distance(cx, cy, bx, by, ax, ay, h))
    if best == math.inf:  # the cue ball fell at once: the start is all there is
        best = math.dist((cue[0][E.X], cue[0][E.Y]), (obj[0][E.X], obj[0][E.Y]))
    return max(0.0, best - 2.0 * R)
