"""The club's ratings: every rated result, from any app, goes through `rate` (a friendly's
from the club, a ladder match's from the ladder, each with its `kind`), and every void through
`void`, after which `recompute` replays them all. No sockets and no pages here.

One rule for all of them: each rated match is a Glicko-2 rating period of its own
(`rules.ratings.rate_result`), a result with too little play or of a pair over its cap changes
no rating (`rules.ratings.rated_effect`), and what provisional opponents can give is budgeted
per window (docs/ratings.md). The callers hold their own rows' locks (the match's, the
ladder's) before the ratings', which are taken last, in the members' order.

Every function that reads the time takes `now`, so that tests run a controlled clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from game.models import Match, MatchEvent
from ratings.models import Kind, RatedResult, Rating, RatingChange
from rules import commands, ratings
from rules.errors import Refused
from rules.match import match_from_json


class RatingsError(Refused):
    """A refused action; nothing was changed."""


def winner_id(match: Match) -> int | None:
    """The member who won a finished match (None while it goes on)."""
    winner = match_from_json(match.state).winner
    if winner is None:
        return None
    return int(match.player_a_id if winner == "A" else match.player_b_id)


def stroke_events() -> QuerySet[MatchEvent]:
    """The stored events that are strokes (not choices, concessions, claims or a shot clock
    running out): what counts as play."""
    return MatchEvent.objects.filter(kind=commands.KINDS[commands.Stroke])


def strokes_of(match: Match) -> tuple[int, int]:
    """The strokes each player (A, B) played in a match, from its stored events."""
    counts = dict(
        stroke_events()
        .filter(match=match)
        .order_by()
        .values("seat")
        .annotate(n=Count("pk"))
        .values_list("seat", "n")
    )
    return counts.get("A", 0), counts.get("B", 0)


def pair_results(a: int, b: int, since: datetime) -> QuerySet[RatedResult]:
    """The rated results between two members since then that changed the ratings (not
    voided, not unrated)."""
    return RatedResult.objects.filter(
        Q(player_a_id=a, player_b_id=b) | Q(player_a_id=b, player_b_id=a),
        at__gt=since, voided=False, unrated=ratings.Effect.RATED,
    )  # fmt: skip


def window() -> timedelta:
    """The ratings' window: the pair cap's and the provisional opponents' budget's."""
    return timedelta(days=settings.RATINGS["PAIR_WINDOW_DAYS"])


def _gains_from_provisional(member: int, since: datetime) -> list[tuple[datetime, float]]:
    """What the member gained from standing results against provisional opponents (their
    deviation before the result over `ratings.PROVISIONAL_RD`) since then: (when, points)."""
    provisional_opponent = RatingChange.objects.filter(
        result=OuterRef("result"), before_rd__gt=ratings.PROVISIONAL_RD
    ).exclude(player_id=OuterRef("player_id"))
    rows = (
        RatingChange.objects.filter(
            player_id=member, result__at__gt=since, after__gt=F("before"), result__voided=False
        )
        .filter(Exists(provisional_opponent))
        .annotate(points=F("after") - F("before"))
        .values_list("result__at", "points")
    )
    return list(rows)


def _rate_result(
    a: ratings.Rating, b: ratings.Rating, score_a: float,
    gains: tuple[list[tuple[datetime, float]], list[tuple[datetime, float]]], at: datetime,
) -> tuple[ratings.Rating, ratings.Rating]:  # fmt: skip
    """The one place a rated result moves ratings, live (`rate`) or replayed
    (`recompute`): `ratings.rate_result` with each player's room for gains from
    provisional opponents in the window before `at` (what they gained so: `gains`)."""
    span, budget = window(), settings.RATINGS["PROVISIONAL_GAIN"]
    room_a = ratings.room(gains[0], at, span, budget)
    room_b = ratings.room(gains[1], at, span, budget)
    return ratings.rate_result(a, b, score_a, room_a, room_b)


def rate(match: Match, now: datetime, kind: Kind) -> RatedResult | None:
    """Rate a finished match once, as a result of this `kind`: both players' Glicko-2 ratings
    from the ratings they had before it (`_rate_result`) — unless the rules say this result
    changes no rating (`ratings.rated_effect`: a player never played a stroke, too few
    strokes were played, or the pair's rated results of the window are used up); then it is
    recorded as unrated, with why, and nothing else changes. Every rated result, of every
    kind, comes through here. None if the match has no winner or was rated already."""
    winner = winner_id(match)
    if winner is None or RatedResult.objects.filter(match=match).exists():
        return None
    a, b = match.player_a_id, match.player_b_id
    for member in sorted((a, b)):
        Rating.objects.get_or_create(member_id=member)
    held = {
        r.member_id: r
        for r in Rating.objects.select_for_update().filter(member_id__in=(a, b)).order_by("pk")
    }
    # Decided under both ratings' locks, so that two results of one pair (or of one member
    # against two puppets) at once count each other.
    strokes_a, strokes_b = strokes_of(match)
    since = now - window()
    recent = pair_results(a, b, since).count()
    conf = settings.RATINGS
    effect = ratings.rated_effect(
        strokes_a, strokes_b, recent, conf["PAIR_CAP"], conf["MIN_STROKES"]
    )
    score = 1.0 if winner == a else 0.0
    result = RatedResult.objects.create(
        match=match, kind=kind, player_a_id=a, player_b_id=b, score_a=score, at=now,
        unrated=effect, strokes_a=strokes_a, strokes_b=strokes_b,
    )  # fmt: skip
    if effect != ratings.Effect.RATED:
        return result
    gains = (_gains_from_provisional(a, since), _gains_from_provisional(b, since))
    new_a, new_b = _rate_result(held[a].value(), held[b].value(), score, gains, now)
    for member, new in ((a, new_a), (b, new_b)):
        old = held[member]
        RatingChange.objects.create(
            result=result, player_id=member, at=now, before=old.rating, before_rd=old.rd,
            after=new.rating, after_rd=new.rd, after_volatility=new.volatility,
        )  # fmt: skip
        old.rating, old.rd, old.volatility = new.rating, new.rd, new.volatility
        old.played += 1
        old.updated = now
        old.save()
    return result


def rating_of(member_id: int) -> ratings.Rating:
    """A member's rating as it stands (a newcomer's if they have no rated result yet)."""
    row = Rating.objects.filter(member_id=member_id).first()
    return row.value() if row is not None else ratings.NEW


def newcomer(member: User) -> None:
    """A member's rating row, a newcomer's if they have none yet."""
    Rating.objects.get_or_create(member=member)


def void(result_id: int, by: User, note: str = "") -> None:
    """An organiser voids a rated result: every rating as if it never happened (whatever
    its kind; a ladder's positions are the ladder's to void, `ladder.service.void`)."""
    with transaction.atomic():
        updated = RatedResult.objects.filter(pk=result_id, voided=False).update(
            voided=True, voided_by=by, void_note=note[:200]
        )
        if not updated:
            raise RatingsError("voided", "this result was voided already")
        recompute()


def void_match(match_id: int, by: User, note: str = "") -> None:
    """Void a match's rated result, if it has one standing (a ladder result voided by an
    organiser): every rating as if it never happened."""
    with transaction.atomic():
        RatedResult.objects.filter(match_id=match_id, voided=False).update(
            voided=True, voided_by=by, void_note=note[:200]
        )
        recompute()


def recompute() -> None:
    """Every rating from every rated result that stands, in order, from newcomers' ratings
    (each rating change rewritten; a voided result's changes are left as they were, marked by
    their result), through the same rule as when they were rated (`_rate_result`)."""
    held = {r.member_id: r for r in Rating.objects.select_for_update().order_by("pk")}
    now_rated: dict[int, ratings.Rating] = {}
    played: dict[int, int] = {}
    # What each member gained from provisional opponents, as replayed: (when, points).
    gained: dict[int, list[tuple[datetime, float]]] = {}
    changes = {
        (c.result_id, c.player_id): c
        for c in RatingChange.objects.filter(result__voided=False).select_related("result")
    }
    changed: list[RatingChange] = []
    standing = RatedResult.objects.filter(voided=False, unrated=ratings.Effect.RATED)
    for result in standing.order_by("at", "pk"):
        a, b = result.player_a_id, result.player_b_id
        old_a, old_b = now_rated.get(a, ratings.NEW), now_rated.get(b, ratings.NEW)
        gains = (gained.setdefault(a, []), gained.setdefault(b, []))
        new_a, new_b = _rate_result(old_a, old_b, result.score_a, gains, result.at)
        for member, old, new, other in ((a, old_a, new_a, old_b), (b, old_b, new_b, old_a)):
            now_rated[member] = new
            played[member] = played.get(member, 0) + 1
            if ratings.provisional(other) and new.rating > old.rating:
                gained[member].append((result.at, new.rating - old.rating))
            change = changes.get((result.pk, member))
            if change is None:
                continue
            change.before, change.before_rd = old.rating, old.rd
            change.after, change.after_rd = new.rating, new.rd
            change.after_volatility = new.volatility
            changed.append(change)
    RatingChange.objects.bulk_update(
        changed, ["before", "before_rd", "after", "after_rd", "after_volatility"]
    )
    for member, row in held.items():
        value = now_rated.get(member, ratings.NEW)
        row.rating, row.rd, row.volatility = value.rating, value.rd, value.volatility
        row.played = played.get(member, 0)
    Rating.objects.bulk_update(list(held.values()), ["rating", "rd", "volatility", "played"])
