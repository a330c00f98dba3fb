"""An organiser's override of a member's handicap (issue 40: "organisers may override a
member's handicap, kept in an audit log"): the starts are worked out from the rating the
organiser gave until they take it away; only organisers may; every change is kept with who,
when and why; the page and the profile in English and Russian."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from ratings import handicaps
from ratings.models import HandicapChange, Rating
from rules.handicap import OVERRIDE_RD, start_for
from rules.ratings import Rating as Glicko
from tests.pages import unwrap_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    organiser = users.create_user("org", is_staff=True)
    ann, ben = users.create_user("ann"), users.create_user("ben")
    Rating.objects.create(member=ann, rating=1800.0, rd=50.0)
    Rating.objects.create(member=ben, rating=1500.0, rd=50.0)
    return organiser, ann, ben


def test_an_override_moves_the_start_until_it_is_taken_away(people) -> None:  # type: ignore[no-untyped-def]
    organiser, ann, ben = people
    cap = settings.CLUB["HANDICAP_CAP"]
    from_ratings = handicaps.start_between(ann.pk, ben.pk)
    assert from_ratings == start_for(Glicko(1800, 50), Glicko(1500, 50), cap)
    handicaps.override(ben, organiser, 1700.0, "plays better than his rating")
    assert handicaps.start_between(ann.pk, ben.pk) == start_for(
        Glicko(1800, 50), Glicko(1700, OVERRIDE_RD), cap
    )
    assert 0 < handicaps.start_between(ann.pk, ben.pk)[1] < from_ratings[1]
    handicaps.override(ben, organiser, None, "back to his rating")
    assert handicaps.start_between(ann.pk, ben.pk) == from_ratings
    log = list(HandicapChange.objects.filter(member=ben).order_by("at", "id"))
    assert [(c.rating, c.reason, c.by) for c in log] == [
        (1700.0, "plays better than his rating", organiser),
        (None, "back to his rating", organiser),
    ]


@pytest.mark.parametrize(
    ("rating", "reason", "code"),
    [(1700.0, "  ", "bad_reason"), (1700.0, "x" * 201, "bad_reason"),
     (16000.0, "typo", "bad_rating"), (None, "nothing to take away", "no_override")],
)  # fmt: skip
def test_refusals_change_nothing(people, rating, reason, code) -> None:  # type: ignore[no-untyped-def]
    organiser, _, ben = people
    with pytest.raises(handicaps.HandicapError) as refused:
        handicaps.override(ben, organiser, rating, reason)
    assert refused.value.code == code and not HandicapChange.objects.exists()


def test_only_organisers_override(people, client: Client) -> None:  # type: ignore[no-untyped-def]
    _, ann, ben = people
    with pytest.raises(handicaps.HandicapError) as refused:
        handicaps.override(ben, ann, 1000.0, "I say so")
    assert refused.value.code == "not_organiser"
    client.force_login(ann)
    assert client.get("/players/ben/handicap/").status_code == 403
    response = client.post("/players/ben/handicap/", {"rating": "1000", "reason": "I say so"})
    assert response.status_code == 403 and not HandicapChange.objects.exists()
    assert "handicap-link" not in client.get("/players/ben/").content.decode()


def test_the_organisers_page_sets_it_and_shows_the_log(people, client: Client) -> None:  # type: ignore[no-untyped-def]
    organiser = people[0]
    client.force_login(organiser)
    assert 'data-testid="handicap-link"' in client.get("/players/ben/").content.decode()
    response = client.post("/players/ben/handicap/", {"rating": "1650", "reason": "new to us"})
    assert response.status_code == 302 and response["Location"] == "/players/ben/handicap/"
    page = unwrap_names(client.get("/players/ben/handicap/").content.decode())
    assert 'data-testid="handicap-rating">1650<' in page
    assert 'data-testid="club-rating">1500<' in page
    assert "new to us" in page and "org" in page
    refused = client.post("/players/ben/handicap/", {"rating": "16000", "reason": "typo"})
    assert refused.status_code == 400 and HandicapChange.objects.count() == 1
    profile = Client().get("/players/ben/").content.decode()
    assert "Handicaps are worked out from a rating of 1650, set by the organisers." in profile
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/players/ben/").content.decode()
    assert "Фора считается по рейтингу 1650, назначенному организаторами." in russian
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = client.get("/players/ben/handicap/").content.decode()
    assert "Рейтинг для форы" in page and "Причина" in page
