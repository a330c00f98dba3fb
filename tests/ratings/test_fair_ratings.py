"""No rating without play, no farming by one pair, no pumping by puppets (rules.ratings,
used by ratings.service.rate): a rated result in which a player never struck, with too few
strokes, or beyond the pair's limit in the window, is recorded as unrated and says so; what
provisional opponents give is within a budget per window (docs/ratings.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import service as game_service
from ladder.models import HistoryEntry
from ratings import service
from ratings.models import RatedResult, Rating
from rules.ratings import Effect
from tests.ladder.helpers import accepted, concede, each_plays, on_ladder, order

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


def puppets_concede(attacker, puppets: int, strokes_each: int) -> float:  # type: ignore[no-untyped-def]
    """The attack: fresh accounts (ten is within the sign-up limits in a week: SNOOKER_SIGNUP_RATE
    is per address per hour) each lose a rated match to the attacker, conceding after
    `strokes_each` strokes each, through the match service as the pages send them; the
    attacker's rating after."""
    users = get_user_model().objects
    for n in range(puppets):
        puppet = users.create_user(f"puppet{n}", password=None)
        match = game_service.create_match(attacker, puppet, 1, rated=True)
        each_plays(match, f"p{n}-", strokes=strokes_each)
        concede(match, puppet, f"c{n}")
    return rating(attacker)


def test_ten_puppets_conceding_after_five_strokes_each_move_nobody(members) -> None:
    """Issue 36's attack (it took the attacker from 1500 to 1993): five strokes each is too
    little play, so none of the ten results is rated."""
    attacker = members[0]
    assert puppets_concede(attacker, 10, 5) == 1500.0
    assert set(RatedResult.objects.values_list("unrated", flat=True)) == {Effect.LITTLE_PLAY}


def test_ten_puppets_that_play_the_minimum_give_at_most_the_budget(members) -> None:
    """The attack with the minimum of play (ten strokes each): every result is rated, and the
    puppets are provisional, so the attacker gains at most the week's budget (75 < 100)."""
    attacker = members[0]
    after = puppets_concede(attacker, 10, 10)
    assert set(RatedResult.objects.values_list("unrated", flat=True)) == {Effect.RATED}
    assert 1500.0 < after <= 1500.0 + 100.0
    assert after == pytest.approx(1575.0)
    # The puppets lost as Glicko says (a loss is never limited).
    assert rating(get_user_model().objects.get(username="puppet9")) < 1500.0
    # Voiding one result replays the rest through the same rule: still within the budget.
    first = RatedResult.objects.order_by("pk").first()
    assert first is not None
    service.void(first.pk, members[1], "a puppet")
    assert rating(attacker) == pytest.approx(1575.0)


def test_the_budget_is_per_window(members) -> None:
    """A week on, the attacker's puppets give the budget again: a slow climb at most (75
    points a week), and the puppets must each play a score of strokes."""
    attacker = members[0]
    puppets_concede(attacker, 2, 10)
    RatedResult.objects.update(at=RatedResult.objects.order_by("pk").first().at - timedelta(days=7))  # type: ignore[union-attr]
    late = get_user_model().objects.create_user("late", password=None)
    concede(game_service.create_match(attacker, late, 1, rated=True), late, "late")
    assert rating(attacker) == pytest.approx(1650.0)


def test_a_win_over_an_established_member_is_not_limited(members) -> None:
    ann, ben, *_ = members
    Rating.objects.create(member=ben, rating=1700.0, rd=60.0, played=40)
    concede(game_service.create_match(ann, ben, 1, rated=True), ben)
    assert rating(ann) > 1500.0 + 100.0  # a newcomer's upset over an established player
