"""Each physics law with its figure (docs/physics.md). Pure Python, no database."""

from __future__ import annotations

import math

import pytest

from rules.physics import EventKind, Motion, Strike, cushion, simulate
from rules.physics.constants import E_BALL, ROLL_DECEL, SLIDE_DECEL, SPIN_DECEL, R
from rules.physics.engine import ball_friction
from rules.table import BAULK_Y, POCKETS, initial_rack
from tests.physics.helpers import check_stroke, segment_at

UP = math.pi / 2


def first(result, kind, ball=None):  # type: ignore[no-untyped-def]
    for e in result.events:
        if e.kind is kind and (ball is None or ball in e.balls):
            return e
    raise AssertionError(f"no {kind} event for {ball}")


def angle_between(u: tuple[float, float], v: tuple[float, float]) -> float:
    return math.acos((u[0] * v[0] + u[1] * v[1]) / (math.hypot(*u) * math.hypot(*v)))


# --- the cloth -------------------------------------------------------------------------------
def test_sliding_ball_without_spin_rolls_at_five_sevenths() -> None:
    v0 = 1000.0
    r = simulate({}, Strike((0.0, -1000.0), UP, v0 / 1000))
    e = first(r, EventKind.SLIDING_TO_ROLLING, "white")
    s = segment_at(r.trajectories["white"], e.time)
    assert s.motion is Motion.ROLLING
    assert math.hypot(s.vx, s.vy) == pytest.approx(5 / 7 * v0, rel=1e-12)
    # slide time 2v/(7 μs g), slide distance 12 v² / (49 μs g)
    assert e.time == pytest.approx(2 * v0 / (7 * SLIDE_DECEL), rel=1e-12)
    assert e.positions[0][1] + 1000.0 == pytest.approx(12 * v0**2 / (49 * SLIDE_DECEL), rel=1e-9)


def test_rolling_ball_stops_at_v2_over_2_mu_r_g() -> None:
    v0 = 500.0  # mm/s, natural roll from the strike (tip 2R/5 above centre)
    r = simulate({}, Strike((0.0, -1000.0), UP, v0 / 1000, height=0.4))
    assert [e.kind for e in r.events] == [EventKind.ROLLING_TO_REST]
    x, y = r.positions["white"]
    assert x == pytest.approx(0.0, abs=1e-9)
    assert y - -1000.0 == pytest.approx(v0 * v0 / (2 * ROLL_DECEL), rel=1e-12)
    assert r.duration == pytest.approx(v0 / ROLL_DECEL, rel=1e-12)


def test_side_spin_outlives_a_stun_and_decays_in_place() -> None:
    r = simulate({"red1": (0.0, 2 * R + 1.0)}, Strike((0.0, 0.0), UP, 2.0, side=0.5))
    white = [e.kind for e in r.events if e.balls == ("white",)]
    assert white[-2:] == [EventKind.ROLLING_TO_REST, EventKind.SPIN_TO_REST]
    stop = [e for e in r.events if e.balls == ("white",)][-2]
    spinning = segment_at(r.trajectories["white"], stop.time)
    assert spinning.motion is Motion.SPINNING and spinning.wz > 0
    assert spinning.t1 - spinning.t0 == pytest.approx(spinning.wz / SPIN_DECEL, rel=1e-9)


# --- ball to ball ----------------------------------------------------------------------------
def test_stun_full_ball_stops_the_cue_ball_dead() -> None:
    # 1 mm from the object ball at 3 m/s: the cue ball is still sliding with no spin.
    r = simulate({"red1": (0.0, 2 * R + 1.0)}, Strike((0.0, 0.0), UP, 3.0))
    hit = first(r, EventKind.BALL_BALL)
    cue = segment_at(r.trajectories["white"], hit.time)
    obj = segment_at(r.trajectories["red1"], hit.time)
    before = segment_at(r.trajectories["white"], hit.time, before=True).velocity(hit.time)
    v = math.hypot(*before)
    assert math.hypot(cue.vx, cue.vy) == pytest.approx((1 - E_BALL) / 2 * v, rel=1e-6)
    assert math.hypot(obj.vx, obj.vy) == pytest.approx((1 + E_BALL) / 2 * v, rel=1e-6)
    # "Dead": the cue ball comes to rest less than a radius from where it struck.
    stop = first(r, EventKind.ROLLING_TO_REST, "white")
    assert stop.time < first(r, EventKind.BALL_CUSHION).time
    assert math.dist(stop.positions[0], hit.positions[1]) < R


def test_rolling_cue_ball_follows_through() -> None:
    r = simulate({"red1": (0.0, 0.0)}, Strike((-400.0, 0.0), 0.0, 1.0, height=0.4))
    hit = first(r, EventKind.BALL_BALL)
    v = math.hypot(*segment_at(r.trajectories["white"], hit.time, before=True).velocity(hit.time))
    after = [e for e in r.events if e.time > hit.time]
    roll = first(type("R", (), {"events": after})(), EventKind.SLIDING_TO_ROLLING, "white")
    s = segment_at(r.trajectories["white"], roll.time)
    # Forward, at about 2/7 of the impact speed (+5/7 of the 2.5 % left by restitution),
    # a little less because ball-ball friction takes some topspin.
    assert s.vx > 0
    assert 0.25 * v < math.hypot(s.vx, s.vy) < (2 / 7 + 5 / 7 * (1 - E_BALL) / 2) * v + 1e-9


def test_screw_draws_the_cue_ball_back() -> None:
    r = simulate({"red1": (0.0, 300.0)}, Strike((0.0, 0.0), UP, 2.0, height=-0.5))
    hit = first(r, EventKind.BALL_BALL)
    roll = next(
        e
        for e in r.events
        if e.time > hit.time and e.kind is EventKind.SLIDING_TO_ROLLING and e.balls == ("white",)
    )
    s = segment_at(r.trajectories["white"], roll.time)
    assert s.vy < -100.0 and abs(s.vx) < 1e-6
    assert r.positions["white"][1] < 0.0  # back past where it started


@pytest.mark.parametrize("speed", [0.5, 2.0, 5.0])
def test_stun_cut_object_ball_on_line_of_centres_plus_throw(speed: float) -> None:
    phi = math.radians(30)
    # Object ball at a 30° cut, 1 mm of travel before contact.
    ox, oy = 2 * R * math.sin(phi), 2 * R * math.cos(phi) + 1.0
    r = simulate({"red1": (ox, oy)}, Strike((0.0, 0.0), UP, speed))
    hit = first(r, EventKind.BALL_BALL)
    (wx, wy), (rx, ry) = hit.positions[1], hit.positions[0]
    n = ((rx - wx) / (2 * R), (ry - wy) / (2 * R))
    v_in = segment_at(r.trajectories["white"], hit.time, before=True).velocity(hit.time)
    cut = angle_between(v_in, n)
    assert cut == pytest.approx(phi, abs=0.01)
    # Throw (Alciatore TP A.14, no spin): tan θ = min(μ, 2 tan φ / (7 (1 + e))), μ taken at
    # the contact points' slip speed v·sin φ.
    mu = ball_friction(math.hypot(*v_in) * math.sin(cut))
    throw = math.atan(min(mu, 2 * math.tan(cut) / (7 * (1 + E_BALL))))
    obj = segment_at(r.trajectories["red1"], hit.time)
    assert angle_between((obj.vx, obj.vy), n) == pytest.approx(throw, abs=2e-4)
    # The object ball is thrown towards the cue ball's side of the line (thinner cut: +x here
    # means the line of centres turns towards the cue ball's path, i.e. a smaller x).
    assert obj.vx / obj.vy < n[0] / n[1]
    cue = segment_at(r.trajectories["white"], hit.time)
    between = angle_between((cue.vx, cue.vy), (obj.vx, obj.vy))
    # The 90° rule, less the throw and the 2.5 % of normal speed restitution leaves behind.
    jn = (1 + E_BALL) / 2 * math.cos(cut)
    jt = math.tan(throw) * jn
    cue_from_n = math.atan2(math.sin(cut) - jt, (1 - E_BALL) / 2 * math.cos(cut))
    assert between == pytest.approx(cue_from_n - throw, abs=2e-4)
    assert 80.0 < math.degrees(between) < 90.0


# --- cushions --------------------------------------------------------------------------------
def test_cushion_rebound_is_the_mathavan_impact() -> None:
    # A stun at 30° from the perpendicular into the right cushion from 1 mm away: the rebound
    # is rules.physics.cushion's impact, integrated finely, to 0.5°.
    incidence = math.radians(30)
    start = (889.0 - R - 1.0 - math.cos(incidence), 300.0)
    r = simulate({}, Strike(start, incidence, 1.0))
    hit = first(r, EventKind.BALL_CUSHION)
    assert hit.where == "right_upper"
    before = segment_at(r.trajectories["white"], hit.time, before=True)
    after = segment_at(r.trajectories["white"], hit.time)
    vx, vy = before.velocity(hit.time)
    wx, wy, wz = before.spin(hit.time)
    # Normal +x: n = x, t = y; spin about n is wx, about t is wy.
    vn, vt, _a, _b, _w = cushion.impact(vx, vy, wx, wy, wz, steps=4000)
    assert math.degrees(math.atan2(after.vy, -after.vx)) == pytest.approx(
        math.degrees(math.atan2(vt, -vn)), abs=0.5
    )
    assert math.hypot(after.vx, after.vy) == pytest.approx(math.hypot(vn, vt), rel=0.01)
    # The bed's friction during the impact takes some of the speed along the cushion: a stun
    # comes off nearer the perpendicular than it came in.
    assert math.degrees(math.atan2(after.vy, -after.vx)) < 30.0


@pytest.mark.parametrize("side", [0.3, -0.3])
def test_side_spin_changes_the_rebound(side: float) -> None:
    # Straight into the top cushion: right-hand side (side > 0) comes back to the striker's
    # right (+x), left-hand side to the left.
    r = simulate({}, Strike((0.0, 1700.0), UP, 1.0, side=side))
    hit = first(r, EventKind.BALL_CUSHION)
    after = segment_at(r.trajectories["white"], hit.time)
    assert after.vy < 0
    assert math.copysign(1.0, after.vx) == math.copysign(1.0, side)
    assert abs(after.vx) > 20.0


# --- pockets and jaws ------------------------------------------------------------------------
@pytest.mark.parametrize("pocket", POCKETS, ids=lambda p: p.name)
def test_ball_at_the_pocket_centre_drops(pocket) -> None:  # type: ignore[no-untyped-def]
    # From 600 mm out along the pocket's own axis (corners) or at 30° (middles), 1.5 m/s.
    ix, iy = pocket.inward
    if abs(ix) == 1.0:  # middle pocket: come in at an angle
        d = (ix * math.cos(math.radians(30)), math.sin(math.radians(30)))
    else:
        d = (ix, iy)
    mx, my = pocket.mouth
    start = (mx - 600 * d[0], my - 600 * d[1])
    r = simulate({}, Strike(start, math.atan2(d[1], d[0]), 1.5))
    assert r.potted == ("white",)
    assert r.events[-1].kind is EventKind.POCKET and r.events[-1].where == pocket.name


@pytest.mark.parametrize(("name", "degrees"), [("top_right", 3.0), ("middle_right", 5.0)])
def test_ball_on_the_jaw_rattles_out(name: str, degrees: float) -> None:
    # Straight at the pocket from 500 mm at 3 m/s, but a few degrees off: it catches a jaw
    # and comes back out (docs/physics.md, "Pockets").
    pocket = next(p for p in POCKETS if p.name == name)
    (mx, my), (ix, iy) = pocket.mouth, pocket.inward
    start = (mx - 500 * ix, my - 500 * iy)
    r = simulate({}, Strike(start, math.atan2(iy, ix) + math.radians(degrees), 3.0))
    jaws = [e for e in r.events if e.kind is EventKind.BALL_JAW]
    assert jaws and {e.where for e in jaws} == {name}
    assert r.potted == ()
    check_stroke(r, {"white": start})
    # A degree and a half less off and it drops.
    r = simulate({}, Strike(start, math.atan2(iy, ix) + math.radians(degrees - 1.5), 3.0))
    assert r.potted == ("white",)


# --- the whole stroke ------------------------------------------------------------------------
def break_off():  # type: ignore[no-untyped-def]
    balls = initial_rack()
    cue = (-150.0, BAULK_Y - 100.0)
    apex = balls["red1"]
    strike = Strike(cue, math.atan2(apex[1] - cue[1], apex[0] - cue[0]), 8.0)
    return balls, strike


def test_break_energy_never_rises_and_balls_stay_apart_on_the_bed() -> None:
    balls, strike = break_off()
    r = simulate(balls, strike)
    assert not r.truncated
    # Aimed at the apex red, the cue ball meets the pink first: the rack's apex is 1 mm behind
    # the pink (RULES.md §1), so no line from the D reaches the apex red first.
    assert r.first_contact == ("pink",)
    check_stroke(r, {**balls, "white": strike.cue_ball})


@pytest.mark.parametrize(
    ("speed", "side", "height"), [(0.5, 0.0, 0.0), (3.0, 0.3, -0.3), (6.0, -0.4, 0.2)]
)
def test_everyday_strokes_are_consistent(speed: float, side: float, height: float) -> None:
    balls = {
        "red3": (400.0, 1300.0),
        "blue": (0.0, 0.0),
        "pink": (0.0, 892.25),
        "red7": (-500.0, 200.0),
    }
    cue = (250.0, 900.0)
    angle = math.atan2(1300.0 - 900.0, 400.0 - 250.0)
    r = simulate(balls, Strike(cue, angle, speed, side, height))
    assert r.first_contact == ("red3",)
    check_stroke(r, {**balls, "white": cue})


# --- resting contacts --------------------------------------------------------------------------
def test_push_through_a_touching_ball_ends_quickly_and_cleanly() -> None:
    # The cue ball frozen to a red, rolled slowly through it: a push, many gentle contacts.
    balls = {"red1": (0.0, 2 * R)}
    r = simulate(balls, Strike((0.0, 0.0), UP, 0.3, height=0.4))
    assert r.first_contact == ("red1",)
    assert len(r.events) < 200
    check_stroke(r, {**balls, "white": (0.0, 0.0)}, samples=5)
    assert r.positions["red1"][1] > r.positions["white"][1] + 2 * R - 1e-6


def test_ball_frozen_to_a_cushion_struck_into_it() -> None:
    balls = {"red1": (0.0, 1784.5 - R)}
    r = simulate(balls, Strike((0.0, 1784.5 - 3 * R - 5.0), UP, 1.0))
    kinds = [e.kind for e in r.events]
    assert kinds[0] is EventKind.BALL_BALL and EventKind.BALL_CUSHION in kinds
    check_stroke(r, {**balls, "white": (0.0, 1784.5 - 3 * R - 5.0)}, samples=5)
    # The red comes off the cushion and the white rebounds: both end below the cushion line.
    assert r.positions["white"][1] < r.positions["red1"][1] - 2 * R + 1e-6
