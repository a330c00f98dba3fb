"""The ladder's parts of other apps' pages: the rating change on a finished match's page
(`{% match_rating match as r %}`, templates/members/match_record.html) and a member's rating,
ladders and rating chart on their profile (`{% member_standing member as s %}`,
templates/members/profile.html). Three queries each, whatever the member's history."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.conf import settings
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from ladder import chart
from ladder.models import HistoryEntry, LadderChallenge, Rung
from ratings.models import RatedResult, Rating, RatingChange
from rules.fixtures import ALONE_LONG, WAIT_AT_START
from rules.ratings import Effect

register = template.Library()


@register.simple_tag
def match_rating(match: Any) -> dict[str, Any]:
    """What a finished match did to the ladder and the ratings: the players' rating changes
    (none for a friendly or a voided result) and the ladder's entry, if it was a ladder
    match."""
    changes = list(
        RatingChange.objects.filter(result__match=match)
        .select_related("player", "result")
        .order_by("player_id")
    )
    entry = (
        HistoryEntry.objects.with_endings()
        .filter(match=match, kind__in=(HistoryEntry.Kind.RESULT, HistoryEntry.Kind.SETTLED))
        .select_related("ladder", "member", "other")
        .first()
    )
    unrated = (
        RatedResult.objects.filter(match=match)
        .exclude(unrated=Effect.RATED)
        .values_list("unrated", flat=True)
        .first()
    )
    return {
        "changes": changes,
        "voided": any(c.result.voided for c in changes),
        "entry": entry,
        "unrated": unrated_reason(unrated) if unrated else "",
    }


def unrated_reason(code: str) -> str:
    """Why a rated match's result changed no rating, as the pages say it."""
    if code == Effect.NO_PLAY:
        return gettext("This result did not change the ratings: a player never played a stroke.")
    if code == Effect.LITTLE_PLAY:
        return gettext(
            "This result did not change the ratings: fewer than %(n)s strokes were played."
        ) % {"n": settings.RATINGS["MIN_STROKES"]}
    return gettext(
        "This result did not change the ratings: the limit of rated results between these two "
        "members (%(cap)s in %(days)s days) was reached."
    ) % {"cap": settings.RATINGS["PAIR_CAP"], "days": settings.RATINGS["PAIR_WINDOW_DAYS"]}


@register.simple_tag
def member_standing(member: Any) -> dict[str, Any]:
    """A member's rating, their places on the ladders and their rating chart."""
    # With how many of their rated results changed no rating (a member with any rated result
    # has a rating row: `ratings.service.rate` makes it), in the same query.
    unrated = (
        RatedResult.objects.filter(
            Q(player_a=OuterRef("member")) | Q(player_b=OuterRef("member")), voided=False
        )
        .exclude(unrated=Effect.RATED)
        .order_by()
        .annotate(one=Value(1))
        .values("one")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rating = (
        Rating.objects.filter(member=member)
        .annotate(unrated=Coalesce(Subquery(unrated, output_field=IntegerField()), 0))
        .first()
    )
    rungs = list(Rung.objects.filter(member=member).select_related("ladder").order_by("ladder"))
    latest = list(
        RatingChange.objects.filter(player=member, result__voided=False)
        .order_by("-at", "-pk")
        .values_list("at", "before", "after")[: chart.KEPT]
    )
    latest.reverse()
    drawn = chart.chart(latest[0][1], [(at, after) for at, _, after in latest]) if latest else None
    unrated_count = getattr(rating, "unrated", 0) if rating is not None else 0
    return {"rating": rating, "rungs": rungs, "chart": drawn, "unrated": unrated_count}


@register.simple_tag
def ladder_start(match: Any, viewer: Any) -> dict[str, Any] | None:
    """A live ladder match's start time (the match page, templates/match.html): agreed, or
    proposed, and whether the viewer is one of the two players (who propose and accept).
    None for any other match. One query."""
    row = (
        LadderChallenge.objects.filter(fixture__match=match, status=LadderChallenge.Status.ACCEPTED)
        .select_related("challenger", "defender", "fixture", "fixture__proposed_by", "ladder")
        .first()
    )
    if row is None or row.fixture.play_by is None:
        return None
    fixture, play_by = row.fixture, row.fixture.play_by
    me = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    player = me is not None and me in (row.challenger_id, row.defender_id)
    return {
        "row": row,
        "player": player,
        "can_accept": (
            player and fixture.proposed_start is not None and fixture.proposed_by_id != me
        ),
        "earliest": timezone.localtime(),
        "latest": timezone.localtime(play_by - WAIT_AT_START),
        # The match waits for a time (agreed, or still to agree): being here starts nothing.
        "held": match.started is None and match.not_before is not None,
        "alone": int(ALONE_LONG.total_seconds() // 60),
    }


@register.simple_tag
def ladder_to_play(member: Any) -> list[LadderChallenge]:
    """A member's ladder matches still to be played, with their agreed or proposed start
    times (the lobby and the profile). One query."""
    if not getattr(member, "is_authenticated", False):
        return []
    return list(
        LadderChallenge.objects.filter(
            Q(challenger=member) | Q(defender=member), status=LadderChallenge.Status.ACCEPTED
        )
        .select_related("ladder", "challenger", "defender", "fixture", "fixture__proposed_by")
        .order_by("fixture__play_by", "pk")
    )


@register.filter
def signed(value: float) -> str:
    """+12, −8 or ±0 (a rating change, rounded)."""
    n = round(value)
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "±0")


@register.filter
def whole(value: float | None) -> str:
    return "–" if value is None else str(round(value))


@register.filter
def span(value: timedelta) -> str:
    """A ladder's time as a person says it: "2 days", "12 hours", "1 day 6 hours"."""
    seconds = int(value.total_seconds())
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    words = []
    if days:
        words.append(ngettext("%(n)s day", "%(n)s days", days) % {"n": days})
    if hours:
        words.append(ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours})
    if minutes and not days:
        words.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    if seconds and not (days or hours):
        words.append(ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds})
    return " ".join(words) or gettext("no time")
