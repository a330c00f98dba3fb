"""Drills that keep score (issue 43, docs/coach.md "Drills"): standard routines from coaching
practice, each a fixed start and a rule for what happens after each stroke.

A drill is played at a practice table set up at its `start` (a position `rules.setup.check`
accepts). The referee settles every stroke as in any frame; `step` then reads its ruling the
drill's way: whether the run goes on, the run's score, and the table the next stroke is played
at (the referee's own, or the drill's re-spotted one). Nothing here changes the referee.

Two kinds of rule:

- **a break** (the line-up, the T, clearing the colours, the cluster): the run is the break.
  A stroke that pots fairly adds its points and the run goes on at the referee's table (the
  colours re-spotted as the rules re-spot them); a stroke that pots nothing or fouls ends it,
  and so does a cleared table. Clearing the colours starts on the yellow with no red left, so
  the referee's own rule (§9.11) makes the run "the colours in order".
- **one ball re-spotted** (long pots from baulk): each fair pot of the object ball scores one;
  the ball goes back to its fixed place and the cue ball back in hand, in the D (the drill's
  re-spotting: `respot`); a stroke that pots nothing or fouls ends the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from rules.referee import Ruling
from rules.state import FrameState, make_balls
from rules.table import SPOTS, Point


class Rule(Enum):
    """What a stroke does to a run (the module's docstring)."""

    BREAK = "break"
    RESPOT = "respot"


@dataclass(frozen=True, slots=True)
class Drill:
    key: str  # stable: stored with each run, in addresses and in translations' ids
    rule: Rule
    start: FrameState  # the first stroke's table: player A to play, from hand
    most: int  # the best run a cleared table allows; 0: no end (a RESPOT drill)


@dataclass(frozen=True, slots=True)
class Step:
    """What one stroke did to a run."""

    goes_on: bool  # the same run, one more stroke
    score: int  # the run's score after the stroke
    next: FrameState  # the table of the next stroke: the run's, or a new attempt's (`start`)


def _frame(balls: dict[str, Point], on: str = "red") -> FrameState:
    return FrameState(balls=make_balls(balls), striker="A", on=on, in_hand=True)


def _colours(*names: str) -> dict[str, Point]:
    return {c: SPOTS[c] for c in names}


ALL_COLOURS: Final = ("yellow", "green", "brown", "blue", "pink", "black")
_PINK_Y: Final = SPOTS["pink"][1]


def _line_up() -> FrameState:
    """Fifteen reds on the long axis: eight between the blue and the pink (100 mm apart from
    80 mm past the blue), seven between the pink and the black (70 mm apart from 960 mm);
    the colours on their spots."""
    ys = [80.0 + 100.0 * i for i in range(8)] + [960.0 + 70.0 * i for i in range(7)]
    reds = {f"red{i + 1}": (0.0, y) for i, y in enumerate(ys)}
    return _frame({**reds, **_colours(*ALL_COLOURS)})


def _t() -> FrameState:
    """The T around the pink and the black: a bar of seven reds across the table halfway
    between them (80 mm apart), a stem of six on the long axis below the pink (80 mm apart
    from 400 mm), one between the pink and the bar and one between the bar and the black."""
    bar_y = (_PINK_Y + SPOTS["black"][1]) / 2
    points = [(80.0 * k, bar_y) for k in range(-3, 4)]
    points += [(0.0, 400.0 + 80.0 * i) for i in range(6)]
    points += [(0.0, 1030.0), (0.0, 1310.0)]
    reds = {f"red{i + 1}": p for i, p in enumerate(points)}
    return _frame({**reds, **_colours(*ALL_COLOURS)})


def _clear_colours() -> FrameState:
    """The six colours on their spots, no red: yellow on, to the black."""
    return _frame(_colours(*ALL_COLOURS), on="yellow")


# Long pots: the object ball's fixed place, the blue spot; potted into a top corner pocket
# from the D, the length of the table's baulk half and more.
LONG_POT_SPOT: Final[Point] = SPOTS["blue"]


def _long_pots() -> FrameState:
    """One red on the blue spot, the cue ball in hand: every pot is a long one from baulk."""
    return _frame({"red1": LONG_POT_SPOT})


def _cluster() -> FrameState:
    """Six reds in a cluster behind the pink (two rows of three, 55 mm apart, the first row
    at 960 mm), the colours on their spots: break it open and build a break."""
    points = [(55.0 * k, 960.0 + 55.0 * row) for row in range(2) for k in (-1, 0, 1)]
    reds = {f"red{i + 1}": p for i, p in enumerate(points)}
    return _frame({**reds, **_colours(*ALL_COLOURS)})


DRILLS: Final[tuple[Drill, ...]] = (
    Drill("line_up", Rule.BREAK, _line_up(), 15 * 8 + 27),
    Drill("t", Rule.BREAK, _t(), 15 * 8 + 27),
    Drill("colours", Rule.BREAK, _clear_colours(), 27),
    Drill("long_pots", Rule.RESPOT, _long_pots(), 0),
    Drill("cluster", Rule.BREAK, _cluster(), 6 * 8 + 27),
)
BY_KEY: Final[dict[str, Drill]] = {d.key: d for d in DRILLS}
KEYS: Final[tuple[str, ...]] = tuple(BY_KEY)


def respot(drill: Drill, after: FrameState) -> FrameState:
    """The drill's re-spotting after a pot that keeps the run going: a RESPOT drill's start
    again (its ball at its place, the cue ball in hand), the scores as the referee left them;
    a BREAK drill's table is the referee's."""
    if drill.rule is Rule.RESPOT:
        return drill.start.with_(scores=after.scores)
    return after


def step(drill: Drill, score: int, after: FrameState, ruling: Ruling) -> Step:
    """One stroke of a run that stood at `score`: `after` is the frame the referee left,
    `ruling` its ruling. A foul or a stroke that pots nothing ends the run (the next attempt
    starts at `drill.start`); a BREAK drill's run also ends when the table is cleared."""
    potted = not ruling.foul and ruling.points > 0
    if not potted:
        return Step(False, score, drill.start)
    if drill.rule is Rule.RESPOT:
        return Step(True, score + 1, respot(drill, after))
    total = score + ruling.points
    if after.frame_over or not after.object_balls:
        return Step(False, total, drill.start)
    return Step(True, total, after)


__all__ = ["BY_KEY", "DRILLS", "KEYS", "Drill", "Rule", "Step", "respot", "step"]
