"""A handicapped competition (issue 40: "a competition is handicapped or not by its
settings"): each match drawn gives the weaker member the start of the two ratings as they stand
at the draw, in a round robin as in a knockout; shown on the page; none without the setting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from competitions import service
from competitions.models import Pairing
from game.models import Match
from ratings.models import Rating
from rules import bracket as rules
from rules.handicap import start_for
from rules.match import match_from_json
from rules.ratings import Rating as Glicko
from rules.state import NO_START

pytestmark = pytest.mark.django_db(transaction=True)

RATINGS = {"ann": 1800.0, "ben": 1650.0, "cat": 1500.0, "dan": 1350.0}


@pytest.fixture
def organiser(db: None) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("org", password=None, is_staff=True)


@pytest.mark.parametrize("format", ["round_robin", "knockout"])
@pytest.mark.parametrize("handicap", [True, False])
def test_each_match_drawn_has_the_start_of_the_two_ratings(
    organiser: Any, members: Any, format: str, handicap: bool
) -> None:
    now = timezone.now()
    four = members[:4]
    for m in four:
        Rating.objects.update_or_create(
            member=m, defaults={"rating": RATINGS[m.username], "rd": 50.0}
        )
    row = service.open_competition(
        organiser, "Handicap cup", now, now + timedelta(days=1), best_of=rules.BestOf(3),
        format=format, handicap=handicap,
    )  # fmt: skip
    for m in four:
        service.enter(row.pk, m, now)
    service.draw(row.pk, organiser, now + timedelta(days=2))
    matches = Match.objects.filter(
        pk__in=Pairing.objects.filter(competition=row).values("fixture__match_id")
    ).select_related("player_a", "player_b")
    assert matches
    cap = settings.CLUB["HANDICAP_CAP"]
    for match in matches:
        a, b = match.player_a.username, match.player_b.username
        expected = start_for(Glicko(RATINGS[a], 50.0), Glicko(RATINGS[b], 50.0), cap)
        assert match_from_json(match.state).start == (expected if handicap else NO_START)
    page = Client().get(f"/competitions/{row.pk}/").content.decode()
    assert ('data-testid="competition-handicap"' in page) is handicap


def test_the_form_asks_for_it(organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    form = client.get("/competitions/new/").content.decode()
    assert 'name="handicap"' in form
    now = timezone.now()
    made = client.post(
        "/competitions/new/",
        {"name": "Handicap cup", "name_ru": "", "format": "knockout", "best_of": 3,
         "entry_deadline": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
         "play_days": 7, "handicap": "on", "rated": "on"},
    )  # fmt: skip
    assert made.status_code == 302
    from competitions.models import Competition

    assert Competition.objects.get().handicap
