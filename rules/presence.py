"""Who may claim a match against an absent or stalling opponent, and when a friendly nobody
started, or both players left, is abandoned.

Pure, like the rest of `rules/`: the service (`game/presence.py`) reads the presence rows and
passes the times in. A claim wins the match without a stroke, so it must be earned at the
table: the match has started (both players were connected at the same moment: nobody can be
claimed against for leaving a table the other had not reached), the claimant is at the table
(a player who is away claims nothing), and the opponent has been away without a break for the
whole grace (coming back, even for a moment, starts their absence again). A match with an
agreed start time (`Match.not_before`: a ladder match whose players agreed one) starts no
sooner and is claimed no sooner: being here, or away, before it counts for nothing.

A player who is at the table but does not act stalls: when no shot clock runs for their turn
(a friendly without one, or a decision after a foul), the opponent may claim once the turn has
lasted the club's stall time (`stalled_from`). It is measured from when the turn began (the
last event stored, or the start), never from the staller's last coming, so looking in every
few seconds does not reset it; only playing does. And a started friendly whose turn has lasted
that long while both players have been away for the whole grace is abandoned: nobody is left
to claim it, and it would otherwise stay live for ever.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum


class Refusal(StrEnum):
    """Why a claim is refused."""

    NOT_STARTED = "not_started"  # the two players have not yet been at the table together
    BEFORE_START = "before_start"  # the agreed start time has not come yet
    CLAIMANT_AWAY = "claimant_away"  # the claimant has no live connection
    OPPONENT_HERE = "opponent_here"  # the opponent is connected
    GRACE = "grace"  # the opponent has not been away for the whole grace yet
    STALLING = "stalling"  # the opponent, to act, has not yet had the whole stall time


def stalled_from(
    started: datetime | None, turn_began: datetime | None, clocked: bool, stall: timedelta
) -> datetime | None:
    """When the player to act has stalled (not played for `stall` since their turn began:
    the last event, or the start), or None while no stall can count: the match has not
    started, or a shot clock runs for the turn (its expiry, the time foul, answers a stall)."""
    if started is None or clocked:
        return None
    return max(turn_began or started, started) + stall


def claim_from(
    started: datetime | None,
    claimant_present: bool,
    opponent_away_since: datetime | None,
    grace: timedelta,
    not_before: datetime | None = None,
    opponent_stalled: datetime | None = None,
) -> datetime | None:
    """When the claimant may claim against the opponent, or None while they may not at all
    (the match has not started, the claimant is away, or the opponent is here and not to
    act). An absence is counted from the start at the earliest, and from the agreed start time
    (`not_before`) if there is one: being away before either is not being away from a match.
    `opponent_stalled`: when the opponent, to act, will have stalled (`stalled_from`; None if
    they are not to act): the claim comes then, here or not."""
    if started is None or not claimant_present:
        return None
    times = [] if opponent_stalled is None else [max(opponent_stalled, not_before or started)]
    if opponent_away_since is not None:
        times.append(max(opponent_away_since, started, not_before or started) + grace)
    return min(times, default=None)


def claim_refusal(
    started: datetime | None,
    claimant_present: bool,
    opponent_away_since: datetime | None,
    grace: timedelta,
    now: datetime,
    not_before: datetime | None = None,
    opponent_stalled: datetime | None = None,
) -> Refusal | None:
    """Why the claimant may not claim now, or None if they may."""
    if not_before is not None and now < not_before:
        return Refusal.BEFORE_START
    if started is None:
        return Refusal.NOT_STARTED
    if not claimant_present:
        return Refusal.CLAIMANT_AWAY
    frm = claim_from(
        started, claimant_present, opponent_away_since, grace, not_before, opponent_stalled
    )
    if frm is not None and now >= frm:
        return None
    if opponent_away_since is not None:
        return Refusal.GRACE
    return Refusal.OPPONENT_HERE if opponent_stalled is None else Refusal.STALLING


def deserted_from(
    started: datetime | None,
    turn_began: datetime | None,
    away_since: tuple[datetime | None, datetime | None],
    grace: timedelta,
    stall: timedelta,
) -> datetime | None:
    """When a started match both players have left is deserted: its turn has lasted `stall`
    (a clock or not: with nobody at the table no clock is kept) and both have been away for
    the whole grace; None while either is here."""
    a, b = away_since
    if started is None or a is None or b is None:
        return None
    since = max(turn_began or started, started)
    return max(since + stall, max(a, started) + grace, max(b, started) + grace)


def abandoned(
    started: datetime | None,
    created: datetime,
    ladder: bool,
    wait: timedelta,
    now: datetime,
    deserted: datetime | None = None,
) -> bool:
    """A friendly the two players never started within `wait` of its making is abandoned (no
    result, unrated), and so is a started one they both left (`deserted_from`). A ladder
    match is not: its play-by window and its default decide it."""
    if ladder:
        return False
    if started is None:
        return now >= created + wait
    return deserted is not None and now >= deserted


def may_start(not_before: datetime | None, now: datetime) -> bool:
    """May the match start now (both players are here)? Not before its agreed start time."""
    return not_before is None or now >= not_before
