"""A match's statistics from what was played: breaks, pots, fouls, frames (docs/statistics.md).

Pure and typed, as the rest of the core. The input is the match's acts in order, one `Act` per
stored event after the start: a stroke, a choice, the draw for the re-spotted black, a
concession, a claim, the shot clock. An act is built either from the core's own values while
folding `rules.match.apply` (`act_of`), or by the server from a stored event (members/figures.py,
from the event's ruling, shot and snapshot); both read the same figures, so a match has the
same statistics either way, and a test holds them equal.

Definitions, per player and match:

- A **visit** is a player's turn at the table. It ends with a stroke that scores nothing (a
  missed pot or a safety), a foul, the end of the frame, or the re-spotted black coming (the
  black is re-spotted and a new visit starts at it, as after the last black of a frame).
  A **break** is the points the player scored in one visit: the sum of the ruling's `points` of
  its strokes (never the opponent's penalty points), which is the frame state's `brk` when the
  visit ends. Only visits that scored are breaks.
- **Highest break**, **centuries** (breaks of 100 or more), **breaks of 50 or more** (with the
  frame each was made in; centuries included), **average break**: break points / breaks.
- **Pot success** is pots / attempts. A **pot** is a stroke that scored: fair, with points. An
  **attempt** is a pot, or any other stroke (opening strokes excepted) in which a ball the cue
  ball struck first set off towards a pocket: the line its centre travels along from the
  contact passes within half the pocket's mouth plus a ball's radius of the middle of the
  mouth, ahead of it, so that some of the ball would enter the opening if nothing stood in its
  way. The trajectories stored with each stroke say where each ball went (`aimed_at_pocket`);
  no intent is guessed beyond that, so a safety that happens to send the ball on at a pocket is
  an attempt, and a pot played off a cushion (a double) counts only when it goes in.
- **Fouls conceded**: the fouls the player committed (strokes and the shot clock) and the
  penalty points they gave away.
- **Frames won on the black**: frames the black decided. The frame went to a re-spotted black
  (however it ended there), or it ended on the last black, potted (`POTTED_BLACK`) or fouled
  (`FOUL_ON_BLACK`), when neither player led by more than the black's 7: whoever took the black
  could still win or tie. (The last black is potted in every frame played to the end: a 128
  clearance at 128–0 ends `POTTED_BLACK` too, and was not won on the black.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.commands import Command, kind
from rules.match import Match, Outcome, apply
from rules.outcome import Termination
from rules.state import PLAYERS, Player, opponent
from rules.table import BALL_RADIUS, POCKETS, VALUES, Point

FIFTY = 50
CENTURY = 100
_ON_THE_BLACK = (Termination.POTTED_BLACK, Termination.FOUL_ON_BLACK)

# Trajectory rows (rules.physics.ShotResult.to_json): [t0, motion, x0, y0, vx, vy, ...] for
# the two motions that move a ball across the cloth.
_SLIDING, _ROLLING = 0, 1


@dataclass(frozen=True, slots=True)
class Act:
    """One stored event as the statistics read it."""

    kind: str  # the command's kind: stroke, choice, toss, concede, claim, shot_clock
    seat: Player | None  # who acted (the offender of a shot-clock foul); None for the draw
    frame: int  # the number of the frame it was played in
    scores: tuple[int, int] = (0, 0)  # the frame's score before it (A, B)
    opening: bool = False  # a stroke that was the frame's opening stroke (§8)
    foul: bool = False
    penalty: int = 0
    points: int = 0  # what the striker scored (0 on a foul)
    aimed: bool = False  # a ball first struck set off towards a pocket (`aimed_at_pocket`)
    respotted_black: bool = False  # the black is re-spotted now (the tying stroke, the draw)
    frame_winner: Player | None = None  # set when the act ended the frame
    frame_ended: Termination | None = None  # how (None: stored before reasons were kept)
    match_winner: Player | None = None  # set when the act ended the match


@dataclass(frozen=True, slots=True)
class Break:
    frame: int
    points: int


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's figures for one match."""

    won: bool  # the match (False for both while it goes on)
    frames_won: int
    frames_lost: int
    breaks: tuple[Break, ...]  # every visit that scored, in order
    pots: int
    attempts: int
    fouls: int
    foul_points: int
    won_on_black: int
    # Frames won by this player while receiving a handicap start (RULES.md §10): a break is
    # still a break, but a result a start helped to is marked (docs/handicaps.md).
    won_with_start: int = 0

    @property
    def highest_break(self) -> int:
        return max((b.points for b in self.breaks), default=0)

    @property
    def high_breaks(self) -> tuple[Break, ...]:
        """The breaks of 50 or more, in the order they were made."""
        return tuple(b for b in self.breaks if b.points >= FIFTY)

    @property
    def centuries(self) -> int:
        return sum(1 for b in self.breaks if b.points >= CENTURY)

    @property
    def break_points(self) -> int:
        return sum(b.points for b in self.breaks)

    @property
    def average_break(self) -> float | None:
        return self.break_points / len(self.breaks) if self.breaks else None

    @property
    def pot_success(self) -> float | None:
        return self.pots / self.attempts if self.attempts else None


@dataclass(frozen=True, slots=True)
class MatchFigures:
    A: PlayerFigures
    B: PlayerFigures
    winner: Player | None  # None while the match goes on

    def of(self, seat: Player) -> PlayerFigures:
        return self.A if seat == "A" else self.B


@dataclass
class _Tally:
    """One player's counts while the acts are read (local to `figures`)."""

    frames_won: int = 0
    frames_lost: int = 0
    breaks: list[Break] = field(default_factory=list)
    pots: int = 0
    attempts: int = 0
    fouls: int = 0
    foul_points: int = 0
    won_on_black: int = 0
    won_with_start: int = 0

    def frozen(self, won: bool) -> PlayerFigures:
        return PlayerFigures(
            won=won, frames_won=self.frames_won, frames_lost=self.frames_lost,
            breaks=tuple(self.breaks), pots=self.pots, attempts=self.attempts, fouls=self.fouls,
            foul_points=self.foul_points, won_on_black=self.won_on_black,
            won_with_start=self.won_with_start,
        )  # fmt: skip


@dataclass
class _Visit:
    seat: Player
    frame: int
    points: int = 0


def figures(acts: Iterable[Act], start: tuple[int, int] = (0, 0)) -> MatchFigures:
    """Both players' figures from a match's acts, in the order they were played; `start` is
    the match's handicap start (A, B), the same in every frame."""
    starts = dict(zip(PLAYERS, start, strict=True))
    tally: dict[Player, _Tally] = {p: _Tally() for p in PLAYERS}
    visit: _Visit | None = None
    respotted: set[int] = set()  # frames that went to a re-spotted black
    winner: Player | None = None

    def close() -> None:
        nonlocal visit
        if visit is not None and visit.points > 0:
            tally[visit.seat].breaks.append(Break(visit.frame, visit.points))
        visit = None

    for act in acts:
        scored = act.kind == "stroke" and not act.foul and act.points > 0
        if visit is not None and not (
            scored and act.seat == visit.seat and act.frame == visit.frame
        ):
            close()
        if act.seat is not None and act.kind == "stroke":
            mine = tally[act.seat]
            if scored:
                if visit is None:
                    visit = _Visit(act.seat, act.frame)
                visit.points += act.points
                mine.pots += 1
                mine.attempts += 1
            elif act.aimed and not act.opening:
                mine.attempts += 1
        if act.foul and act.seat is not None:
            tally[act.seat].fouls += 1
            tally[act.seat].foul_points += act.penalty
        if act.respotted_black:
            respotted.add(act.frame)
            close()
        if act.frame_winner is not None:
            close()
            tally[act.frame_winner].frames_won += 1
            tally[opponent(act.frame_winner)].frames_lost += 1
            if starts[act.frame_winner] > 0:
                tally[act.frame_winner].won_with_start += 1
            if act.frame in respotted or (
                act.frame_ended in _ON_THE_BLACK
                and abs(act.scores[0] - act.scores[1]) <= VALUES["black"]
            ):
                tally[act.frame_winner].won_on_black += 1
        if act.match_winner is not None:
            winner = act.match_winner
    close()
    return MatchFigures(
        A=tally["A"].frozen(winner == "A"), B=tally["B"].frozen(winner == "B"), winner=winner
    )


# --- where a struck ball went -------------------------------------------------------------
def aimed_at_pocket(
    first_contact: Sequence[str], trajectories: Mapping[str, Sequence[Sequence[float]]]
) -> bool:
    """A ball the cue ball struck first set off towards a pocket (see the module's docstring).

    Reads a stroke's stored trajectories (`ShotResult.to_json()`): the first row of the ball
    that moves it across the cloth starts at the contact, with the velocity the contact gave.
    """
    for ball in first_contact:
        row = next(
            (r for r in trajectories.get(ball, ()) if len(r) >= 6 and r[1] in (_SLIDING, _ROLLING)),
            None,
        )
        if row is not None and _towards_pocket((row[2], row[3]), (row[4], row[5])):
            return True
    return False


def _towards_pocket(start: Point, velocity: Point) -> bool:
    speed = math.hypot(*velocity)
    if speed == 0:
        return False
    ux, uy = velocity[0] / speed, velocity[1] / speed
    for pocket in POCKETS:
        dx, dy = pocket.mouth[0] - start[0], pocket.mouth[1] - start[1]
        ahead = dx * ux + dy * uy
        across = abs(dx * uy - dy * ux)
        if ahead > 0 and across <= pocket.mouth_width / 2 + BALL_RADIUS:
            return True
    return False


# --- acts from the core's own values -------------------------------------------------------
def act_of(before: Match, seat: Player | None, command: Command, outcome: Outcome) -> Act:
    """The act `rules.match.apply(before, seat, command)` made, given its outcome."""
    shot = outcome.shot.to_json() if outcome.shot is not None else None
    ruling = outcome.ruling
    return Act(
        kind=kind(command), seat=seat, frame=before.frame_number, scores=before.frame.scores,
        opening=shot is not None and before.frame.opening,
        foul=ruling.foul, penalty=ruling.penalty, points=ruling.points,
        aimed=shot is not None and aimed_at_pocket(shot["first_contact"], shot["trajectories"]),
        respotted_black=ruling.respotted_black,
        frame_winner=outcome.frame_end.winner if outcome.frame_end else None,
        frame_ended=outcome.frame_end.termination if outcome.frame_end else None,
        match_winner=outcome.match_end.winner if outcome.match_end else None,
    )  # fmt: skip


def played(
    start: Match, commands: Iterable[tuple[Player | None, Command]]
) -> tuple[Match, list[Act]]:
    """Fold `rules.match.apply` over stored commands from `start` (as `rules.match.replay`
    does from a new match), keeping the acts: the match they make and its statistics' input."""
    match = start
    acts: list[Act] = []
    for seat, command in commands:
        after, outcome = apply(match, seat, command)
        acts.append(act_of(match, seat, command, outcome))
        match = after
    return match, acts
