"""Rated friendlies: a friendly played for the ratings (rated when it was made, `Match.rated`)
is rated through the club's ratings (`ratings.service.rate`, kind "friendly") when it ends,
inside the transaction that stored its last event (`game.signals.match_finished`, heard here:
club/apps.py). A ladder match is the ladder's to rate (ladder/service.py), also when it was
settled before it ended (then it counts for nothing); a competition's match the
competition's (competitions/service.py): a match that is a fixture is its owner's to rate.

Should the rating fail at a match's end, the match still ends, and the next settling pass
rates it (`rate_missed`, run by `ladder.service.settle_due`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from club.models import Challenge
from fixtures.models import Fixture
from game.models import Match
from ratings import service as ratings
from ratings.models import Kind as RatedKind
from ratings.models import RatedResult
from rules.challenges import Kind

log = logging.getLogger(__name__)


def _ladder_match(match: Match) -> bool:
    """A ladder's or a competition's match: a fixture's, whose owner rates it."""
    return (
        Challenge.objects.filter(match=match, kind=Kind.LADDER).exists()
        or Fixture.objects.filter(match=match).exists()
    )


def on_match_finished(match: Match, now: datetime | None = None) -> RatedResult | None:
    """A match ended: a rated friendly rates both players (once: a match has at most one
    rated result)."""
    if not match.rated or _ladder_match(match):
        return None
    return ratings.rate(match, now or timezone.now(), RatedKind.FRIENDLY)


def match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """`game.signals.match_finished`'s receiver. In a savepoint: should anything here fail,
    the match still ends, and `rate_missed` rates it later."""
    try:
        with transaction.atomic():
            on_match_finished(match)
    except Exception:
        log.exception("match %s: its rating will be settled later", match.pk)


# How far back the catch-up pass looks: a rated friendly made this recently (a missed rating
# is caught at the next pass, within a minute; this leaves a month of outages). Every pass
# reads the rated finished matches made since (the `rated_finished` index), not every one the
# club ever played (issue 42).
MISSED_WITHIN = timedelta(days=30)


def missed(now: datetime) -> QuerySet[Match]:
    """Rated friendlies made in the `MISSED_WITHIN` before `now` that ended without a rated
    result."""
    return (
        Match.objects.filter(rated=True, status=Match.Status.FINISHED, rated_result__isnull=True)
        .filter(created__gte=now - MISSED_WITHIN)
        .exclude(challenge__kind=Kind.LADDER)
        .exclude(fixture__isnull=False)
        .order_by("created", "pk")
    )


def rate_missed(now: datetime, limit: int) -> tuple[int, ...]:
    """Rate the rated friendlies a match's end missed, each in a transaction of its own, the
    match's row taken with `skip_locked` (another process may be at it): the matches rated."""
    return tuple(pk for pk in missed(now).values_list("pk", flat=True)[:limit] if _rate(pk, now))


def _rate(match_id: int, now: datetime) -> bool:
    try:
        with transaction.atomic():
            match = Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).first()
            if match is None or match.status != Match.Status.FINISHED or not match.rated:
                return False
            return on_match_finished(match, now) is not None
    except IntegrityError:
        return False  # rated meanwhile by another process
    except OperationalError as exc:
        log.warning("ratings: match %s left for the next pass (%s)", match_id, exc)
        return False
