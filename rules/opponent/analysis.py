"""The coach's analysis of a frame, stroke by stroke (issue 43, docs/coach.md).

Each stroke and each choice after a foul is valued from the position before it, as the Pro's
search values strokes (expected points: what it scores, and the position it leaves to the
striker or gives the opponent, `search.score_outcome`):

- the **best** stroke is the one the Pro's search would play there (`player.plan`);
- the **played** stroke is valued under the same model: the stroke as the member sent it,
  struck by the Pro's hand (`model.execute`), the mean over `SAMPLES` executions;
- the Pro's stroke is valued again with the very same random draws (common random numbers),
  so a member who played the computer's own stroke loses exactly nothing, and the search's
  own estimate (the best of several noisy means, so flattering) is not what a member is
  measured against.

The points **lost** are the best's worth less the played one's (never below nothing): past
`INACCURACY`, `MISTAKE` and `BLUNDER` points the stroke is marked, with the reason in the
club's words (`Reason`): an easy pot not taken, position lost, a safety that left a pot, an
avoidable foul. A choice after a foul is valued by the search's own option values, which are
exact (no sampling).

Pure and seeded: the same frame, seed and level give the same analysis.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules import geometry, referee
from rules.commands import Choose, Command, Stroke
from rules.match import Match, apply
from rules.opponent.chances import frame_chance, stroke_accuracy
from rules.opponent.model import PRO, Level
from rules.opponent.player import SIMS, option_values, plan
from rules.opponent.search import Budget, Plan, best_pots, sampled, turn_value
from rules.state import FrameState, Player, opponent
from rules.table import BALL_RADIUS, WHITE, Point

# Points lost at which a stroke is marked (docs/coach.md, "Thresholds"): a pot's worth
# of position (an inaccuracy), a red and a colour's chance given away (a mistake), a good
# chance thrown away or a foul's penalty and the table with it (a blunder).
INACCURACY: Final = 2.0
MISTAKE: Final = 4.0
BLUNDER: Final = 7.0
# Sampled executions of each stroke (the Pro's search samples its finalists as often).
SAMPLES: Final = PRO.samples
# A pot the Pro's hand makes this often is an easy pot.
EASY_POT: Final = 0.8
# The opponent's worth at the table left, in points, past which a safety "left a pot".
LEFT_A_POT: Final = 2.0
# A stroke played is the Pro's own when its aim is within this much of the Pro's (about a
# third of a degree: what a member's aim control sets apart), its pace within this share and
# its spin within this much of a ball's radius, placed (from hand) within this many mm.
AGREE_ANGLE: Final = 0.006
AGREE_PACE: Final = 0.12
AGREE_SPIN: Final = 0.15
AGREE_PLACE: Final = 25.0


class Mark(StrEnum):
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


class Reason(StrEnum):
    """Why a marked stroke lost its points, in the club's words (worded in the site)."""

    EASY_POT = "easy_pot"  # an easy pot not taken (not tried, or missed)
    POSITION = "position"  # a ball potted, the position lost
    SAFETY_LEFT_POT = "safety_left_pot"  # no pot, and the opponent left a chance
    AVOIDABLE_FOUL = "avoidable_foul"  # a foul when the player was not snookered
    CHOICE = "choice"  # a choice after a foul that gave the opponent more
    BETTER_STROKE = "better_stroke"  # none of those: another stroke was worth more


def mark_of(lost: float) -> Mark | None:
    if lost >= BLUNDER:
        return Mark.BLUNDER
    if lost >= MISTAKE:
        return Mark.MISTAKE
    if lost >= INACCURACY:
        return Mark.INACCURACY
    return None


@dataclass(frozen=True, slots=True)
class Analysed:
    """One stroke or choice of a frame: who played it, at which of the match's commands
    (`index`, 0-based), the Pro's stroke (or option) and what each was worth, in points."""

    index: int
    seat: Player
    best_value: float
    played_value: float
    lost: float
    mark: Mark | None
    reason: Reason | None
    best: Stroke | None = None  # the Pro's stroke, as meant (None for a choice)
    best_kind: str = ""  # pot, safety, escape, break; or the option
    best_leave: Point | None = None  # where the Pro's stroke leaves the cue ball, as meant
    played_option: str = ""  # a choice's option
    agrees: bool = False  # the stroke (or option) played is the Pro's own (`agrees`)
    # The striker's frame-winning chance before it (rules/opponent/chances.py), and the
    # stroke's accuracy (0–100) from the chance it lost against the Pro's stroke.
    chance: float = 0.5
    accuracy: float = 100.0

    @property
    def choice(self) -> bool:
        return self.best is None


def agrees(played: Stroke, best: Stroke) -> bool:
    """Whether `played` is the Pro's stroke `best`, as near as a hand sets one (the fair-play
    signal counts these: docs/coach.md)."""
    turn = abs((played.angle - best.angle + math.pi) % (2 * math.pi) - math.pi)
    if turn > AGREE_ANGLE or abs(played.speed - best.speed) > AGREE_PACE * best.speed:
        return False
    if math.hypot(played.side - best.side, played.height - best.height) > AGREE_SPIN:
        return False
    if (played.cue_ball is None) != (best.cue_ball is None):
        return False
    if played.cue_ball is not None and best.cue_ball is not None:
        return math.dist(played.cue_ball, best.cue_ball) <= AGREE_PLACE
    return True


def first_ball(frame: FrameState, stroke: Stroke) -> tuple[float, float]:
    """The error model's distance (mm, cue ball to the first ball its line meets) and cut
    (rad) of `stroke`, from the geometry alone; a line that meets no ball counts as a long
    straight stroke."""
    balls = frame.ball_map()
    cue = stroke.cue_ball if frame.in_hand and stroke.cue_ball is not None else balls[WHITE]
    ux, uy = math.cos(stroke.angle), math.sin(stroke.angle)
    found: tuple[float, float] | None = None
    for name, (x, y) in balls.items():
        if name == WHITE:
            continue
        dx, dy = x - cue[0], y - cue[1]
        along, across = dx * ux + dy * uy, dx * uy - dy * ux
        if along <= 0.0 or abs(across) >= 2 * BALL_RADIUS:
            continue
        travel = along - math.sqrt((2 * BALL_RADIUS) ** 2 - across**2)
        if found is None or travel < found[0]:
            found = (max(travel, 0.0), math.asin(abs(across) / (2 * BALL_RADIUS)))
    return found if found is not None else (1500.0, 0.0)


def stroke_value(
    frame: FrameState, me: Player, stroke: Stroke, level: Level, seed: str, budget: Budget
) -> float:
    """`stroke` as `level`'s hand plays it from `frame`: the mean over `SAMPLES` executions,
    drawn from `seed` (the same seed, the same draws: strokes compared on equal terms)."""
    distance, cut = first_ball(frame, stroke)
    meant = Plan(stroke, "played", distance, cut)
    return sampled(frame, me, meant, level, random.Random(seed), SAMPLES, budget)


def _reason(before: FrameState, me: Player, best: Plan, after: FrameState, fouled: bool,
            potted: bool, level: Level) -> Reason:  # fmt: skip
    """Why the stroke played lost points, from what it did."""
    balls = before.ball_map()
    on = referee.balls_on(before.on, [b for b in balls if b != WHITE])
    if fouled and (before.free_ball or not geometry.snookered(balls, on, from_hand=before.in_hand)):
        return Reason.AVOIDABLE_FOUL
    if best.kind == "pot" and not potted:
        chance = next(
            (p.chance for p in best_pots(before, level)
             if p.ball == best.ball and p.pocket == best.pocket),
            0.0,
        )  # fmt: skip
        if chance >= EASY_POT:
            return Reason.EASY_POT
    if potted and not fouled:
        return Reason.POSITION
    if not fouled and not after.frame_over:
        left = after.with_(pending=None, striker=opponent(me))
        if turn_value(left, level, 1) >= LEFT_A_POT:
            return Reason.SAFETY_LEFT_POT
    return Reason.BETTER_STROKE


def analyse_stroke(
    match: Match, seat: Player, command: Stroke | Choose, index: int, seed: str,
    level: Level = PRO,
) -> Analysed:  # fmt: skip
    """One stroke (or choice) played by `seat` in `match` as it stood."""
    frame = match.frame
    mine, theirs = frame.scores if seat == "A" else frame.scores[::-1]
    left = referee.points_remaining(frame)
    chance = frame_chance(mine - theirs, left)

    def accuracy(best_value: float, played_value: float) -> float:
        """The chance lost: the lead each stroke is worth, as the chance it gives."""
        worth = [frame_chance(mine - theirs + v, left) for v in (best_value, played_value)]
        return stroke_accuracy(worth[0] - worth[1])

    if isinstance(command, Choose):
        values = option_values(frame, seat, level)
        best_option = max(values, key=lambda o: values[o])
        best_value, played_value = values[best_option], values[command.option]
        lost = max(0.0, best_value - played_value)
        mark = mark_of(lost)
        return Analysed(
            index, seat, best_value, played_value, lost, mark, Reason.CHOICE if mark else None,
            best_kind=best_option, played_option=command.option, chance=chance,
            accuracy=accuracy(best_value, played_value), agrees=best_option == command.option,
        )  # fmt: skip
    sims = SIMS.get(level.name, SIMS["pro"])
    best = plan(frame, seat, level, random.Random(f"{seed}:search"), Budget(sims))
    # The best and the played stroke, each struck SAMPLES times with the same draws.
    budget = Budget(math.inf)
    best_value = stroke_value(frame, seat, best.stroke, level, seed, budget)
    played_value = stroke_value(frame, seat, command, level, seed, budget)
    if not math.isfinite(best_value):
        best_value = played_value
    lost = max(0.0, best_value - played_value) if math.isfinite(played_value) else 0.0
    mark = mark_of(lost)
    reason = None
    if mark is not None:
        _, outcome = apply(match, seat, command)
        reason = _reason(frame, seat, best, outcome.settled, outcome.ruling.foul,
                         outcome.ruling.points > 0 and not outcome.ruling.foul, level)  # fmt: skip
    return Analysed(
        index, seat, best_value, played_value, lost, mark, reason, best.stroke, best.kind,
        best.leave, chance=chance,
        accuracy=accuracy(best_value, played_value) if math.isfinite(played_value) else 100.0,
        agrees=agrees(command, best.stroke),
    )  # fmt: skip


def strokes_of_frame(
    match: Match, commands: Sequence[tuple[Player | None, Command]], number: int
) -> Iterator[tuple[int, Match, Player, Stroke | Choose]]:
    """Each stroke and choice a player made in frame `number` (1-based) of the match that
    `commands` make from `match` (`rules.match.new_match` for a stored one): the command's
    index, the match as it stood before it, the seat and the command."""
    for index, (seat, command) in enumerate(commands):
        if match.over or match.frame_number > number:
            return
        if (
            match.frame_number == number and seat is not None
            and isinstance(command, Stroke | Choose)
        ):  # fmt: skip
            yield index, match, seat, command
        match, _ = apply(match, seat, command)


def analyse_frame(
    match: Match, commands: Sequence[tuple[Player | None, Command]], number: int, seed: str,
    level: Level = PRO,
) -> Iterator[Analysed]:  # fmt: skip
    """Frame `number`'s strokes and choices analysed in order (a generator: a caller
    reports its progress, "12 of 48 strokes", and may stop)."""
    for index, before, seat, command in strokes_of_frame(match, commands, number):
        yield analyse_stroke(before, seat, command, index, f"{seed}:{index}", level)


__all__ = [
    "BLUNDER", "INACCURACY", "MISTAKE", "Analysed", "Mark", "Reason", "agrees", "analyse_frame",
    "analyse_stroke", "first_ball", "mark_of", "stroke_value", "strokes_of_frame",
]  # fmt: skip
