"""The ratings' service (ratings/service.py) as every app reaches it: rated friendlies (the
club's, club/friendlies.py) and ladder matches (the ladder's) go through one `rate`, each
result with its kind; an organiser voids one, and the rest replay through the same rule."""

from __future__ import annotations

import pytest
from django.conf import settings

from club import friendlies
from club import service as club_service
from game import service as game_service
from game.signals import match_finished
from ladder import service as ladder_service
from ratings import service
from ratings.models import RatedResult, Rating, RatingChange
from rules import ratings
from rules.challenges import Format
from tests.ladder.helpers import accepted, concede, on_ladder

pytestmark = pytest.mark.django_db


def first_result() -> tuple[ratings.Rating, ratings.Rating]:
    """Two newcomers after one rated result: the winner's gain against a provisional opponent
    is within the budget (rules.ratings.rate_result)."""
    room = settings.RATINGS["PROVISIONAL_GAIN"]
    return ratings.rate_result(ratings.NEW, ratings.NEW, 1.0, room, room)


def ratings_of(*users) -> list[float]:  # type: ignore[no-untyped-def]
    return [round(Rating.objects.get(member=u).rating, 6) for u in users]


def test_each_result_carries_its_kind_and_one_rule_rates_them_all(members, main) -> None:
    """A rated friendly and a ladder match between two newcomers each: the same rule gives
    the same change, whichever app the result came from."""
    ann, ben, cat, dan, *_ = members
    friendly = concede(game_service.create_match(ann, ben, 1, rated=True), ben)
    on_ladder(main, cat, dan)
    ladder_match = concede(accepted(main, dan, cat), cat)
    kinds = dict(RatedResult.objects.values_list("match_id", "kind"))
    assert kinds == {friendly.pk: "friendly", ladder_match.pk: "ladder"}
    winner, loser = first_result()
    expected = [round(winner.rating, 6), round(loser.rating, 6)]
    assert ratings_of(ann, ben) == ratings_of(dan, cat) == expected


def test_a_match_not_made_rated_is_never_rated(members) -> None:
    ann, ben, *_ = members
    concede(game_service.create_match(ann, ben, 1, rated=False), ben)
    assert friendlies.on_match_finished(game_service.create_match(ann, ben, 1)) is None
    assert not RatedResult.objects.exists()


def test_rated_friendlies_missed_at_their_end_are_rated_by_the_next_pass(members) -> None:
    ann, ben, *_ = members
    match = game_service.create_match(ann, ben, 1, rated=True)
    match_finished.disconnect(dispatch_uid="club.friendlies")
    try:
        concede(match, ben)
    finally:
        match_finished.connect(friendlies.match_finished, dispatch_uid="club.friendlies")
    assert not RatedResult.objects.exists()
    assert ladder_service.settle_due().rated == (match.pk,)
    assert RatedResult.objects.get().score_a == 1.0
    assert ladder_service.settle_due().rated == ()


def test_a_rated_friendly_needs_both_players_word(members) -> None:
    ann, ben, *_ = members
    proposed = club_service.challenge(ann, ben, Format(1, rated=True)).challenge
    assert proposed is not None
    friendly = club_service.accept(ben, proposed.pk, rated=False).match
    assert friendly is not None and not friendly.rated
    concede(friendly, ben)
    assert not RatedResult.objects.exists()
    proposed = club_service.challenge(ann, ben, Format(1, rated=True)).challenge
    assert proposed is not None
    both = club_service.accept(ben, proposed.pk).match
    assert both is not None and both.rated
    concede(both, ben)
    result = RatedResult.objects.get()
    assert (result.match, result.score_a, result.kind) == (both, 1.0, "friendly")
    winner, loser = first_result()
    assert ratings_of(ann, ben) == [round(winner.rating, 6), round(loser.rating, 6)]


def test_voiding_a_friendlys_rating(members) -> None:
    ann, ben, cat, *_ = members
    first = game_service.create_match(ann, ben, 1, rated=True)
    concede(first, ben)
    second = game_service.create_match(ann, cat, 1, rated=True)
    concede(second, cat)
    service.void(RatedResult.objects.get(match=first).pk, cat, "a mistake")
    winner, loser = first_result()
    assert ratings_of(ann, ben, cat) == [round(winner.rating, 6), 1500, round(loser.rating, 6)]
    assert Rating.objects.get(member=ann).played == 1


def test_ratings_replay_in_order(members) -> None:
    """Recomputing with nothing voided gives the ratings the matches gave one by one."""
    ann, ben, cat, *_ = members
    for a, b, loser in ((ann, ben, ben), (ben, cat, ben), (cat, ann, ann), (ann, ben, ann)):
        concede(game_service.create_match(a, b, 1, rated=True), loser)
    before = ratings_of(ann, ben, cat)
    changes = list(RatingChange.objects.order_by("pk").values_list("before", "after"))
    service.recompute()
    assert ratings_of(ann, ben, cat) == before
    again = list(RatingChange.objects.order_by("pk").values_list("before", "after"))
    assert [(round(a, 6), round(b, 6)) for a, b in again] == [
        (round(a, 6), round(b, 6)) for a, b in changes
    ]
