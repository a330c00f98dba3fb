"""The computer as a player: from the match a player sees to the command a browser would send.

`decide(match, seat, level, rng)` answers whatever `seat` has to do now: a stroke (aim, pace,
spin, nomination, placement from hand), a choice after a foul, a concession when it needs more
snookers than are left, or nothing when it is not its turn. The command goes through
`rules.match.apply` like anyone's; the computer reads nothing a player could not.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rules import geometry, referee
from rules.commands import Choose, Command, Concede, Stroke
from rules.match import Match, snookers_required
from rules.opponent.model import Level, execute, on_cushion
from rules.opponent.search import (
    SAFETY_TRIGGER,
    Budget,
    Plan,
    break_plans,
    placements,
    pot_plans,
    safety_plans,
    sampled,
    turn_value,
)
from rules.state import FrameState, Player
from rules.table import D_CENTRE, WHITE, Point

# Simulations one decision may use, per level: about a second on one core of the shared
# machine with a full table (docs/opponent.md, "Speed").
SIMS: Final = {"novice": 60, "club": 90, "pro": 125}
# A server's limit on one decision's thinking, in seconds (with a clock: `decide`).
THINK_SECONDS: Final = 1.0
# What a miss that is replaced is expected to give again, in points, when the offender is
# snookered: they are likely to miss again.
REPLACE_GAIN: Final = 4.0


@dataclass(frozen=True, slots=True)
class Decision:
    """What the computer does, and why: the command sent, the stroke it meant (before the
    hand's error), what it expected of it, and the simulations it took."""

    command: Command
    meant: Stroke | None = None
    kind: str = ""
    expected: float = 0.0
    leave: Point | None = None
    sims: int = 0
    plan: Plan | None = None  # the stroke meant, with the pot it was for (ball, pocket)


def decide(
    match: Match,
    seat: Player,
    level: Level,
    rng: random.Random,
    *,
    clock: Callable[[], float] | None = None,
    seconds: float = THINK_SECONDS,
    pause: Callable[[], None] | None = None,
) -> Decision | None:
    """What `seat` does now, or None when it has nothing to do (not its turn, the draw).
    With a `clock` the search also stops after `seconds` (a server's limit), and with a
    `pause` it waits there before each simulation while others need the machine (`Budget`)."""
    frame = match.frame
    if match.over or frame.frame_over or frame.to_act != seat:
        return None
    if should_concede(frame, seat):
        return Decision(Concede("frame"), kind="concede")
    if frame.pending is not None:
        return Decision(Choose(choose_option(frame, seat, level)), kind="choice")
    budget = Budget(SIMS.get(level.name, SIMS["club"]), clock, seconds, pause)
    return play(frame, seat, level, rng, budget)


def should_concede(frame: FrameState, me: Player) -> bool:
    """It needs more snookers than there are balls left to lay them with (the last ball, the
    black, ends the frame)."""
    needed = snookers_required(frame, me)
    if needed == 0:
        return False
    return needed > max(0, len(frame.object_balls) - 1)


# --- choices after a foul ---------------------------------------------------------------------
def option_values(frame: FrameState, me: Player, level: Level) -> dict[str, float]:
    """Each option offered, worth in points to `me`: the position it leaves, for whoever
    plays next (docs/opponent.md, "Decisions after a foul")."""
    pending = frame.pending
    assert pending is not None
    values: dict[str, float] = {}
    for option in pending.options:
        after, _ = referee.choose(frame, me, option)
        if option == "replace":
            restore = after
            balls = restore.ball_map()
            on = referee.balls_on(restore.on, [b for b in balls if b != WHITE])
            if geometry.snookered(balls, on, from_hand=restore.in_hand):
                values[option] = REPLACE_GAIN
            else:
                values[option] = -turn_value(restore, level, 1)
        elif option == "rebreak":
            values[option] = 1.0  # breaking off gives the first chance away
        elif after.striker == me:
            values[option] = turn_value(after, level, level.depth)
        else:
            values[option] = -turn_value(after, level, 1)
    return values


def choose_option(frame: FrameState, me: Player, level: Level) -> str:
    values = option_values(frame, me, level)
    pending = frame.pending
    assert pending is not None
    # Ties go to the order the options are offered in (play first).
    return max(pending.options, key=lambda o: (values[o], -pending.options.index(o)))


# --- the stroke ---------------------------------------------------------------------------------
def plan(frame: FrameState, me: Player, level: Level, rng: random.Random, budget: Budget) -> Plan:
    """The stroke the level means: the best of its pots and safeties under sampled error."""
    if frame.opening:
        found = break_plans(frame, me, level, budget)
        if found:
            return found[0][1]
    pots = pot_plans(frame, me, level, budget)
    finalists = [p for _, p in pots[: level.finalists]]
    scored = [(sampled(frame, me, p, level, rng, level.samples, budget), p) for p in finalists]
    best = max(scored, key=lambda item: item[0], default=None)
    if best is None or best[0] < SAFETY_TRIGGER:
        safeties = safety_plans(frame, me, level, budget)
        samples = max(2, level.samples // 2)
        for _, safety in safeties[: max(1, level.finalists - 1)]:
            value = sampled(frame, me, safety, level, rng, samples, budget)
            if best is None or value > best[0]:
                best = (value, safety)
        if best is None and safeties:
            best = (safeties[0][0], safeties[0][1])
    if best is None:
        return fallback(frame, me)
    value, chosen = best
    if not math.isfinite(value):  # the budget ran out before any sample: nothing measured
        value = 0.0
    return Plan(
        chosen.stroke, chosen.kind, chosen.distance, chosen.cut, value, chosen.leave,
        chosen.ball, chosen.pocket,
    )  # fmt: skip


def fallback(frame: FrameState, me: Player) -> Plan:
    """A legal stroke when the search found nothing playable: straight at a ball on."""
    balls = frame.ball_map()
    cue_ball: Point | None = None
    if frame.in_hand:
        spots = placements(frame)
        cue_ball = spots[0] if spots else D_CENTRE
    cue = cue_ball if cue_ball is not None else balls[WHITE]
    on = sorted(referee.balls_on(frame.on, [b for b in balls if b != WHITE])) or [
        b for b in balls if b != WHITE
    ]
    ball = min(on, key=lambda b: math.dist(cue, balls[b]))
    p = balls[ball]
    nominated = ball if frame.on == "colour" or frame.free_ball else None
    stroke = Stroke(math.atan2(p[1] - cue[1], p[0] - cue[0]), 1.5, 0.0, 0.0, nominated, cue_ball)
    return Plan(stroke, "safety", math.dist(cue, p), 0.0)


def play(
    frame: FrameState, me: Player, level: Level, rng: random.Random, budget: Budget
) -> Decision:
    """Plan the stroke, then play it as the hand does: the level's errors on the one meant."""
    chosen = plan(frame, me, level, rng, budget)
    cushion = not frame.in_hand and on_cushion(frame.ball_map().get(WHITE, (0.0, 0.0)))
    struck = execute(chosen.stroke, level, rng, chosen.distance, chosen.cut, cushion)
    return Decision(
        struck, chosen.stroke, chosen.kind, chosen.expected, chosen.leave, budget.used, chosen
    )


__all__ = ["Decision", "choose_option", "decide", "option_values", "should_concede"]
