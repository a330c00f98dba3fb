"""A handicapped ladder (issue 40: "a ladder is handicapped or not by its settings"): its
challenges ask for a handicap, so each accepted match gives the weaker member the start of the
two ratings, shown on the ladder's page; an unhandicapped ladder's matches have none."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from ladder.models import Ladder
from ratings.models import Rating
from rules.handicap import start_for
from rules.match import match_from_json
from rules.ratings import Rating as Glicko
from rules.state import NO_START
from tests.ladder.helpers import accepted, on_ladder

pytestmark = pytest.mark.django_db

STRONG, WEAK = Glicko(1800.0, 50.0), Glicko(1500.0, 50.0)


@pytest.mark.parametrize("handicap", [True, False])
def test_a_handicapped_ladders_match_gives_the_weaker_the_start(
    main: Ladder, members, handicap: bool
) -> None:
    ann, ben, *_ = members
    main.handicap = handicap
    main.save()
    on_ladder(main, ann, ben)
    for member, rating in ((ann, STRONG), (ben, WEAK)):
        Rating.objects.update_or_create(
            member=member, defaults={"rating": rating.rating, "rd": rating.rd}
        )
    match = accepted(main, ben, ann)  # ben challenges upwards: ben sits A
    start = match_from_json(match.state).start
    if handicap:
        expected = start_for(WEAK, STRONG, settings.CLUB["HANDICAP_CAP"])
        assert start == expected and expected[0] > 0
    else:
        assert start == NO_START


def test_the_ladders_page_says_it_is_handicapped(main: Ladder) -> None:
    main.handicap = True
    main.save()
    english = Client().get("/ladder/").content.decode()
    assert 'data-testid="ladder-handicap"' in english and "handicapped" in english
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/ladder/").content.decode()
    assert "с форой: более слабый игрок" in russian
