"""No rating without play, and no farming by one pair (rules.ratings.rated_effect, used by
ladder.service.rate): a rated result in which a player never struck, or beyond the pair's
limit in the window, is recorded as unrated and says so."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from game import service as game_service
from ladder.models import HistoryEntry, RatedResult, Rating
from rules.ratings import Effect
from tests.ladder.helpers import accepted, concede, on_ladder, order

pytestmark = pytest.mark.django_db


def rating(user) -> float:  # type: ignore[no-untyped-def]
    row = Rating.objects.filter(member=user).first()
    return 1500.0 if row is None else row.rating


def test_five_rated_friendlies_conceded_before_a_stroke_change_no_rating(members) -> None:
    """The attack: a second account concedes five rated friendlies at once (it used to take
    the first from 1500 to 1792)."""
    ann, ben, *_ = members
    for n in range(5):
        concede(game_service.create_match(ann, ben, 1, rated=True), ben, f"c{n}", played=False)
    assert (rating(ann), rating(ben)) == (1500.0, 1500.0)
    results = RatedResult.objects.order_by("pk")
    assert [r.unrated for r in results] == [Effect.NO_PLAY] * 5
    assert [(r.strokes_a, r.strokes_b) for r in results] == [(0, 0)] * 5
    assert not any(r.changes.exists() for r in results)
    assert Rating.objects.get(member=ann).played == 0


def test_a_ladder_match_without_a_stroke_is_a_walkover_but_rates_nobody(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = concede(accepted(main, ben, ann), ann, played=False)
    assert order(main) == ["ben", "ann"]  # the position result stands
    assert HistoryEntry.objects.get(kind="result", match=match).member == ben
    assert RatedResult.objects.get(match=match).unrated == Effect.NO_PLAY
    assert (rating(ann), rating(ben)) == (1500.0, 1500.0)


def test_at_most_three_results_of_one_pair_in_seven_days_change_ratings(members) -> None:
    ann, ben, cat, *_ = members
    matches = [game_service.create_match(ann, ben, 1, rated=True) for _ in range(5)]
    for n, match in enumerate(matches):
        concede(match, ben if n % 2 else ann, f"c{n}")
    effects = [RatedResult.objects.get(match=m).unrated for m in matches]
    assert effects == [Effect.RATED] * 3 + [Effect.PAIR_CAP] * 2
    kept = (rating(ann), rating(ben))
    # Another pair is not held back by this one.
    concede(game_service.create_match(cat, ann, 1, rated=True), cat, "other")
    assert RatedResult.objects.order_by("-pk").first().unrated == Effect.RATED  # type: ignore[union-attr]
    assert rating(ben) == kept[1]
    # Seven days on, the pair's results count again (the window slides).
    RatedResult.objects.update(at=RatedResult.objects.order_by("pk").first().at - timedelta(days=7))  # type: ignore[union-attr]
    again = concede(game_service.create_match(ben, ann, 1, rated=True), ann, "later")
    assert RatedResult.objects.get(match=again).unrated == Effect.RATED
    assert rating(ben) > kept[1]


def test_the_match_page_and_the_profile_say_a_result_was_unrated(client: Client, members) -> None:
    ann, ben, *_ = members
    match = concede(game_service.create_match(ann, ben, 1, rated=True), ben, played=False)
    html = client.get(f"/match/{match.pk}/").content.decode()
    assert "a player never played a stroke" in html and 'data-testid="rating-change"' not in html
    for n in range(4):
        concede(game_service.create_match(ann, ben, 1, rated=True), ben, f"p{n}")
    capped = RatedResult.objects.order_by("-pk").first()
    assert capped is not None and capped.unrated == Effect.PAIR_CAP
    html = client.get(f"/match/{capped.match_id}/").content.decode()
    assert "the limit of rated results between these two members (3 in 7 days)" in html
    profile = client.get(f"/players/{ann.get_username()}/").content.decode()
    assert "2 rated results did not change the rating" in profile
    russian = client.get(f"/match/{capped.match_id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "не изменил рейтинги" in russian
