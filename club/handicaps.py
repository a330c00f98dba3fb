"""A friendly's handicap (docs/handicaps.md, "Where it applies"): the start a challenge that
asked for one gives, from the two members' ratings (ratings/handicaps.py). Worked out when the
match is made on acceptance, from the ratings as they stand then; a challenge that names both
members shows the start it would give now. A rematch offer of a handicapped friendly is
handicapped too (worked out again on acceptance)."""

from __future__ import annotations

from club.models import Challenge
from ratings.handicaps import start_between
from rules.match import match_from_json


def challenge_start(c: Challenge) -> tuple[int, int] | None:
    """The start a challenge gives, the challenger's first and the other's second: the
    match's, once made; while it waits, the one the two members' ratings give now; None if it
    asked for no handicap or nobody has taken it yet (an open challenge). (A rematch keeps its
    match's seats, so its challenger may sit B: the start is turned to the challenger's.)"""
    if not c.handicap:
        return None
    if c.match is not None:
        start, seat_a = match_from_json(c.match.state).start, c.match.player_a_id
    elif c.rematch_of is not None:
        seat_a, seat_b = c.rematch_of.player_a_id, c.rematch_of.player_b_id
        start = start_between(seat_a, seat_b)
    elif c.target_id is None:
        return None
    else:
        return start_between(c.challenger_id, c.target_id)
    return start if seat_a == c.challenger_id else (start[1], start[0])
