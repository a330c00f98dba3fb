"""The organisers' pages for the ratings (`/admin/ratings/`, ratings/admin.py) through
Django's test client, as a superuser: every page answers, a rated result voided, and the
results that look wrong found."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import service as game_service
from ratings.models import RatedResult, Rating
from tests.ladder.helpers import accepted, concede, each_plays, on_ladder

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_superuser("olga", "olga@example.org", None)


@pytest.fixture
def admin(organiser) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(organiser)
    return client


def test_every_ratings_page_answers(admin: Client, members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ann)
    for model in ("rating", "ratedresult", "ratingchange"):
        assert admin.get(f"/admin/ratings/{model}/").status_code == 200, model
    html = admin.get("/admin/ratings/ratedresult/?kind__exact=ladder").content.decode()
    result = RatedResult.objects.get()
    assert f"/admin/ratings/ratedresult/{result.pk}/change/" in html
    assert admin.get(f"/admin/ratings/ratedresult/{result.pk}/change/").status_code == 200
    # The ratings are read, never written by hand.
    assert admin.get("/admin/ratings/rating/add/").status_code == 403
    member = Client()
    member.force_login(ann)
    response = member.get("/admin/ratings/ratedresult/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_voiding_a_rated_friendly(admin: Client, members) -> None:
    ann, ben, *_ = members
    concede(game_service.create_match(ann, ben, 1, rated=True), ben)
    result = RatedResult.objects.get()
    response = admin.post(
        "/admin/ratings/ratedresult/", {"action": "void_ratings", "_selected_action": [result.pk]}
    )
    assert response.status_code == 302
    assert [Rating.objects.get(member=u).rating for u in (ann, ben)] == [1500, 1500]
    result.refresh_from_db()
    assert result.voided and result.voided_by is not None


def listed(admin: Client, query: str) -> set[int]:
    html = admin.get(f"/admin/ratings/ratedresult/?{query}").content.decode()
    return {int(pk) for pk in re.findall(r"/admin/ratings/ratedresult/(\d+)/change/", html)}


def test_the_organisers_see_what_looks_wrong_and_void_it(admin: Client, members, settings) -> None:
    ann, ben, cat, dan, *_ = members
    # Four results of one pair within days, rated before the cap and the minimum of strokes
    # came in (a farm), ...
    settings.RATINGS = {**settings.RATINGS, "PAIR_CAP": 10, "FEW_STROKES": 3, "MIN_STROKES": 2}
    farm = [game_service.create_match(ann, ben, 1, rated=True) for _ in range(4)]
    for n, match in enumerate(farm):
        concede(match, ben, f"f{n}")
    settings.RATINGS = {**settings.RATINGS, "PAIR_CAP": 3}
    capped = concede(game_service.create_match(ben, ann, 1, rated=True), ben, "capped")
    # ... one nobody struck in, and one well played (many strokes) between others.
    walkover = concede(game_service.create_match(cat, dan, 1, rated=True), dan, played=False)
    played = game_service.create_match(cat, ann, 1, rated=True)
    for n in range(2):
        each_plays(played, f"round{n}-")
    concede(played, ann, "played")
    pk = {m.pk: RatedResult.objects.get(match=m).pk for m in (*farm, capped, walkover, played)}
    assert listed(admin, "looks=over_cap") == {pk[farm[3].pk], pk[capped.pk]}
    assert listed(admin, "looks=no_play") == {pk[walkover.pk]}
    # Two strokes each in the farm's matches: "fewer than 3" is true of them, not of the
    # match played twice over (four strokes), nor of the unrated ones.
    assert listed(admin, "looks=few_strokes") == {pk[m.pk] for m in farm}
    before = Rating.objects.get(member=ann).rating
    response = admin.post(
        "/admin/ratings/ratedresult/",
        {"action": "void_ratings", "_selected_action": [pk[farm[3].pk]], "note": "farmed"},
    )
    assert response.status_code == 302
    assert RatedResult.objects.get(pk=pk[farm[3].pk]).voided
    assert Rating.objects.get(member=ann).rating != before
    assert listed(admin, "looks=over_cap") == {pk[capped.pk]}
