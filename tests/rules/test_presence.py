"""Who may claim, and when an unstarted friendly is abandoned (rules/presence.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules.presence import (
    Refusal,
    abandoned,
    claim_from,
    claim_refusal,
    deserted_from,
    may_start,
    stalled_from,
)

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GRACE = timedelta(seconds=60)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("started", "present", "away", "now", "refusal"),
    [
        # The attack of issue 19: the accepter glanced and left, the challenger came a
        # minute later. The two were never at the table together: no claim, however long.
        (None, True, at(0), at(3600), Refusal.NOT_STARTED),
        # Started, the opponent left, the claimant is here: not before the whole grace...
        (at(0), True, at(10), at(69), Refusal.GRACE),
        # ...and from its end on.
        (at(0), True, at(10), at(70), None),
        (at(0), True, at(10), at(500), None),
        # A claimant who is away themselves claims nothing, however long the other is gone.
        (at(0), False, at(10), at(500), Refusal.CLAIMANT_AWAY),
        # The opponent is back: nothing to claim.
        (at(0), True, None, at(500), Refusal.OPPONENT_HERE),
        # An absence is counted from the start at the earliest.
        (at(100), True, at(30), at(159), Refusal.GRACE),
        (at(100), True, at(30), at(160), None),
    ],
)
def test_who_may_claim(
    started: datetime | None,
    present: bool,
    away: datetime | None,
    now: datetime,
    refusal: Refusal | None,
) -> None:
    assert claim_refusal(started, present, away, GRACE, now) is refusal


def test_the_page_is_told_when_a_claim_becomes_possible() -> None:
    assert claim_from(at(0), True, at(10), GRACE) == at(70)
    assert claim_from(at(100), True, at(30), GRACE) == at(160)
    # Nothing to count down to while a claim cannot come at all.
    assert claim_from(None, True, at(10), GRACE) is None
    assert claim_from(at(0), False, at(10), GRACE) is None
    assert claim_from(at(0), True, None, GRACE) is None


def test_an_agreed_start_time_holds_the_start_and_every_claim_until_it_comes() -> None:
    """Issue 36: they agreed "tomorrow 19:00" (at(3600) here) after looking in together; she
    left at 10. No claim before the agreed time, and the grace counts from it."""
    agreed = at(3600)
    assert not may_start(agreed, at(3599)) and may_start(agreed, agreed) and may_start(None, T0)
    assert claim_refusal(at(0), True, at(10), GRACE, at(3599), agreed) is Refusal.BEFORE_START
    assert claim_refusal(None, True, at(10), GRACE, at(3599), agreed) is Refusal.BEFORE_START
    assert claim_refusal(at(0), True, at(10), GRACE, at(3659), agreed) is Refusal.GRACE
    assert claim_refusal(at(0), True, at(10), GRACE, at(3660), agreed) is None
    assert claim_from(at(0), True, at(10), GRACE, agreed) == at(3660)
    # Away since after the agreed time: counted from then, as without one.
    assert claim_from(at(0), True, at(4000), GRACE, agreed) == at(4060)


def test_a_coming_back_restarts_the_absence() -> None:
    # Away at 10, back at 50, away again at 55: the grace counts from 55.
    assert claim_refusal(at(0), True, at(55), GRACE, at(70)) is Refusal.GRACE
    assert claim_refusal(at(0), True, at(55), GRACE, at(115)) is None


WAIT = timedelta(minutes=10)


@pytest.mark.parametrize(
    ("started", "ladder", "now", "gone"),
    [
        (None, False, at(599), False),  # still within the wait
        (None, False, at(600), True),  # nobody started it in time
        (at(30), False, at(6000), False),  # started: it is played (or claimed), not abandoned
        (None, True, at(6000), False),  # a ladder match: its play-by window decides
    ],
)
def test_an_unstarted_friendly_is_abandoned_after_the_wait(
    started: datetime | None, ladder: bool, now: datetime, gone: bool
) -> None:
    assert abandoned(started, T0, ladder, WAIT, now) is gone


STALL = timedelta(minutes=5)


def test_a_stall_counts_from_the_turns_beginning_never_from_a_coming() -> None:
    """Issue 36: the player to act who does not play, here or looking in every 15 seconds,
    can be claimed against once their turn has lasted the stall time; a shot clock, when one
    runs for the turn, answers a stall instead (its expiry is the time foul)."""
    assert stalled_from(at(0), at(40), False, STALL) == at(340)
    assert stalled_from(at(100), None, False, STALL) == at(400)  # from the start
    assert stalled_from(at(100), at(20), False, STALL) == at(400)  # never before it
    assert stalled_from(None, at(40), False, STALL) is None  # not started
    assert stalled_from(at(0), at(40), True, STALL) is None  # a clock runs
    st = stalled_from(at(0), at(40), False, STALL)
    # The staller is here (or keeps coming back: away_since None at any look).
    assert claim_refusal(at(0), True, None, GRACE, at(339), opponent_stalled=st) is Refusal.STALLING
    assert claim_refusal(at(0), True, None, GRACE, at(340), opponent_stalled=st) is None
    assert claim_from(at(0), True, None, GRACE, opponent_stalled=st) == at(340)
    # Away as well: whichever comes first.
    assert claim_from(at(0), True, at(300), GRACE, opponent_stalled=st) == at(340)
    assert claim_from(at(0), True, at(50), GRACE, opponent_stalled=st) == at(110)
    assert claim_refusal(at(0), True, at(300), GRACE, at(345), opponent_stalled=st) is None
    # Only a claimant at the table claims, and not before the start.
    assert (
        claim_refusal(at(0), False, None, GRACE, at(999), opponent_stalled=st)
        is Refusal.CLAIMANT_AWAY
    )
    assert claim_from(at(0), False, None, GRACE, opponent_stalled=st) is None
    # Not to act, here: nothing to claim, however long.
    assert claim_refusal(at(0), True, None, GRACE, at(9999)) is Refusal.OPPONENT_HERE


def test_a_started_friendly_both_players_left_is_abandoned() -> None:
    deserted = deserted_from(at(0), at(40), (at(100), at(200)), GRACE, STALL)
    assert deserted == at(340)  # the turn's stall time, both away for the grace by then
    assert deserted_from(at(0), at(40), (at(100), at(330)), GRACE, STALL) == at(390)
    assert deserted_from(at(0), at(40), (at(100), None), GRACE, STALL) is None  # one is here
    assert deserted_from(None, None, (at(100), at(100)), GRACE, STALL) is None
    assert not abandoned(at(0), T0, False, WAIT, at(339), deserted)
    assert abandoned(at(0), T0, False, WAIT, at(340), deserted)
    assert not abandoned(at(0), T0, True, WAIT, at(9999), deserted)  # a ladder's: its default
    assert not abandoned(at(0), T0, False, WAIT, at(9999), None)
