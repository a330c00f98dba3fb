"""Shared checks for the physics tests: energy, overlaps and bed membership over a stroke."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from rules.physics import Motion, Segment, ShotResult
from rules.physics.constants import R
from rules.physics.geometry import on_surface, over_fall

Point = tuple[float, float]


def segment_at(segments: Iterable[Segment], t: float, *, before: bool = False) -> Segment:
    """The segment in effect at t (with `before`, the one in effect just before t; at t = 0
    that is the state the strike gives)."""
    segments = list(segments)
    current = segments[0] if before and t <= segments[0].t0 else None
    for s in segments:
        if s.t0 < t or (not before and s.t0 == t):
            current = s
    assert current is not None
    return current


def energy(s: Segment, t: float) -> float:
    """Kinetic energy per unit mass (mm²/s²), translation and rotation (I = 2/5 m R²)."""
    if s.motion is Motion.POCKETED:
        return 0.0
    vx, vy = s.velocity(t)
    wx, wy, wz = s.spin(t)
    return 0.5 * (vx * vx + vy * vy) + 0.2 * R * R * (wx * wx + wy * wy + wz * wz)


def total_energy(result: ShotResult, t: float, *, before: bool = False) -> float:
    return sum(
        energy(segment_at(segs, t, before=before), t) for segs in result.trajectories.values()
    )


def positions_at(result: ShotResult, start: dict[str, Point], t: float) -> dict[str, Point]:
    """Centres of the balls on the table at t."""
    out: dict[str, Point] = {}
    for ball, p in start.items():
        segs = result.trajectories.get(ball)
        if segs is None:
            out[ball] = p
            continue
        s = segment_at(segs, t)
        if s.motion is not Motion.POCKETED:
            out[ball] = s.position(t)
    return out


def check_stroke(result: ShotResult, start: dict[str, Point], *, samples: int = 3) -> None:
    """Energy never rises at an event; no overlaps and every ball on the playing surface (or
    over a pocket's hole, about to drop) at every event and between events; times never
    decrease; trajectories end where the balls rest."""
    times = [e.time for e in result.events]
    assert times == sorted(times)
    assert all(t >= 0.0 for t in times)
    distinct = sorted(set(times))
    for t in distinct:
        after = total_energy(result, t)
        before = total_energy(result, t, before=True)
        assert after <= before * (1 + 1e-9) + 1e-9, (t, before, after)
    checkpoints = set(distinct)
    for a, b in zip([0.0, *distinct], [*distinct, result.duration], strict=True):
        for k in range(1, samples + 1):
            checkpoints.add(a + (b - a) * k / (samples + 1))
    for t in sorted(checkpoints):
        where = positions_at(result, start, t)
        for ball, p in where.items():
            # On the bed, or over a pocket's hole for the moment before it drops.
            assert on_surface(p, tol=1e-6) or over_fall(p), (t, ball, p)
        ids = sorted(where)
        for i, a_id in enumerate(ids):
            for b_id in ids[i + 1 :]:
                gap = math.dist(where[a_id], where[b_id]) - 2 * R
                assert gap > -1e-6, (t, a_id, b_id, gap)
    if not result.truncated:
        for ball, segs in result.trajectories.items():
            last = segs[-1]
            assert last.motion in (Motion.STATIONARY, Motion.POCKETED), (ball, last)
            if last.motion is Motion.STATIONARY:
                x, y = last.position(result.duration)
                px, py = result.positions[ball]
                assert abs(x - px) <= 1e-6 and abs(y - py) <= 1e-6
                # Evaluating every segment at its own end reaches the next one's start.
                for s, nxt in itertools.pairwise(segs):
                    ex, ey = s.position(s.t1)
                    assert math.hypot(ex - nxt.x0, ey - nxt.y0) <= 1e-6, (ball, s, nxt)
