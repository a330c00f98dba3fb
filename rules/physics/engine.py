"""The event-based core: closed-form motion between events, events found analytically.

Internal representation (for speed): every ball has a mutable list `seg` describing its
current closed-form segment, indexed by the constants below; a segment is valid from its start
time T0 to the next event that involves the ball. From outside, `make_segment` and
`rest_segment` set the balls down, `run` plays them and hands out the frozen records of
rules/physics/records.py, and `min_distance` serves the closest approach; nothing else reads a
segment list or an event code.

Motion within a segment (τ = t - T0):
    p(τ) = p0 + v0 τ + ½ a τ²,      ωx,y(τ) = ω0 + dω τ,
    ωz(τ) = ωz0 + dωz τ until it reaches 0, then 0 (spin about the vertical axis never
    reverses by friction).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from heapq import heappop, heappush
from typing import Final, NamedTuple

from rules.table import POCKETS

from . import cushion
from .constants import (
    DROP_TIME,
    E_BALL,
    E_CUSHION,
    MU_BALL_A,
    MU_BALL_B,
    MU_BALL_C,
    ROLL_DECEL,
    SLIDE_DECEL,
    SPIN_DECEL,
    R,
)
from .geometry import FALLS, KNUCKLES, RAILS, WALLS
from .records import Event, EventKind, Motion, Segment

INF: Final = math.inf
D: Final = 2.0 * R
DD: Final = D * D

# segment fields
T0, X, Y, VX, VY, AX, AY, WX, WY, WZ, DWX, DWY, DWZ, T1, ST, TZ = range(16)

# states (the moving ones first: see is_moving)
SLIDING: Final = 0
ROLLING: Final = 1
SPINNING: Final = 2
STATIONARY: Final = 3
POCKETED: Final = 4
_MOTIONS: Final = (
    Motion.SLIDING, Motion.ROLLING, Motion.SPINNING, Motion.STATIONARY, Motion.POCKETED,
)  # fmt: skip

# event kinds (the order breaks ties between simultaneous events)
EV_BALL_BALL: Final = 0
EV_CUSHION: Final = 1
EV_JAW: Final = 2
EV_WALL: Final = 3  # a jaw's face or a pocket's back: logged as ball_jaw
EV_POCKET: Final = 4
EV_SLIDE_ROLL: Final = 5
EV_SLIDE_REST: Final = 6
EV_ROLL_REST: Final = 7
EV_SPIN_REST: Final = 8
EV_TRANSITION: Final = 9  # internal: a predicted state transition, resolved on pop
EV_OVER: Final = 10  # internal: the centre crosses a fall line into the pocket
EV_UNDER: Final = 11  # internal: the centre comes back over the bed before it dropped
_KINDS: Final = (
    EventKind.BALL_BALL, EventKind.BALL_CUSHION, EventKind.BALL_JAW, EventKind.BALL_JAW,
    EventKind.POCKET, EventKind.SLIDING_TO_ROLLING, EventKind.SLIDING_TO_REST,
    EventKind.ROLLING_TO_REST, EventKind.SPIN_TO_REST,
)  # fmt: skip
# What an event's "other" index names: a cushion, a jaw's or a wall's pocket, a fall's pocket.
_WHERE: Final = {
    EV_CUSHION: tuple(r.name for r in RAILS),
    EV_JAW: tuple(pocket for pocket, _ in KNUCKLES),
    EV_WALL: tuple(pocket for pocket, _ in WALLS),
    EV_POCKET: tuple(f.pocket for f in FALLS),
}

# tolerances
EPS_SLIP: Final = 1e-6  # mm/s: contact-point slip below this is rolling
EPS_V: Final = 1e-6  # mm/s: speed below this is at rest
EPS_W: Final = 1e-9  # rad/s: vertical spin below this is none
EPS_D: Final = 1e-9  # mm: "touching" a cushion face
EPS_F: Final = 1e-6  # mm²: |d|² - (2R)², "touching" another ball or a jaw (gap ~1e-8 mm)
# Touching bodies part at no less than this (resting contacts, see collide_balls).
V_PUSH: Final = 10.0  # mm/s

_KSLIDE_W: Final = 5.0 * SLIDE_DECEL / (2.0 * R)
_RAILS: Final = tuple(
    (r.normal[0], r.normal[1], r.face - R, r.tangent[0], r.tangent[1], r.lo, r.hi) for r in RAILS
)
_JAWS: Final = tuple(
    (j.centre[0], j.centre[1], (j.radius + R) * (j.radius + R), j.radius + R) for _, j in KNUCKLES
)
_FALLS: Final = tuple((f.inward[0], f.inward[1], f.depth) for f in FALLS)


def _wall(a: tuple[float, float], b: tuple[float, float], n: tuple[float, float]) -> Rail:
    """A pocket wall in the form of a cushion face (rail_time): normal, contact line, tangent
    and the tangent coordinates of its ends."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    tx = (b[0] - a[0]) / length
    ty = (b[1] - a[1]) / length
    return (
        n[0], n[1], n[0] * a[0] + n[1] * a[1] - R, tx, ty, tx * a[0] + ty * a[1],
        tx * b[0] + ty * b[1],
    )  # fmt: skip


_WALLS: Final = tuple(_wall(w.a, w.b, w.normal) for _, w in WALLS)
# The back of a pocket is dead (leather over the hole: it takes the normal speed and gives
# none back); a jaw's face is a cushion.
_WALL_E: Final = tuple(0.0 if any(w is p.back for p in POCKETS) else None for _, w in WALLS)

Seg = list[float]
Rail = tuple[float, float, float, float, float, float, float]
# (time, kind, ball, other ball or -1 / cushion / jaw / wall / pocket index, positions...)
RawEvent = tuple[float, int, int, int, float, float, float, float]


def is_moving(s: Seg) -> bool:
    """The ball's centre moves: it slides or rolls (a ball spinning in place does not).

    make_segment decides which state a ball is in: slipping over EPS_SLIP slides, else a
    speed over EPS_V rolls, else it is at rest.
    """
    return s[ST] <= ROLLING


def _spin_down(t: float, wz: float) -> tuple[float, float, float]:
    """Vertical spin wz at time t (under EPS_W is none), its rate and when it reaches 0."""
    if -EPS_W < wz < EPS_W:
        return 0.0, 0.0, t
    if wz > 0.0:
        return wz, -SPIN_DECEL, t + wz / SPIN_DECEL
    return wz, SPIN_DECEL, t - wz / SPIN_DECEL


def make_segment(
    t: float, x: float, y: float, vx: float, vy: float, wx: float, wy: float, wz: float
) -> Seg:
    """The segment starting at time t from this state; the state follows from the slip."""
    wz, dwz, tz = _spin_down(t, wz)
    ux = vx - R * wy
    uy = vy + R * wx
    slip = math.sqrt(ux * ux + uy * uy)
    if slip > EPS_SLIP:
        kx = ux / slip
        ky = uy / slip
        return [
            t, x, y, vx, vy, -SLIDE_DECEL * kx, -SLIDE_DECEL * ky,
            wx, wy, wz, -_KSLIDE_W * ky, _KSLIDE_W * kx, dwz,
            t + 2.0 * slip / (7.0 * SLIDE_DECEL), SLIDING, tz,
        ]  # fmt: skip
    speed = math.sqrt(vx * vx + vy * vy)
    if speed > EPS_V:
        kx = vx / speed
        ky = vy / speed
        ax = -ROLL_DECEL * kx
        ay = -ROLL_DECEL * ky
        return [
            t, x, y, vx, vy, ax, ay, -vy / R, vx / R, wz, -ay / R, ax / R, dwz,
            t + speed / ROLL_DECEL, ROLLING, tz,
        ]  # fmt: skip
    return rest_segment(t, x, y, wz)


def rest_segment(t: float, x: float, y: float, wz: float) -> Seg:
    wz, dwz, tz = _spin_down(t, wz)
    if wz == 0.0:
        return [t, x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, INF, STATIONARY, t]
    return [t, x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, wz, 0.0, 0.0, dwz, tz, SPINNING, tz]


def kinematics(s: Seg, t: float) -> tuple[float, float, float, float]:
    """Position and velocity at time t."""
    tau = t - s[T0]
    ax = s[AX]
    ay = s[AY]
    return (
        s[X] + (s[VX] + 0.5 * ax * tau) * tau,
        s[Y] + (s[VY] + 0.5 * ay * tau) * tau,
        s[VX] + ax * tau,
        s[VY] + ay * tau,
    )


def spin(s: Seg, t: float) -> tuple[float, float, float]:
    tau = t - s[T0]
    wz = 0.0 if t >= s[TZ] else s[WZ] + s[DWZ] * tau
    return s[WX] + s[DWX] * tau, s[WY] + s[DWY] * tau, wz


# --- event times: first roots of polynomials in τ over [0, h] --------------------------------
# A cushion face, a fall line and a straight relative path to a contact circle give quadratics,
# solved in closed form (quad_roots; first_crossing keeps the first root in the interval). A
# curved relative path d = C + Bτ + Aτ² reaches a contact circle where the quartic |d|² - dd
# falls through 0: the turning points of |d| (the sign changes of the cubic d·d′, isolated by
# the roots of its derivative) cut [0, h] into monotone pieces, and the first piece that falls
# through 0 is refined by safeguarded Newton. The cubic is refined in monomial form; the
# quartic in its geometric form, whose rounding stays near ε·dd at contact where the expanded
# polynomial's terms would cancel to ε·(travel)², as large as the 1e-9 mm² tolerance.
def quad_roots(a: float, b: float, c: float) -> tuple[float, ...]:
    """Real roots of a τ² + b τ + c, ascending (numerically stable form)."""
    if a == 0.0:
        if b == 0.0:
            return ()
        return (-c / b,)
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return ()
    sq = math.sqrt(disc)
    q = -0.5 * (b + sq) if b >= 0.0 else -0.5 * (b - sq)
    if q == 0.0:
        return (0.0,)
    r1 = q / a
    r2 = c / q
    return (r1, r2) if r1 <= r2 else (r2, r1)


def first_crossing(a: float, b: float, c: float, h: float, sign: float, slope: float) -> float:
    """First τ in [0, h] where a τ² + b τ + c crosses 0 rising (sign 1.0) or falling (sign
    -1.0) faster than `slope`; INF if none."""
    for tau in quad_roots(a, b, c):
        if 0.0 <= tau <= h and sign * (b + 2.0 * a * tau) > slope:
            return tau
    return INF


def turning_points(
    cx: float, cy: float, bx: float, by: float, ax: float, ay: float, h: float
) -> list[float]:
    """The τ in (0, h), ascending, where |d(τ)|, d = C + Bτ + Aτ², turns: the sign changes of
    the cubic d·d′, each found where the cubic is monotone (between the roots of its
    derivative)."""
    k3 = 2.0 * (ax * ax + ay * ay)
    k2 = 3.0 * (ax * bx + ay * by)
    k1 = bx * bx + by * by + 2.0 * (ax * cx + ay * cy)
    k0 = bx * cx + by * cy
    cuts: list[float] = []
    for r in quad_roots(3.0 * k3, 2.0 * k2, k1):
        if 0.0 < r < h:
            cuts.append(r)
    cuts.append(h)
    roots: list[float] = []
    lo = 0.0
    glo = k0
    for hi in cuts:
        ghi = ((k3 * hi + k2) * hi + k1) * hi + k0
        if (glo < 0.0 < ghi) or (glo > 0.0 > ghi):
            roots.append(_cubic_root(k3, k2, k1, k0, lo, hi, glo))
        lo = hi
        glo = ghi
    return roots


def _cubic_root(
    k3: float, k2: float, k1: float, k0: float, lo: float, hi: float, glo: float
) -> float:
    """The root of a cubic monotonic on [lo, hi] where it changes sign (safeguarded Newton)."""
    x = 0.5 * (lo + hi)
    rising = glo < 0.0
    for _ in range(100):
        g = ((k3 * x + k2) * x + k1) * x + k0
        if g == 0.0:
            return x
        if (g < 0.0) == rising:
            lo = x
        else:
            hi = x
        if hi - lo <= 1e-15 * (1.0 + hi):
            break
        dg = (3.0 * k3 * x + 2.0 * k2) * x + k1
        nx = x - g / dg if dg != 0.0 else lo
        x = nx if lo < nx < hi else 0.5 * (lo + hi)
    return x


def contact_time(
    cx: float, cy: float, bx: float, by: float, ax: float, ay: float, dd: float, h: float
) -> float:
    """First τ in [0, h] at which |d(τ)| = √dd is reached from outside, d = C + Bτ + Aτ².

    INF if none. Touching and approaching at τ = 0 gives 0.
    """
    c0 = cx * cx + cy * cy - dd
    g0 = bx * cx + by * cy
    # Touching and approaching (faster than rounding: |C| ≈ 2R, so g0 = -1e-9 is ~1e-11 mm/s).
    if c0 <= EPS_F and g0 < -1e-9:
        return 0.0
    aa = ax * ax + ay * ay
    bb = bx * bx + by * by
    cross = ax * by - ay * bx
    if cross * cross <= 1e-24 * aa * bb:
        # Straight relative path: d = C + s(τ) u with s(τ) = sb τ + sa τ².
        if bb > 0.0:
            n = math.sqrt(bb)
            ux = bx / n
            uy = by / n
        elif aa > 0.0:
            n = math.sqrt(aa)
            ux = ax / n
            uy = ay / n
        else:
            return INF
        sb = bx * ux + by * uy
        sa = ax * ux + ay * uy
        cu = cx * ux + cy * uy
        disc = cu * cu - c0  # (half the chord of the contact circle on the path)²
        if disc < 1e-9:  # misses, or grazes by under 1e-11 mm
            return INF
        sq = math.sqrt(disc)
        # The path length s(τ) = sb τ + sa τ² meets the contact circle at s1 going forwards
        # or, coming back, at s2 on its far side.
        s1 = -cu - sq
        s2 = -cu + sq
        return min(
            first_crossing(sa, sb, -s1, h, 1.0, 0.0), first_crossing(sa, sb, -s2, h, -1.0, 0.0)
        )
    # General case: f(τ) = |d|² - dd is a quartic, monotone between the turning points of |d|.
    crit = turning_points(cx, cy, bx, by, ax, ay, h)
    crit.append(h)
    lo = 0.0
    flo = c0
    for hi in crit:
        dx = cx + (bx + ax * hi) * hi
        dy = cy + (by + ay * hi) * hi
        fhi = dx * dx + dy * dy - dd
        if flo > 0.0 and fhi <= -1e-9:  # a dip of under 1e-9 mm² is a graze, not a contact
            return _quartic_root(cx, cy, bx, by, ax, ay, dd, lo, hi, flo, fhi)
        lo = hi
        flo = fhi
    return INF


def _quartic_root(
    cx: float,
    cy: float,
    bx: float,
    by: float,
    ax: float,
    ay: float,
    dd: float,
    lo: float,
    hi: float,
    flo: float,
    fhi: float,
) -> float:
    """Root of |C + Bτ + Aτ²|² - dd, decreasing on [lo, hi] (safeguarded Newton)."""
    x = lo + flo * (hi - lo) / (flo - fhi)
    for _ in range(100):
        dx = cx + (bx + ax * x) * x
        dy = cy + (by + ay * x) * x
        f = dx * dx + dy * dy - dd
        if f > 0.0:
            lo = x
        else:
            hi = x
        if -1e-9 < f < 1e-9 or hi - lo <= 1e-15 * (1.0 + hi):
            return x
        df = 2.0 * (dx * (bx + 2.0 * ax * x) + dy * (by + 2.0 * ay * x))
        nx = x - f / df if df != 0.0 else lo
        x = nx if lo < nx < hi else 0.5 * (lo + hi)
    return x


def min_distance(
    cx: float, cy: float, bx: float, by: float, ax: float, ay: float, h: float
) -> float:
    """Smallest |C + Bτ + Aτ²| for τ in [0, h]."""
    best = cx * cx + cy * cy
    ex = cx + (bx + ax * h) * h
    ey = cy + (by + ay * h) * h
    best = min(best, ex * ex + ey * ey)
    for tau in turning_points(cx, cy, bx, by, ax, ay, h):
        dx = cx + (bx + ax * tau) * tau
        dy = cy + (by + ay * tau) * tau
        best = min(best, dx * dx + dy * dy)
    return math.sqrt(best)


def rail_time(
    x: float, y: float, vx: float, vy: float, ax: float, ay: float, rail: Rail, h: float
) -> float:
    nx, ny, lim, tx, ty, lo, hi = rail
    d0 = nx * x + ny * y - lim
    dv = nx * vx + ny * vy
    da = nx * ax + ny * ay
    # Touching and approaching (a speed of 1e-9 mm/s along the face is rounding, not approach).
    if d0 >= -EPS_D and (dv > 1e-9 or (dv >= -1e-9 and da > 0.0)):
        s = tx * x + ty * y
        return 0.0 if lo <= s <= hi else INF
    # The one crossing towards the cushion (a quadratic rises through 0 at most once) counts
    # if it meets the face itself.
    tau = first_crossing(0.5 * da, dv, d0, h, 1.0, 1e-9)
    if tau == INF:
        return INF
    s = tx * (x + (vx + 0.5 * ax * tau) * tau) + ty * (y + (vy + 0.5 * ay * tau) * tau)
    return tau if lo <= s <= hi else INF


def fall_time(
    x: float, y: float, vx: float, vy: float, ax: float, ay: float, fall: tuple[float, ...],
    h: float, sign: float = 1.0,
) -> float:  # fmt: skip
    """First τ in [0, h] at which the centre crosses the fall line into the pocket (sign 1.0)
    or back out of it (sign -1.0); INF if none."""
    ix, iy, depth = fall
    d0 = sign * (ix * x + iy * y - depth)
    dv = sign * (ix * vx + iy * vy)
    da = sign * (ix * ax + iy * ay)
    if d0 >= 0.0 and dv > 0.0:
        return 0.0
    return first_crossing(0.5 * da, dv, d0, h, 1.0, 0.0)


def _energy(vx: float, vy: float, wx: float, wy: float, wz: float) -> float:
    """Kinetic energy per unit mass, mm²/s² (I = 2/5 m R²)."""
    return 0.5 * (vx * vx + vy * vy) + 0.2 * R * R * (wx * wx + wy * wy + wz * wz)


# --- collisions ------------------------------------------------------------------------------
def ball_friction(slip: float) -> float:
    """Ball-ball friction for a slip speed of the contact points (mm/s): Alciatore's fit."""
    return MU_BALL_A + MU_BALL_B * math.exp(-MU_BALL_C * 0.001 * slip)


def collide_balls(s1: Seg, s2: Seg, t: float) -> tuple[Seg, Seg]:
    """Impulse model with restitution E_BALL and Coulomb friction at the contact whose
    coefficient falls with the slip speed (Alciatore TP A.14: cut- and spin-induced throw),
    friction capped where the contact point stops slipping (the 1/7 limit)."""
    x1, y1, v1x, v1y = kinematics(s1, t)
    x2, y2, v2x, v2y = kinematics(s2, t)
    w1x, w1y, w1z = spin(s1, t)
    w2x, w2y, w2z = spin(s2, t)
    nx = x2 - x1
    ny = y2 - y1
    dist = math.sqrt(nx * nx + ny * ny)
    nx /= dist
    ny /= dist
    # Contact-point velocities (3-D), ball 1 at +R n, ball 2 at -R n.
    ux = (v1x - R * w1z * ny) - (v2x + R * w2z * ny)
    uy = (v1y + R * w1z * nx) - (v2y - R * w2z * nx)
    uz = R * (w1x * ny - w1y * nx) + R * (w2x * ny - w2y * nx)
    un = ux * nx + uy * ny
    jn = 0.5 * (1.0 + E_BALL) * un if un > 0.0 else 0.0  # per unit mass
    push = un - 2.0 * jn > -V_PUSH
    if push:
        # A resting contact (approach slower than V_PUSH/E_BALL, or pressed together by the
        # cloth): part them at V_PUSH, paid for by the pair's own energy (below).
        e0 = _energy(v1x, v1y, w1x, w1y, w1z) + _energy(v2x, v2y, w2x, w2y, w2z)
        jn = 0.5 * (un + V_PUSH)
    v1x -= jn * nx
    v1y -= jn * ny
    v2x += jn * nx
    v2y += jn * ny
    tx = ux - un * nx
    ty = uy - un * ny
    tz = uz
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)
    if slip > 0.0 and jn > 0.0:
        jt = min(ball_friction(slip) * jn, slip / 7.0)
        sx = tx / slip
        sy = ty / slip
        sz = tz / slip
        v1x -= jt * sx
        v1y -= jt * sy
        v2x += jt * sx
        v2y += jt * sy
        k = -2.5 * jt / R  # Δω = -(5 jt / 2R) (n × s), the same for both balls
        dwx = k * ny * sz
        dwy = -k * nx * sz
        dwz = k * (nx * sy - ny * sx)
        w1x += dwx
        w1y += dwy
        w1z += dwz
        w2x += dwx
        w2y += dwy
        w2z += dwz
    if push:
        e1 = _energy(v1x, v1y, w1x, w1y, w1z) + _energy(v2x, v2y, w2x, w2y, w2z)
        if e1 > e0:
            k = math.sqrt(e0 / e1) * (1.0 - 1e-12)
            v1x *= k
            v1y *= k
            w1x *= k
            w1y *= k
            w1z *= k
            v2x *= k
            v2y *= k
            w2x *= k
            w2y *= k
            w2z *= k
    return (
        make_segment(t, x1, y1, v1x, v1y, w1x, w1y, w1z),
        make_segment(t, x2, y2, v2x, v2y, w2x, w2y, w2z),
    )


def collide_cushion(s: Seg, t: float, nx: float, ny: float, e: float | None = None) -> Seg:
    """A cushion (or a jaw) whose nose touches the ball at height CUSHION_HEIGHT, horizontal
    unit normal (nx, ny) from the ball centre into the cushion: Mathavan et al. 2010, with the
    bed's friction during the impact (rules/physics/cushion.py).

    `e` overrides the cushion's restitution (a pocket's dead back: 0). A resting contact (an
    approach slower than V_PUSH / e) leaves at V_PUSH instead, paid for by the ball's own
    energy.
    """
    x, y, vx, vy = kinematics(s, t)
    wx, wy, wz = spin(s, t)
    vn = vx * nx + vy * ny
    vt = vy * nx - vx * ny  # along t = ẑ × n = (-ny, nx)
    if vn * (E_CUSHION if e is None else 1.0) > V_PUSH:
        a = wx * nx + wy * ny
        b = wy * nx - wx * ny
        vn, vt, a, b, wz = cushion.impact(vn, vt, a, b, wz, e=e)
        vx = vn * nx - vt * ny
        vy = vn * ny + vt * nx
        wx = a * nx - b * ny
        wy = a * ny + b * nx
        return make_segment(t, x, y, vx, vy, wx, wy, wz)
    # A resting contact: leave at V_PUSH, paid for by the ball's energy.
    e0 = _energy(vx, vy, wx, wy, wz)
    dvn = vn + V_PUSH
    vx -= dvn * nx
    vy -= dvn * ny
    e1 = _energy(vx, vy, wx, wy, wz)
    if e1 > e0:
        k = math.sqrt(e0 / e1) * (1.0 - 1e-12)
        vx *= k
        vy *= k
        wx *= k
        wy *= k
        wz *= k
    return make_segment(t, x, y, vx, vy, wx, wy, wz)


# --- the simulation --------------------------------------------------------------------------
def _box(s: Seg, moving: bool) -> tuple[float, float, float, float]:
    """Bounding box of the ball centre over the rest of its segment (`moving`: is_moving(s))."""
    x0 = s[X]
    y0 = s[Y]
    if not moving:
        return x0, x0, y0, y0
    h = s[T1] - s[T0]
    vx = s[VX]
    vy = s[VY]
    ax = s[AX]
    ay = s[AY]
    xe = x0 + (vx + 0.5 * ax * h) * h
    ye = y0 + (vy + 0.5 * ay * h) * h
    xlo = min(x0, xe)
    xhi = max(x0, xe)
    ylo = min(y0, ye)
    yhi = max(y0, ye)
    if ax != 0.0:
        tv = -vx / ax
        if 0.0 < tv < h:
            xv = x0 + 0.5 * vx * tv
            xlo = min(xlo, xv)
            xhi = max(xhi, xv)
    if ay != 0.0:
        tv = -vy / ay
        if 0.0 < tv < h:
            yv = y0 + 0.5 * vy * tv
            ylo = min(ylo, yv)
            yhi = max(yhi, yv)
    return xlo, xhi, ylo, yhi


def _simulate(
    start: Sequence[Seg], max_events: int, max_time: float
) -> tuple[list[RawEvent], list[list[Seg]], float, bool]:
    """Run the balls until all rest.

    Returns the raw event log, each ball's list of segments (the first is its start), the
    duration and whether a bound was hit.
    """
    n = len(start)
    segs: list[Seg] = [list(s) for s in start]
    history: list[list[Seg]] = [[s] for s in segs]
    moving = [is_moving(s) for s in segs]  # kept with segs: the pair loop reads it for speed
    ver = [0] * n
    active = [True] * n
    live = list(range(n))  # indices of the balls still on the table
    boxes = [_box(s, m) for s, m in zip(segs, moving, strict=True)]
    heap: list[tuple[float, int, int, int, int, int]] = []
    events: list[RawEvent] = []
    rails = _RAILS
    jaws = _JAWS
    walls = _WALLS
    falls = _FALLS
    # When each ball's centre went over a pocket's hole (-1.0: it is over the bed), and which.
    over_at = [-1.0] * n
    over_fall = [0] * n

    def predict_fall(i: int, now: float) -> None:
        """The ball's next fall event: over a hole, it drops DROP_TIME after it went over
        unless it is back over the bed first; over the bed, it goes over a fall line."""
        s = segs[i]
        vi = ver[i]
        mov = moving[i]
        h = s[T1] - now
        x, y, vx, vy = kinematics(s, now)
        ax = s[AX]
        ay = s[AY]
        if over_at[i] >= 0.0:
            k = over_fall[i]
            drop = over_at[i] + DROP_TIME
            back = fall_time(x, y, vx, vy, ax, ay, falls[k], h, -1.0) if mov else INF
            if now + back < drop:
                heappush(heap, (now + back, EV_UNDER, i, k, vi, 0))
            else:
                heappush(heap, (max(drop, now), EV_POCKET, i, k, vi, 0))
            return
        if not mov:
            return
        bxlo, bxhi, bylo, byhi = boxes[i]
        for k, fall in enumerate(falls):
            ix, iy, depth = fall
            reach = ix * (bxhi if ix > 0.0 else bxlo) + iy * (byhi if iy > 0.0 else bylo)
            if reach < depth:
                continue
            tau = fall_time(x, y, vx, vy, ax, ay, fall, h)
            if tau < INF:
                heappush(heap, (now + tau, EV_OVER, i, k, vi, 0))

    def predict(i: int, now: float, skip: int) -> None:
        s = segs[i]
        vi = ver[i]
        mov = moving[i]
        if s[T1] < INF:  # sliding, rolling or spinning: the segment ends in a state change
            heappush(heap, (s[T1], EV_TRANSITION, i, -1, vi, 0))
        x, y, vx, vy = kinematics(s, now)
        ax = s[AX]
        ay = s[AY]
        end_i = s[T1] if mov else INF
        bxlo, bxhi, bylo, byhi = boxes[i]
        if mov:
            h = end_i - now
            for k, rail in enumerate(rails):
                nx, ny, lim = rail[0], rail[1], rail[2]
                reach = nx * (bxhi if nx > 0.0 else bxlo) + ny * (byhi if ny > 0.0 else bylo)
                if reach < lim - EPS_D:
                    continue
                tau = rail_time(x, y, vx, vy, ax, ay, rail, h)
                if tau < INF:
                    heappush(heap, (now + tau, EV_CUSHION, i, k, vi, 0))
            for k, (jx, jy, rr2, rr) in enumerate(jaws):
                if jx < bxlo - rr or jx > bxhi + rr or jy < bylo - rr or jy > byhi + rr:
                    continue
                tau = contact_time(x - jx, y - jy, vx, vy, 0.5 * ax, 0.5 * ay, rr2, h)
                if tau < INF:
                    heappush(heap, (now + tau, EV_JAW, i, k, vi, 0))
            for k, wall in enumerate(walls):
                nx, ny, lim = wall[0], wall[1], wall[2]
                reach = nx * (bxhi if nx > 0.0 else bxlo) + ny * (byhi if ny > 0.0 else bylo)
                if reach < lim - EPS_D:
                    continue
                tau = rail_time(x, y, vx, vy, ax, ay, wall, h)
                if tau < INF:
                    heappush(heap, (now + tau, EV_WALL, i, k, vi, 0))
        predict_fall(i, now)
        # Pairs: cull by the bounding boxes of the two segments, then solve.
        lox = bxlo - D
        hix = bxhi + D
        loy = bylo - D
        hiy = byhi + D
        half_ax = 0.5 * ax
        half_ay = 0.5 * ay
        for j in live:
            if j in (i, skip):
                continue
            omov = moving[j]
            if not (mov or omov):
                continue
            box = boxes[j]
            if box[0] > hix or box[1] < lox or box[2] > hiy or box[3] < loy:
                continue
            o = segs[j]
            if omov:
                oax = o[AX]
                oay = o[AY]
                tau = now - o[T0]
                vxo = o[VX] + oax * tau
                vyo = o[VY] + oay * tau
                tau = contact_time(
                    o[X] + (o[VX] + 0.5 * oax * tau) * tau - x,
                    o[Y] + (o[VY] + 0.5 * oay * tau) * tau - y,
                    vxo - vx, vyo - vy, 0.5 * oax - half_ax, 0.5 * oay - half_ay,
                    DD, min(end_i, o[T1]) - now,
                )  # fmt: skip
            else:
                tau = contact_time(
                    o[X] - x, o[Y] - y, -vx, -vy, -half_ax, -half_ay, DD, end_i - now
                )
            if tau < INF:
                if i < j:
                    heappush(heap, (now + tau, EV_BALL_BALL, i, j, vi, ver[j]))
                else:
                    heappush(heap, (now + tau, EV_BALL_BALL, j, i, ver[j], vi))

    def set_segment(i: int, s: Seg) -> None:
        segs[i] = s
        history[i].append(s)
        moving[i] = is_moving(s)
        ver[i] += 1
        boxes[i] = _box(s, moving[i])

    for i in range(n):
        if segs[i][T1] < INF:  # not at rest
            predict(i, segs[i][T0], -1)

    now = 0.0
    truncated = False
    while heap:
        t, kind, i, j, vi, vj = heappop(heap)
        if vi != ver[i] or not active[i]:
            continue
        if kind == EV_BALL_BALL and (vj != ver[j] or not active[j]):
            continue
        if t > max_time or len(events) >= max_events:
            truncated = True
            if t > max_time:
                now = max_time
            break
        if t < now:
            t = now
        now = t
        if kind == EV_TRANSITION:
            s = segs[i]
            st = s[ST]
            x, y, vx, vy = kinematics(s, t)
            _wx, _wy, wz = spin(s, t)
            if st == SLIDING:  # the slip is gone: it rolls on, or rests if no speed is left
                ns = make_segment(t, x, y, vx, vy, -vy / R, vx / R, wz)
                ev = EV_SLIDE_ROLL if is_moving(ns) else EV_SLIDE_REST
            elif st == ROLLING:
                ns = rest_segment(t, x, y, wz)
                ev = EV_ROLL_REST
            else:  # spinning in place
                ns = rest_segment(t, x, y, 0.0)
                # Not moving before or after, in the same place: its box, `moving` and the
                # pending collisions stay valid.
                segs[i] = ns
                history[i].append(ns)
                events.append((t, EV_SPIN_REST, i, -1, x, y, 0.0, 0.0))
                continue
            set_segment(i, ns)
            events.append((t, ev, i, -1, x, y, 0.0, 0.0))
            predict(i, t, -1)
        elif kind == EV_BALL_BALL:
            a, b = collide_balls(segs[i], segs[j], t)
            set_segment(i, a)
            set_segment(j, b)
            events.append((t, EV_BALL_BALL, i, j, a[X], a[Y], b[X], b[Y]))
            predict(i, t, -1)
            predict(j, t, i)
        elif kind == EV_CUSHION:
            rail = rails[j]
            ns = collide_cushion(segs[i], t, rail[0], rail[1])
            set_segment(i, ns)
            events.append((t, EV_CUSHION, i, j, ns[X], ns[Y], 0.0, 0.0))
            predict(i, t, -1)
        elif kind == EV_WALL:
            wall = walls[j]
            ns = collide_cushion(segs[i], t, wall[0], wall[1], _WALL_E[j])
            set_segment(i, ns)
            events.append((t, EV_WALL, i, j, ns[X], ns[Y], 0.0, 0.0))
            predict(i, t, -1)
        elif kind == EV_OVER:
            over_at[i] = t
            over_fall[i] = j
            predict_fall(i, t)
        elif kind == EV_UNDER:
            over_at[i] = -1.0
            predict_fall(i, t)
        elif kind == EV_JAW:
            s = segs[i]
            x, y, _, _ = kinematics(s, t)
            jx, jy, _, _ = jaws[j]
            nx = jx - x
            ny = jy - y
            dist = math.sqrt(nx * nx + ny * ny)
            ns = collide_cushion(s, t, nx / dist, ny / dist)
            set_segment(i, ns)
            events.append((t, EV_JAW, i, j, ns[X], ns[Y], 0.0, 0.0))
            predict(i, t, -1)
        else:  # pocket
            s = segs[i]
            x, y, _, _ = kinematics(s, t)
            ns = [t, x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, INF, POCKETED, t]
            set_segment(i, ns)
            active[i] = False
            live.remove(i)
            events.append((t, EV_POCKET, i, j, x, y, 0.0, 0.0))
            # Balls whose predictions involved this one are re-predicted lazily: their pair
            # events are now invalid (version bump) and nothing else changed for them.
    return events, history, now, truncated


class Run(NamedTuple):
    """A played stroke: every event, and the segments of every ball that moved (the first is
    its state at t = 0), in the order of the ids given to `run`."""

    events: tuple[Event, ...]
    trajectories: dict[str, tuple[Segment, ...]]
    duration: float
    truncated: bool


def run(ids: Sequence[str], start: Sequence[Seg], max_events: int, max_time: float) -> Run:
    """Play the balls `start` (ball k is `ids[k]`) until all rest or a bound is hit."""
    raw, history, duration, truncated = _simulate(start, max_events, max_time)
    events: list[Event] = []
    for t, kind, i, j, x1, y1, x2, y2 in raw:
        if kind == EV_BALL_BALL:
            events.append(Event(t, _KINDS[kind], (ids[i], ids[j]), ((x1, y1), (x2, y2))))
        else:
            where = _WHERE[kind][j] if kind in _WHERE else ""
            events.append(Event(t, _KINDS[kind], (ids[i],), ((x1, y1),), where))
    trajectories: dict[str, tuple[Segment, ...]] = {}
    for ball, segs in zip(ids, history, strict=True):
        if len(segs) > 1 or segs[0][ST] != STATIONARY:
            ends = [s[T0] for s in segs[1:]]  # each segment lasts until the next begins
            ends.append(duration)
            trajectories[ball] = tuple(map(_segment, segs, ends))
    return Run(tuple(events), trajectories, duration, truncated)


def _segment(s: Seg, t1: float) -> Segment:
    return Segment(
        s[T0], max(t1, s[T0]), _MOTIONS[int(s[ST])], s[X], s[Y], s[VX], s[VY],
        s[AX], s[AY], s[WX], s[WY], s[WZ], s[DWX], s[DWY], s[DWZ],
    )  # fmt: skip
