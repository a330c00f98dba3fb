"""A frame set up at a position rather than racked (issue 43: play from here, the position
editor): the position checked as the referee must take it, and turned round for a player
who takes the other seat.

The referee takes a position as given (the balls, the ball on, who is to play, the scores);
`check` refuses one it could not play from: balls overlapping, a ball off the bed, a ball
named twice or unknown, a ball on that is not on the table or not what the balls allow, or a
frame already over. A choice pending after a foul is not a position to set up (it is the
offender's stroke's consequence, with a position to restore): a position is a stroke due.
"""

from __future__ import annotations

import math
from dataclasses import replace

from rules import referee
from rules.errors import IllegalRequest
from rules.state import FrameState, Player, opponent
from rules.table import BALL_DIAMETER, COLOURS, WHITE, is_red, on_bed

# Two balls closer than this overlap (a hair under a diameter: the physics' own resting
# contacts, touching balls, sit at a diameter to within rounding).
OVERLAP_MM = BALL_DIAMETER - 1e-6
MAX_REDS = 15


def _refuse(code: str, detail: str) -> IllegalRequest:
    return IllegalRequest(code, detail)


def check(frame: FrameState) -> None:
    """Raise `IllegalRequest` if the referee cannot play `frame` as a position set up."""
    if frame.frame_over or frame.pending is not None:
        raise _refuse("bad_position", "a position is a stroke due, not a frame over or a choice")
    names = [b for b, _ in frame.balls]
    if len(set(names)) != len(names):
        raise _refuse("bad_position", "a ball is on the table twice")
    reds = [b for b in names if is_red(b)]
    unknown = [b for b in names if b != WHITE and not is_red(b) and b not in COLOURS]
    if unknown or len(reds) > MAX_REDS or any(not b[3:].isdigit() for b in reds):
        raise _refuse("bad_position", f"balls no table holds: {sorted(unknown or reds)}")
    for name, p in frame.balls:
        if not all(math.isfinite(c) for c in p) or not on_bed(p):
            raise _refuse("ball_off_table", f"{name} is not on the bed of the table")
    spots = list(frame.balls)
    for i, (a, pa) in enumerate(spots):
        for b, pb in spots[i + 1 :]:
            if math.dist(pa, pb) < OVERLAP_MM:
                raise _refuse("balls_overlap", f"{a} and {b} overlap")
    if WHITE not in names and not frame.in_hand:
        raise _refuse("bad_position", "no cue ball, and it is not in hand")
    objects = [b for b in names if b != WHITE]
    if not objects:
        raise _refuse("bad_position", "no object ball is left")
    # Red, or a colour after a red (any colour: one must be there), or, once the reds are
    # gone, the lowest colour left (§9.11).
    if frame.on == "red":
        fits = bool(reds)
    elif frame.on == "colour":
        fits = any(b in COLOURS for b in objects)
    else:
        fits = not reds and frame.on == referee.visit_on(objects)
    if not fits:
        raise _refuse("bad_ball_on", f"{frame.on} cannot be on with {sorted(objects)}")
    if min(frame.scores) < 0:
        raise _refuse("bad_position", "a score below nothing")


def set_up(frame: FrameState) -> FrameState:
    """`frame` checked, as a visit's start: no break running and no misses counted (those
    belong to the match it came from); the ball in hand, a free ball, a touching ball and the
    opening stroke stay as the position has them."""
    check(frame)
    return replace(frame, brk=0, misses=0)


def swapped(frame: FrameState) -> FrameState:
    """The same position with the seats turned round (the scores, the striker): a member who
    plays the computer from a position takes seat A, whoever was to play it."""
    a, b = frame.scores
    winner: Player | None = opponent(frame.winner) if frame.winner is not None else None
    return replace(frame, scores=(b, a), striker=opponent(frame.striker), winner=winner)


__all__ = ["check", "set_up", "swapped"]
