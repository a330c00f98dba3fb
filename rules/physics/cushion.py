"""The cushion impact: Mathavan, Jackson & Parkin 2010, with the bed's friction during it.

"A theoretical analysis of billiard ball dynamics under cushion impacts", Proc. IMechE Part C
224 (2010) 1863-1873. A rigid ball meets a rigid cushion whose nose touches it at I, above the
centre (height h = 7R/5, so the contact normal N is tilted down by θ, sin θ = 2/5), while the
bed holds it at C. Coulomb friction acts at both contacts (μw at the cushion, μs on the cloth)
against each contact's slip, and the bed's normal force is whatever keeps the ball on the
cloth. The impact is followed in the normal impulse P at I: compression until the centre stops
approaching the cushion, restitution until the normal force has given back e² of the work it
took (Stronge's energetic restitution).

Written here from the model's equations, in the cushion's frame (n into the cushion, t = ẑ × n,
z up), per unit mass (impulses in mm/s). Along one step ΔP the slip directions are held, so
every quantity moves linearly; the friction of each contact is capped where it would stop that
contact's slip (3.5 = 1 + 5/2 is a sphere's tangential response at its surface), which turns
the chatter of an explicit scheme into sticking. `STEPS` steps per phase hold the rebound to
about 0.1° of a 4,000-step integration (tests/physics/test_physics_laws.py).

Hard impacts. The rigid-cushion model holds while the rubber barely deforms: Mathavan et al.
tested it up to about 2.5 m/s of normal speed. Beyond that the energetic restitution falls as
e = e0·(v_c/v_n)^(1/4), the law of an impact that loses energy past a threshold speed (Johnson,
Contact Mechanics, 1985, §11.5); the threshold is Mathavan's range, the exponent that law's.
docs/physics.md discusses the choice.
"""

from __future__ import annotations

import math
from typing import Final

from .constants import (
    COS_THETA,
    E_CUSHION,
    HARD_CUSHION_SPEED,
    MU_CUSHION,
    MU_SLIDE,
    SIN_THETA,
    R,
)

STEPS: Final = 16  # steps of the normal impulse per phase (compression, restitution)
_K: Final = 2.5 / R  # Δω = (5 / 2R) (r̂ × F) per unit mass
_C: Final = COS_THETA
_S: Final = SIN_THETA


def restitution(vn: float) -> float:
    """Energetic coefficient of restitution for a normal speed vn (mm/s)."""
    if vn <= HARD_CUSHION_SPEED:
        return E_CUSHION
    return E_CUSHION * math.sqrt(math.sqrt(HARD_CUSHION_SPEED / vn))


def _step(
    vn: float, vt: float, a: float, b: float, w: float, h: float, mu_w: float, mu_s: float
) -> tuple[float, float, float, float, float]:
    """One step ΔP = h of the impact: the state after it."""
    # Slip of the ball's point at I in the contact plane: q1 along e1 = (s, 0, -c), q2 along t.
    q1 = _S * vn + R * b
    q2 = vt + R * (w * _C - a * _S)
    # Slip of the ball's point at C on the cloth: p1 along n, p2 along t.
    p1 = vn - R * b
    p2 = vt + R * a
    q = math.sqrt(q1 * q1 + q2 * q2)
    fi1 = fi2 = 0.0
    if q > 0.0:
        f = mu_w * h
        if 3.5 * f > q:
            f = q / 3.5
        fi1 = f * q1 / q
        fi2 = f * q2 / q
    # The cushion's normal force pushes the ball down (s h) and its friction lifts it (c fi1):
    # the bed gives the rest, never pulling.
    hc = _S * h - _C * fi1
    fc1 = fc2 = 0.0
    p = math.sqrt(p1 * p1 + p2 * p2)
    if hc > 0.0 and p > 0.0:
        f = mu_s * hc
        if 3.5 * f > p:
            f = p / 3.5
        fc1 = f * p1 / p
        fc2 = f * p2 / p
    return (
        vn - _C * h - _S * fi1 - fc1,
        vt - fi2 - fc2,
        a + _K * (_S * fi2 - fc2),
        b + _K * (fc1 - fi1),
        w - _K * _C * fi2,
    )


def impact(
    vn: float,
    vt: float,
    a: float,
    b: float,
    w: float,
    *,
    steps: int = STEPS,
    mu_w: float = MU_CUSHION,
    mu_s: float = MU_SLIDE,
    e: float | None = None,
) -> tuple[float, float, float, float, float]:
    """The state after a cushion impact, from (vn, vt) the centre's velocity (vn > 0 towards
    the cushion, mm/s) and (a, b, w) the spin about n, t and z (rad/s)."""
    if e is None:
        e = restitution(vn)
    h = vn / (_C * steps)
    work = 0.0
    # Compression: until the centre stops approaching (vn falls linearly within a step).
    for _ in range(4 * steps):
        nxt = _step(vn, vt, a, b, w, h, mu_w, mu_s)
        if nxt[0] <= 0.0:
            frac = vn / (vn - nxt[0])
            nxt = _step(vn, vt, a, b, w, h * frac, mu_w, mu_s)
            work += _C * h * frac * 0.5 * (vn + nxt[0])
            vn, vt, a, b, w = nxt
            break
        work += _C * h * 0.5 * (vn + nxt[0])
        vn, vt, a, b, w = nxt
    # Restitution: until the normal force has done e² of the compression's work back.
    target = e * e * work
    done = 0.0
    for _ in range(4 * steps):
        if done >= target:
            break
        nxt = _step(vn, vt, a, b, w, h, mu_w, mu_s)
        dw = -_C * h * 0.5 * (vn + nxt[0])
        if done + dw >= target:
            # Within the step -vn grows linearly from -vn0 by g per unit of P: solve for the
            # part of the step that does the remaining work.
            g = (vn - nxt[0]) / h
            rest = (target - done) / _C
            v0 = -vn
            x = (2.0 * rest / (v0 + math.sqrt(v0 * v0 + 2.0 * g * rest))) if g > 0.0 else h
            nxt = _step(vn, vt, a, b, w, min(x, h), mu_w, mu_s)
            vn, vt, a, b, w = nxt
            break
        done += dw
        vn, vt, a, b, w = nxt
    return vn, vt, a, b, w
