"""Handicaps, a club-wide mechanism (docs/handicaps.md): the start two members' match gives,
from their ratings (`rules.handicap.start_for`, capped at the club's `HANDICAP_CAP`), for every
app that makes handicapped matches (friendlies, ladders, competitions).

An organiser may override a member's handicap: the starts are then worked out from the
rating the organiser gave instead of the club rating, until they take it away; every change is
kept with who, when and why (`HandicapChange`, the audit log)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ratings import service as ratings
from ratings.models import HandicapChange
from rules.errors import Refused
from rules.handicap import OVERRIDE_RANGE, OVERRIDE_RD, start_for
from rules.ratings import Rating

REASON_LENGTH = 200


class HandicapError(Refused):
    """A refused override; nothing was changed."""


def override_of(member_id: int) -> HandicapChange | None:
    """The organisers' override in force for this member (its latest change, if it set a
    rating), or None."""
    latest = HandicapChange.objects.filter(member_id=member_id).order_by("-at", "-id").first()
    return latest if latest is not None and latest.rating is not None else None


def handicap_rating(member_id: int) -> Rating:
    """The rating a member's starts are worked out from: an organiser's override, or the club
    rating."""
    found = override_of(member_id)
    if found is not None:
        assert found.rating is not None
        return Rating(found.rating, OVERRIDE_RD)
    return ratings.rating_of(member_id)


def override(
    member: User, by: User, rating: float | None, reason: str, now: datetime | None = None
) -> HandicapChange:
    """An organiser (staff) sets the rating `member`'s starts are worked out from, or takes
    the override away (`rating` None). The reason is kept with it."""
    if not (by.is_active and by.is_staff):
        raise HandicapError("not_organiser", "only the club's organisers set handicaps")
    reason = reason.strip()
    if not reason or len(reason) > REASON_LENGTH:
        raise HandicapError("bad_reason", f"a reason of 1 to {REASON_LENGTH} characters")
    if rating is not None and not OVERRIDE_RANGE[0] <= rating <= OVERRIDE_RANGE[1]:
        raise HandicapError(
            "bad_rating", f"a rating from {OVERRIDE_RANGE[0]:g} to {OVERRIDE_RANGE[1]:g}"
        )
    with transaction.atomic():
        User.objects.select_for_update().get(pk=member.pk)  # one change at a time a member
        if rating is None and override_of(member.pk) is None:
            raise HandicapError("no_override", "this member's handicap is the club rating's")
        return HandicapChange.objects.create(
            member=member, rating=rating, reason=reason, by=by, at=now or timezone.now()
        )


def start_between(a_id: int, b_id: int) -> tuple[int, int]:
    """The start (A, B) for a match between these two members, from their ratings."""
    cap = settings.CLUB["HANDICAP_CAP"]
    return start_for(handicap_rating(a_id), handicap_rating(b_id), cap)
