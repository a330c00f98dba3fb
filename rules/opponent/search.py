"""The computer's search: the strokes it weighs, how it plays them over, how it scores them.

1. **Pots.** For each ball it may play (a free ball too, nominated) into each pocket: the
   ghost-ball aim, the cut, the distances, whether both paths are clear, and the chance the
   level's error model gives it (`model.pot_chance`). The best few by chance and value go on.
2. **Strokes.** For each pot a few paces and, from Club up, stun, top and screw. Each is played
   on the real physics and the real referee (`rules.stroke.play_stroke`); the aim is corrected
   until the object ball runs to the pocket (throw and squirt are the physics', so the ghost
   ball alone is not enough).
3. **Position.** Where the cue ball stops is scored by the next pot it leaves (the level's own
   chance of it), and from Pro up by the choice of pots it leaves.
4. **Under error.** The best few are played `samples` times each as the hand would play them
   (`model.execute`); a pot scores its value and the position, a miss minus what the opponent
   is left, a foul minus its penalty too.
5. **Safety** when no pot is worth its risk: contacts of several thicknesses and paces on each
   ball on, scored by the opponent's best pot chance afterwards, best when they are snookered
   or tight on a cushion. Snookered or touching, escapes off one and two cushions (aimed at
   the mirror images of the balls on) and a sweep of directions.

Everything is played from what a player sees (the frame as the browser gets it) and a seeded
`random.Random`, so a decision is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from rules import geometry, referee
from rules.commands import Stroke
from rules.errors import IllegalRequest
from rules.opponent.model import Level, execute, line_sigma, on_cushion, pot_chance
from rules.physics import ShotResult
from rules.physics.constants import ROLL_DECEL
from rules.referee import Ruling
from rules.state import FrameState, Player, opponent
from rules.stroke import play_stroke
from rules.table import (
    BALL_DIAMETER,
    BALL_RADIUS,
    BAULK_Y,
    D_CENTRE,
    D_RADIUS,
    HALF_LENGTH,
    HALF_WIDTH,
    POCKETS,
    VALUES,
    WHITE,
    Pocket,
    Point,
    is_red,
)

# How far inside the mouth the object ball is sent, and the steepest approach a pocket takes.
POCKET_DEPTH: Final = 20.0
MAX_APPROACH: Final = {"corner": math.radians(52.0), "middle": math.radians(50.0)}
MAX_CUT: Final = math.radians(78.0)
# What a pot is worth beyond its points: the break it keeps going (docs/opponent.md).
CONTINUE: Final = 4.0
# What a miss gives away on average: the opponent's chance at the table.
MISS_LEAVE: Final = 3.0
# The value of leaving the opponent snookered (they are likely to foul or leave a chance).
SNOOKER_BONUS: Final = 4.0
# Having to play safe from a cue ball tight on a cushion.
AWKWARD: Final = 1.0
# Winning the frame with this stroke, in points.
FRAME_WON: Final = 30.0
# With no pot worth more than this (expected points), safety is weighed too.
SAFETY_TRIGGER: Final = 2.5


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot the player could attempt: `ball` into `pocket` from the cue ball at `cue`."""

    ball: str
    pocket: str
    cue: Point
    target: Point  # where the object ball is sent
    aim: float  # ghost-ball aim, radians
    cut: float  # radians
    d0: float  # cue ball to the ghost ball, mm
    d1: float  # object ball to the pocket, mm
    tolerance: float  # mm either side of the line that still drops
    chance: float
    value: int
    nominated: str | None


@dataclass(frozen=True, slots=True)
class Plan:
    """A stroke the player means, what it expects of it, and how the hand errs on it."""

    stroke: Stroke
    kind: str  # pot, safety, escape, break
    distance: float  # to the first ball, mm (the error model's d)
    cut: float
    expected: float = 0.0  # points, sampled under error
    leave: Point | None = None  # where the cue ball stops when played as meant
    ball: str | None = None
    pocket: str | None = None


class Budget:
    """Simulations left for one decision: a count, not a clock, so runs are reproducible. A
    server may add a limit in time too (`clock` and `seconds`): on a loaded machine the search
    then stops short rather than keep a member waiting (and is no longer reproducible). It may
    also give a `pause`, called before each simulation, where the thinking waits while others
    need the machine (computer/thinking.py); its waits count against the `seconds`."""

    def __init__(
        self, units: float, clock: Callable[[], float] | None = None, seconds: float = 1.0,
        pause: Callable[[], None] | None = None,
    ) -> None:  # fmt: skip
        self.left = units
        self.used = 0
        self.clock = clock
        self.until = clock() + seconds if clock is not None else math.inf
        self.pause = pause

    def take(self, balls: int) -> bool:
        """Pay for one simulation of a table of `balls` balls: a full table costs about
        three times what a few balls do (docs/opponent.md, "Speed")."""
        if self.left > 0 and self.pause is not None:
            self.pause()
        if self.left <= 0 or (self.clock is not None and self.clock() >= self.until):
            return False
        self.left -= 0.5 + balls / 22
        self.used += 1
        return True


# --- the ball on, the value of a pot ----------------------------------------------------------
def targets(frame: FrameState) -> list[str]:
    """The balls the striker may play first: the balls on, and with a free ball any ball."""
    balls = [b for b, _ in frame.balls if b != WHITE]
    if frame.free_ball:
        return balls
    return sorted(referee.balls_on(frame.on, balls))


def pot_value(frame: FrameState, ball: str) -> int:
    """What potting `ball` scores: a free ball counts as the ball on (§21)."""
    if frame.free_ball and ball not in referee.balls_on(frame.on, [ball]):
        return 1 if frame.on == "red" else VALUES.get(frame.on, 7)
    return VALUES[ball]


def nomination(frame: FrameState, ball: str) -> str | None:
    """Nominate whenever it counts: a colour while colours are on, and a free ball."""
    if frame.on == "colour":
        return ball
    if frame.free_ball and ball not in referee.balls_on(frame.on, [ball]):
        return ball
    return None


# --- pots: geometry and chance --------------------------------------------------------------------
def _segment_gap(p: Point, a: Point, b: Point) -> float:
    """The distance from p to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0.0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def clear(a: Point, b: Point, balls: Iterable[Point]) -> bool:
    """A ball's centre can travel from a to b without touching a ball at any of `balls`."""
    reach = BALL_DIAMETER - 0.5
    lo_x, hi_x = min(a[0], b[0]) - reach, max(a[0], b[0]) + reach
    lo_y, hi_y = min(a[1], b[1]) - reach, max(a[1], b[1]) + reach
    for p in balls:
        if lo_x <= p[0] <= hi_x and lo_y <= p[1] <= hi_y and _segment_gap(p, a, b) < reach:
            return False
    return True


def _kind(pocket: Pocket) -> str:
    return "middle" if pocket.name.startswith("middle") else "corner"


def _tolerance(pocket: Pocket, approach: float) -> float:
    """How far (mm) either side of the line meant the object ball may stray and still drop:
    the mouth seen from the line of approach, less a ball, halved; the corner's cushions
    guide a ball along them (docs/opponent.md)."""
    if _kind(pocket) == "middle":
        return max(0.0, (pocket.opening * math.cos(approach) - BALL_DIAMETER) / 2)
    return max(0.0, (pocket.opening * math.cos(approach) + 10.0 - BALL_DIAMETER) / 2)


def _on_bed(p: Point) -> bool:
    return abs(p[0]) <= HALF_WIDTH - BALL_RADIUS and abs(p[1]) <= HALF_LENGTH - BALL_RADIUS


def pots(
    frame: FrameState, cue: Point, level: Level, *, table: Mapping[str, Point] | None = None
) -> list[Pot]:
    """Every pot open from `cue`, best (chance times value) first."""
    balls = dict(table) if table is not None else frame.ball_map()
    balls.pop(WHITE, None)
    cushion = on_cushion(cue)
    found: list[Pot] = []
    for ball in targets(frame):
        p = balls[ball]
        others = [q for b, q in balls.items() if b != ball]
        value = pot_value(frame, ball)
        for pocket in POCKETS:
            tx = pocket.mouth[0] + pocket.inward[0] * POCKET_DEPTH
            ty = pocket.mouth[1] + pocket.inward[1] * POCKET_DEPTH
            ux, uy = tx - p[0], ty - p[1]
            d1 = math.hypot(ux, uy)
            if d1 < 1.0:
                continue
            ux, uy = ux / d1, uy / d1
            approach = math.acos(max(-1.0, min(1.0, ux * pocket.inward[0] + uy * pocket.inward[1])))
            if approach > MAX_APPROACH[_kind(pocket)]:
                continue
            ghost = (p[0] - BALL_DIAMETER * ux, p[1] - BALL_DIAMETER * uy)
            gx, gy = ghost[0] - cue[0], ghost[1] - cue[1]
            d0 = math.hypot(gx, gy)
            if d0 < 1.0:
                continue
            cut = math.acos(max(-1.0, min(1.0, (gx * ux + gy * uy) / d0)))
            if cut > MAX_CUT:
                continue
            tolerance = _tolerance(pocket, approach)
            if tolerance <= 1.0:
                continue
            # The ghost must be where a ball can be (a ball on a cushion is cut along it).
            if not _on_bed(ghost) and approach > math.radians(10):
                continue
            if not clear(cue, ghost, others) or not clear(p, (tx, ty), others):
                continue
            sigma = line_sigma(level, d0, cut, cushion)
            chance = pot_chance(sigma, d0, d1, cut, tolerance)
            found.append(
                Pot(
                    ball, pocket.name, cue, (tx, ty), math.atan2(gy, gx), cut, d0, d1,
                    tolerance, chance, value, nomination(frame, ball),
                )
            )  # fmt: skip
    found.sort(key=lambda pot: -pot.chance * pot.value - pot.chance)
    return found


# The D, as the places a player would put the cue ball: the baulk line and two arcs.
def _d_points() -> tuple[Point, ...]:
    cx, cy = D_CENTRE
    out: list[Point] = [(cx, cy)]
    for r in (0.45, 0.9):
        for k in range(7):
            a = math.pi + math.pi * k / 6
            out.append((cx + D_RADIUS * r * math.cos(a), cy + D_RADIUS * r * math.sin(a)))
    return tuple(out)


D_POINTS: Final = _d_points()


def placements(frame: FrameState) -> list[Point]:
    """The D's points where the cue ball may be put down now."""
    table = {b: p for b, p in frame.balls if b != WHITE}
    return [p for p in D_POINTS if referee.placement_refusal(table, p) is None]


def best_pots(frame: FrameState, level: Level) -> list[Pot]:
    """The pots open to the striker: from where the cue ball lies, or from every place in
    the D when in hand."""
    if frame.in_hand:
        found = [pot for cue in placements(frame) for pot in pots(frame, cue, level)]
        found.sort(key=lambda pot: -pot.chance * pot.value - pot.chance)
        return found
    cue = frame.ball_map().get(WHITE)
    return [] if cue is None else pots(frame, cue, level)


# --- the value of a position ------------------------------------------------------------------
def turn_value(frame: FrameState, level: Level, depth: int) -> float:
    """What being at the table in `frame` is worth to its striker, in points: the best pot's
    chance of its value and the break it keeps going, less what a miss gives away; from depth
    2 the second-best pot counts too (a choice of pots is worth more than one)."""
    if frame.frame_over:
        return 0.0
    found = best_pots(frame, level)
    if not found:
        balls = frame.ball_map()
        on = referee.balls_on(frame.on, [b for b in balls if b != WHITE])
        if not frame.free_ball and geometry.snookered(balls, on, from_hand=frame.in_hand):
            return -SNOOKER_BONUS
        # A safety exchange: even, unless the cue ball lies tight on a cushion.
        cue = balls.get(WHITE)
        return -AWKWARD if cue is not None and not frame.in_hand and on_cushion(cue) else 0.0
    best = found[0]
    value = best.chance * (best.value + CONTINUE) - (1.0 - best.chance) * MISS_LEAVE
    if depth >= 2 and len(found) > 1:
        second = next((p for p in found[1:] if p.ball != best.ball), None)
        if second is not None:
            value += 0.25 * second.chance * second.value
    return value


def score_outcome(
    before: FrameState, me: Player, after: FrameState, ruling: Ruling, level: Level, depth: int
) -> float:
    """A played stroke, in points for `me`: what it scored (or gave away) and the position."""
    if ruling.foul:
        if after.frame_over:
            return -FRAME_WON if after.winner != me else FRAME_WON
        return -ruling.penalty - max(0.0, turn_value(_as_striker(after, opponent(me)), level, 1))
    if after.frame_over:
        return ruling.points + (FRAME_WON if after.winner == me else -FRAME_WON)
    if after.pending is not None:  # the re-spotted black's draw
        return float(ruling.points)
    if ruling.points > 0 and after.striker == me:
        position = turn_value(after, level, depth) if depth > 0 else 0.0
        return ruling.points + position
    return ruling.points - turn_value(after, level, 1)


def _as_striker(frame: FrameState, player: Player) -> FrameState:
    """The frame as `player` would play it after a foul (they take the table)."""
    return frame.with_(pending=None, striker=player)


# --- playing a stroke over --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Played:
    stroke: Stroke
    after: FrameState
    ruling: Ruling
    result: ShotResult


def play(frame: FrameState, me: Player, stroke: Stroke, budget: Budget) -> Played | None:
    """The stroke on the real physics and referee; None if refused or out of budget."""
    if not budget.take(len(frame.balls)):
        return None
    try:
        after, ruling, result = play_stroke(frame, me, stroke, closest=False)
    except (IllegalRequest, ValueError):
        return None
    return Played(stroke, after, ruling, result)


def _wrap(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


def _object_heading(result: ShotResult, ball: str) -> float | None:
    """The direction the object ball first moves in, from its trajectory."""
    for segment in result.trajectories.get(ball, ()):
        if abs(segment.vx) + abs(segment.vy) > 1e-6:
            return math.atan2(segment.vy, segment.vx)
    return None


def _min_speed(pot: Pot) -> float:
    """The softest cue-ball speed (m/s) that sends the object ball a little past the pocket:
    it leaves at about cos(cut) of the cue ball's speed, 5/7 of that once rolling."""
    need = math.sqrt(2 * ROLL_DECEL * (pot.d1 + 250.0)) * 7 / 5
    at_contact = need / max(math.cos(pot.cut), 0.25) / 0.9
    return math.sqrt(at_contact**2 + 2 * ROLL_DECEL * 7 / 5 * pot.d0) / 1000.0


def stroke_variants(pot: Pot, level: Level) -> list[tuple[float, float, float]]:
    """(speed, side, height) of the strokes tried for a pot."""
    base = _min_speed(pot)
    factors = (1.2, 1.8, 2.8) if level.spins else (1.3, 2.0)
    spins: tuple[tuple[float, float], ...] = ((0.0, 0.0),)
    if level.spins:
        spins = ((0.0, 0.0), (0.0, 0.35), (0.0, -0.4))
    out = []
    for factor in factors:
        speed = min(7.5, max(0.35, base * factor))
        for side, height in spins:
            out.append((speed, side, height))
    return out


def aimed(
    frame: FrameState, me: Player, pot: Pot, speed: float, side: float, height: float,
    aim: float, budget: Budget, in_hand: bool,
) -> tuple[Played, float] | None:  # fmt: skip
    """The stroke for `pot` at this pace and spin, its aim corrected on the physics until the
    object ball runs at the pocket (at most two corrections); with the aim that did it."""
    ball_at = frame.ball_map()[pot.ball]
    want = math.atan2(pot.target[1] - ball_at[1], pot.target[0] - ball_at[0])
    # Turning the aim one way turns the object ball the other, by about d / (2R·cos cut)
    # (docs/opponent.md); after the first try the slope is measured (a secant step).
    gain = -math.dist(pot.cue, ball_at) / (BALL_DIAMETER * max(math.cos(pot.cut), 0.2))
    played: Played | None = None
    last: tuple[float, float] | None = None
    for _ in range(4):
        stroke = Stroke(aim, speed, side, height, pot.nominated, pot.cue if in_hand else None)
        played = play(frame, me, stroke, budget)
        if played is None:
            return None
        if played.result.first_contact != (pot.ball,):
            return (played, aim) if played.ruling.points > 0 else None
        heading = _object_heading(played.result, pot.ball)
        if heading is None:
            return None
        error = _wrap(want - heading)
        if abs(error) * pot.d1 < 2.5:
            break
        if last is not None and abs(aim - last[0]) > 1e-9:
            slope = _wrap(heading - last[1]) / (aim - last[0])
            if slope < 0.0:
                gain = slope
        last = (aim, heading)
        aim += error / gain
    assert played is not None
    return played, aim


def pot_plans(
    frame: FrameState, me: Player, level: Level, budget: Budget
) -> list[tuple[float, Plan]]:
    """The pots worth playing, each as its best stroke played as meant, with an estimate of
    its worth (its chance of the pot and the position, less the chance of a miss)."""
    found = best_pots(frame, level)
    chosen: list[Pot] = []
    for pot in found:  # the best few, at most two of them from each place in the D
        if len(chosen) >= level.width:
            break
        if sum(1 for c in chosen if c.cue == pot.cue) >= 2 and frame.in_hand:
            continue
        if pot.chance < 0.02:
            continue
        chosen.append(pot)
    plans: list[tuple[float, Plan]] = []
    for pot in chosen:
        aim = pot.aim
        for speed, side, height in stroke_variants(pot, level):
            done = aimed(frame, me, pot, speed, side, height, aim, budget, frame.in_hand)
            if done is None:
                continue
            played, aim = done
            if played.ruling.points <= 0 or played.ruling.foul:
                continue
            position = score_outcome(frame, me, played.after, played.ruling, level, level.depth)
            estimate = pot.chance * position - (1.0 - pot.chance) * MISS_LEAVE
            cue = played.after.ball_map().get(WHITE)
            plans.append(
                (
                    estimate,
                    Plan(
                        played.stroke, "pot", pot.d0, pot.cut, leave=cue, ball=pot.ball,
                        pocket=pot.pocket,
                    ),
                )
            )  # fmt: skip
    plans.sort(key=lambda item: -item[0])
    return plans


# --- safety and escapes -----------------------------------------------------------------------
def safety_plans(
    frame: FrameState, me: Player, level: Level, budget: Budget
) -> list[tuple[float, Plan]]:
    """Contacts on the balls on of several thicknesses and paces, each played as meant and
    scored by what it leaves the opponent; snookered or touching, the escapes first."""
    balls = frame.ball_map()
    cues: list[Point | None] = [None]
    if frame.in_hand:
        spots = placements(frame)
        cues = [spots[0], spots[len(spots) // 2], spots[-1]] if spots else []
    on = sorted(referee.balls_on(frame.on, [b for b in balls if b != WHITE]))
    candidates: list[tuple[Stroke, float, float]] = []
    for cue_ball in cues:
        cue = cue_ball if cue_ball is not None else balls[WHITE]
        near = sorted(on, key=lambda b: math.dist(cue, balls[b]))[:4]
        for speed in (0.9, 1.6, 2.6, 3.6):
            for ball in near:
                p = balls[ball]
                d = math.dist(cue, p)
                base = math.atan2(p[1] - cue[1], p[0] - cue[0])
                for thickness in (0.0, 0.55, -0.55, 0.85, -0.85):
                    off = math.asin(
                        max(-1.0, min(1.0, thickness * BALL_DIAMETER / max(d, BALL_DIAMETER)))
                    )
                    stroke = Stroke(base + off, speed, 0.0, 0.0, nomination(frame, ball), cue_ball)
                    candidates.append((stroke, d, math.asin(abs(thickness))))
    stride = max(1, len(candidates) // max(1, level.safety_budget))
    picked = candidates[::stride][: level.safety_budget]
    cue_now = balls.get(WHITE)
    stuck = frame.touching is not None or (
        cue_now is not None and not frame.in_hand and geometry.snookered(balls, on, from_hand=False)
    )
    if stuck and cue_now is not None:
        picked = escapes(frame, balls, cue_now, on, level) + picked[: level.safety_budget // 4]
    plans: list[tuple[float, Plan]] = []
    for stroke, distance, cut in picked:
        if frame.on == "colour" and stroke.nominated is None:
            continue
        played = play(frame, me, stroke, budget)
        if played is None:
            continue
        score = score_outcome(frame, me, played.after, played.ruling, level, level.depth)
        leave = played.after.ball_map().get(WHITE)
        plans.append((score, Plan(stroke, "safety", distance, cut, leave=leave)))
    plans.sort(key=lambda item: -item[0])
    return plans


def escapes(
    frame: FrameState, balls: Mapping[str, Point], cue: Point, on: list[str], level: Level
) -> list[tuple[Stroke, float, float]]:
    """Strokes out of a snooker: off each cushion at the mirror image of each of the nearest
    balls on, off two at its image in a corner (and either side of each, for the cushion's
    throw), then a sweep of directions."""
    out: list[tuple[Stroke, float, float]] = []
    x_face, y_face = HALF_WIDTH - BALL_RADIUS, HALF_LENGTH - BALL_RADIUS
    images: list[tuple[str, float, float]] = []  # ball, direction, distance
    for ball in sorted(on, key=lambda b: math.dist(cue, balls[b]))[:3]:
        px, py = balls[ball]
        for mx, my in ((2 * x_face - px, py), (-2 * x_face - px, py), (px, 2 * y_face - py),
                       (px, -2 * y_face - py)):  # fmt: skip
            images.append((ball, math.atan2(my - cue[1], mx - cue[0]), math.dist(cue, (mx, my))))
    if on:  # two cushions (a side and an end) to the nearest ball on: its images in the corners
        ball = min(on, key=lambda b: math.dist(cue, balls[b]))
        px, py = balls[ball]
        for sx in (1, -1):
            for sy in (1, -1):
                mx, my = sx * 2 * x_face - px, sy * 2 * y_face - py
                images.append(
                    (ball, math.atan2(my - cue[1], mx - cue[0]), math.dist(cue, (mx, my)))
                )
    # The straight mirror aims first: the budget may run out before the variations.
    for off, speed in ((0.0, 1.8), (0.012, 1.8), (-0.012, 1.8), (0.0, 2.8)):
        for ball, base, d in images:
            stroke = Stroke(base + off, speed, 0.0, 0.0, nomination(frame, ball), None)
            out.append((stroke, d, 0.0))
    if frame.on != "colour":  # a sweep cannot say which colour it will reach first
        steps = max(24, level.safety_budget)
        for k in range(steps):
            out.append((Stroke(2 * math.pi * k / steps, 2.0, 0.0, 0.0, None, None), 900.0, 0.0))
    return out


def break_plans(
    frame: FrameState, me: Player, level: Level, budget: Budget
) -> list[tuple[float, Plan]]:
    """The opening stroke: from between the brown and the yellow, thin off the end red of the
    back row, back down the table; each scored by what it leaves."""
    balls = frame.ball_map()
    reds = [b for b in balls if is_red(b)]
    back = max(balls[b][1] for b in reds)
    end_red = max((b for b in reds if abs(balls[b][1] - back) < 1.0), key=lambda b: balls[b][0])
    p = balls[end_red]
    plans: list[tuple[float, Plan]] = []
    for x in (150.0, 230.0):
        cue = (x, BAULK_Y)
        d = math.dist(cue, p)
        base = math.atan2(p[1] - cue[1], p[0] - cue[0])
        for thickness in (0.8, 0.9):
            off = math.asin(thickness * BALL_DIAMETER / d)
            for speed in (6.0, 7.5):
                for side in (0.0, -0.3):
                    stroke = Stroke(base + off, speed, side, 0.0, None, cue)
                    played = play(frame, me, stroke, budget)
                    if played is None:
                        continue
                    score = score_outcome(frame, me, played.after, played.ruling, level, 1)
                    leave = played.after.ball_map().get(WHITE)
                    plans.append(
                        (score, Plan(stroke, "break", d, math.asin(thickness), leave=leave))
                    )
    plans.sort(key=lambda item: -item[0])
    return plans


# --- under error ------------------------------------------------------------------------------
def sampled(
    frame: FrameState, me: Player, plan: Plan, level: Level, rng: random.Random, samples: int,
    budget: Budget,
) -> float:  # fmt: skip
    """The plan's worth as the hand would play it: the mean over sampled executions."""
    total = 0.0
    n = 0
    cushion = not frame.in_hand and on_cushion(frame.ball_map().get(WHITE, (0.0, 0.0)))
    for _ in range(samples):
        stroke = execute(plan.stroke, level, rng, plan.distance, plan.cut, cushion)
        played = play(frame, me, stroke, budget)
        if played is None:
            continue
        total += score_outcome(frame, me, played.after, played.ruling, level, level.depth)
        n += 1
    return total / n if n else -math.inf
