"""The aim guide is a setting of the match (issue 38, item 5): the club's default
(SNOOKER_AIM_GUIDE), chosen at the challenge, carried to the match and its rematch, shown in
the challenge's words and on the table's page to both players alike."""

from __future__ import annotations

import pytest
from django.test import Client

from club import service
from club.forms import ChallengeForm
from club.lobby import challenge_row
from club.models import Challenge
from club.text import describe_format
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from rules.challenges import Format

pytestmark = pytest.mark.django_db


def test_a_short_guide_chosen_at_the_challenge_is_the_matchs(members) -> None:
    alice, bob, _ = members
    made = service.challenge(alice, bob, Format(3, guide="short")).challenge
    assert made.guide == "short"
    assert challenge_row(made).guide == "short"  # told to both parties with the challenge
    match = service.accept(bob, made.pk).match
    assert match is not None and match.guide == "short"
    # A rematch keeps it.
    concede = client_in.Concede(type="concede", client_id="end", scope="match")
    game_service.submit(match.pk, alice, concede)
    offer = service.offer_rematch(alice, match.pk).challenge
    assert offer.guide == "short"
    assert service.accept(bob, offer.pk).match.guide == "short"  # type: ignore[union-attr]


def test_without_a_choice_a_match_has_the_clubs_default(members, settings) -> None:
    alice, bob, carol = members
    made = service.challenge(alice, bob, Format(3)).challenge
    assert service.accept(bob, made.pk).match.guide == "full"  # type: ignore[union-attr]
    settings.SNOOKER = {**settings.SNOOKER, "AIM_GUIDE": "short"}
    made = service.challenge(alice, carol, Format(3)).challenge
    assert made.guide == "short"
    assert ChallengeForm(user=alice).fields["guide"].initial == "short"
    assert service.practise(alice, 1).guide == "short"


def test_an_unknown_guide_is_refused(members) -> None:
    alice, bob, _ = members
    with pytest.raises(service.ClubError) as err:
        service.challenge(alice, bob, Format(3, guide="wide"))
    assert err.value.code == "bad_format"
    with pytest.raises(game_service.ServiceError):
        game_service.create_match(alice, bob, 1, guide="wide")


def test_the_challenge_form_and_its_words(members) -> None:
    alice, _, _ = members
    client = Client()
    client.force_login(alice)
    response = client.post("/challenges/new/", {"opponent": "bob", "best_of": 3, "guide": "short"})
    assert response.status_code == 302
    assert Match.objects.count() == 0
    assert Challenge.objects.get().guide == "short"
    assert describe_format(Format(3, guide="short")) == "best of 3 · friendly · short aim guide"
    assert describe_format(Format(3, guide="full")) == "best of 3 · friendly"
    lobby = client.get("/").content.decode()
    assert 'name="guide"' in lobby and "short aim guide" in lobby


def test_the_table_shows_the_guide_to_both_players(members) -> None:
    alice, bob, _ = members
    made = service.challenge(alice, bob, Format(1, guide="short")).challenge
    match = service.accept(bob, made.pk).match
    assert match is not None
    for user in (alice, bob):
        client = Client()
        client.force_login(user)
        page = client.get(f"/match/{match.pk}/").content.decode()
        assert 'data-guide="short"' in page
        assert 'data-testid="aim-guide" data-i18n="aid.guide.short"' in page
