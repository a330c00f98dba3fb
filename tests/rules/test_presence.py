"""Who may claim, and when an unstarted friendly is abandoned (rules/presence.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules.presence import Refusal, abandoned, claim_from, claim_refusal

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
