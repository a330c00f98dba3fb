"""Who may claim a match against an absent opponent, and when a friendly nobody started is
abandoned.

Pure, like the rest of `rules/`: the service (`game/presence.py`) reads the presence rows and
passes the times in. A claim wins the match without a stroke, so it must be earned at the
table: the match has started (both players were connected at the same moment: nobody can be
claimed against for leaving a table the other had not reached), the claimant is at the table
(a player who is away claims nothing), and the opponent has been away without a break for the
whole grace (coming back, even for a moment, starts their absence again).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum


class Refusal(StrEnum):
    """Why a claim is refused."""

    NOT_STARTED = "not_started"  # the two players have not yet been at the table together
    CLAIMANT_AWAY = "claimant_away"  # the claimant has no live connection
    OPPONENT_HERE = "opponent_here"  # the opponent is connected
    GRACE = "grace"  # the opponent has not been away for the whole grace yet


def claim_from(
    started: datetime | None,
    claimant_present: bool,
    opponent_away_since: datetime | None,
    grace: timedelta,
) -> datetime | None:
    """When the claimant may claim against the opponent, or None while they may not at all
    (the match has not started, the claimant is away, or the opponent is here). An absence is
    counted from the start at the earliest: being away before it is not being away from a
    match."""
    if started is None or not claimant_present or opponent_away_since is None:
        return None
    return max(opponent_away_since, started) + grace


def claim_refusal(
    started: datetime | None,
    claimant_present: bool,
    opponent_away_since: datetime | None,
    grace: timedelta,
    now: datetime,
) -> Refusal | None:
    """Why the claimant may not claim now, or None if they may."""
    if started is None:
        return Refusal.NOT_STARTED
    if not claimant_present:
        return Refusal.CLAIMANT_AWAY
    if opponent_away_since is None:
        return Refusal.OPPONENT_HERE
    frm = claim_from(started, claimant_present, opponent_away_since, grace)
    if frm is None or now < frm:
        return Refusal.GRACE
    return None


def abandoned(
    started: datetime | None, created: datetime, ladder: bool, wait: timedelta, now: datetime
) -> bool:
    """A friendly the two players never started within `wait` of its making is abandoned (no
    result, unrated). A ladder match is not: its play-by window and its default decide it."""
    return started is None and not ladder and now >= created + wait
