"""Whose stroke is due and when the shot clock runs out: what a match's sockets need between
events (`Turn`), and the deadline the service stores with each version."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from game import clock
from game.models import Match
from game.protocol.constants import CUE_LEAD, FRAME_HOLD
from rules.match import Match as MatchState
from rules.match import Outcome
from rules.state import Player


@dataclass(frozen=True, slots=True)
class Turn:
    """What a match's sockets need between events without reading the database."""

    deadline: datetime | None  # when the shot clock runs out, if it runs
    aimer: Player | None  # who may aim: the striker, when a stroke is due
    in_hand: bool  # the cue ball is in hand (an aim may place it)


NO_TURN = Turn(None, None, False)


def stroke_due(state: MatchState) -> bool:
    """The striker is to play (no decision or draw awaited, the match goes on)."""
    return not state.over and state.frame.pending is None and not state.frame.frame_over


def current(row: Match, state: MatchState) -> Turn:
    """The turn at the row's version (`state` is the row's)."""
    aimer = state.frame.striker if stroke_due(state) else None
    return Turn(row.deadline, aimer, state.frame.in_hand)


def deadline(
    row: Match, state: MatchState, still_in: float = 0.0, now: datetime | None = None
) -> datetime | None:
    """When the striker's time runs out, if the match has a shot clock, has started (both
    players at the table together; at a practice table, once the member came) and a stroke
    is due. The time starts when the table is still: `still_in` seconds from `now` (the last
    stroke's balls rolling, a finished frame's last position held before the next rack),
    which the striker cannot use."""
    if row.shot_clock is None or row.status != Match.Status.LIVE:
        return None
    if row.started is None or row.arrived_a is None or row.arrived_b is None:
        return None
    if not stroke_due(state):
        return None
    return (now or clock.now()) + timedelta(seconds=still_in + row.shot_clock)


def still_in(outcome: Outcome, state: MatchState) -> float:
    """Seconds until the table is still after `outcome`, as every browser shows it."""
    rolling = outcome.shot.duration if outcome.shot is not None else 0.0
    return still_after(rolling, outcome.frame_end is not None, state.over)


def still_after(rolling: float, frame_ended: bool, match_over: bool) -> float:
    """Seconds until the table is still: the cue's swing to the ball (when the stroke moved a
    ball: the browsers draw it before the balls move), the stroke's balls rolling, then a
    finished frame's last position held before the next rack."""
    swing = CUE_LEAD if rolling > 0 else 0.0
    return swing + rolling + (FRAME_HOLD if frame_ended and not match_over else 0.0)
