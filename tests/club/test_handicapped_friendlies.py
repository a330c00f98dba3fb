"""A friendly that asks for a handicap (issue 40, docs/handicaps.md "Where it applies"): the
start from the two members' ratings when it is accepted, on the challenge (its page and the
lobby's rows, in English and Russian) and on the lobby's live rows."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation

from club import lobby, service
from club.models import Challenge
from club.templatetags.club_tags import format_text
from game import service as game_service
from game.models import Match
from ratings.models import Rating
from rules import ratings
from rules.challenges import Format
from rules.handicap import start_for
from rules.match import match_from_json
from rules.state import NO_START
from tests.club.helpers import LobbyClient
from tests.club.test_challenges_service import concede_match

pytestmark = pytest.mark.django_db

BO3 = Format(3)
STRONG = ratings.Rating(1800.0, 50.0)
WEAK = ratings.Rating(1500.0, 50.0)


def rate(member, rating: ratings.Rating) -> None:  # type: ignore[no-untyped-def]
    Rating.objects.create(member=member, rating=rating.rating, rd=rating.rd)


def start_of(match: Match) -> tuple[int, int]:
    return match_from_json(match.state).start


def logged_in(user, language: str = "en") -> Client:  # type: ignore[no-untyped-def]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_handicapped_challenge_accepted_gives_the_weaker_the_start_of_their_ratings(
    members, settings
) -> None:
    alice, bob, _ = members
    rate(alice, STRONG)
    rate(bob, WEAK)
    made = service.challenge(alice, bob, BO3, handicap=True).challenge
    assert made.handicap
    match = service.accept(bob, made.pk).match
    expected = start_for(STRONG, WEAK, settings.CLUB["HANDICAP_CAP"])
    assert expected[0] == 0 and expected[1] > 0  # bob, the weaker (B), receives
    assert start_of(match) == expected
    # The other way round: the weaker challenges, and is A.
    made = service.challenge(bob, alice, BO3, handicap=True).challenge
    match = service.accept(alice, made.pk).match
    assert start_of(match) == (expected[1], 0)


def test_a_challenge_that_asks_for_none_has_no_start(members) -> None:
    alice, bob, _ = members
    rate(alice, STRONG)
    rate(bob, WEAK)
    made = service.challenge(alice, bob, BO3).challenge
    assert not made.handicap
    assert start_of(service.accept(bob, made.pk).match) == NO_START


def test_newcomers_with_equal_ratings_get_no_start(members) -> None:
    alice, bob, _ = members  # no rated result yet: both a newcomer's rating
    made = service.challenge(alice, bob, BO3, handicap=True).challenge
    assert start_of(service.accept(bob, made.pk).match) == NO_START
    assert lobby.challenge_row(Challenge.objects.get(pk=made.pk)).start.model_dump() == {
        "A": 0,
        "B": 0,
    }


def test_the_start_is_capped_at_the_clubs_cap(members, settings) -> None:
    alice, bob, _ = members
    settings.CLUB = {**settings.CLUB, "HANDICAP_CAP": 10}
    rate(alice, STRONG)
    rate(bob, WEAK)
    assert start_for(STRONG, WEAK, 70)[1] > 10
    made = service.challenge(alice, bob, BO3, handicap=True).challenge
    assert start_of(service.accept(bob, made.pk).match) == (0, 10)


def test_an_open_handicapped_challenge_is_worked_out_with_whoever_takes_it(members) -> None:
    alice, _, carol = members
    rate(alice, WEAK)
    rate(carol, STRONG)
    made = service.challenge(alice, None, BO3, handicap=True).challenge
    row = lobby.challenge_row(made)
    assert row.handicap and row.start is None  # nobody to work it out with yet
    match = service.accept(carol, made.pk).match
    assert start_of(match) == start_for(WEAK, STRONG, 70) and start_of(match)[0] > 0
    accepted = lobby.challenge_rows(Challenge.objects.filter(pk=made.pk))[0]
    assert start_of(match) == (accepted.start.A, accepted.start.B)


def test_a_waiting_direct_challenge_shows_the_start_its_ratings_give_now(members) -> None:
    alice, bob, _ = members
    rate(alice, STRONG)
    rate(bob, WEAK)
    made = service.challenge(alice, bob, BO3, handicap=True).challenge
    row = lobby.challenge_row(made)
    assert start_for(STRONG, WEAK, 70) == (row.start.A, row.start.B)
    assert lobby.challenge_row(service.challenge(bob, alice, BO3).challenge).start is None


def test_a_rematch_is_on_the_same_terms_and_words_the_start_as_its_challengers(members) -> None:
    """Bob (B, the weaker) offers the rematch of a handicapped friendly: it asks for a
    handicap too; its row gives the start as the challenger's (his) first, the match keeps
    the seats."""
    alice, bob, _ = members
    rate(alice, STRONG)
    rate(bob, WEAK)
    points = start_for(STRONG, WEAK, 70)[1]
    first = service.accept(
        bob, service.challenge(alice, bob, Format(1), handicap=True).challenge.pk
    )
    concede_match(first.match, bob)
    offer = service.offer_rematch(bob, first.match.pk).challenge
    assert offer.handicap
    row = lobby.challenge_row(offer)
    assert (row.challenger, row.start.A, row.start.B) == ("bob", points, 0)
    second = service.accept(alice, offer.pk).match
    assert (second.player_a, second.player_b) == (alice, bob)
    assert start_of(second) == (0, points)
    accepted = lobby.challenge_rows(Challenge.objects.filter(pk=offer.pk))[0]
    assert (points, 0) == (accepted.start.A, accepted.start.B)
    with translation.override("en"):
        assert format_text(accepted).endswith(f" · handicap: bob receives {points}")
    # Not asked the first time: not asked again.
    plain = service.accept(bob, service.challenge(alice, bob, Format(1)).challenge.pk).match
    concede_match(plain, bob)
    assert not service.offer_rematch(bob, plain.pk).challenge.handicap


def test_the_form_asks_for_a_handicap_off_by_default(members) -> None:
    alice, _, _ = members
    client = logged_in(alice)
    form = client.get("/challenges/new/").content.decode()
    assert 'name="handicap"' in form and "Handicap" in form
    assert 'name="handicap" checked' not in form
    lobby_page = client.get("/").content.decode()
    assert 'name="handicap"' in lobby_page  # the lobby's quick form too
    client.post("/challenges/new/", {"opponent": "bob", "best_of": 3})
    assert not Challenge.objects.get().handicap
    Challenge.objects.all().delete()
    client.post("/challenges/new/", {"opponent": "bob", "best_of": 3, "handicap": "on"})
    assert Challenge.objects.get().handicap


def test_the_challenge_page_says_who_receives_what_in_english_and_russian(members) -> None:
    alice, bob, _ = members
    rate(alice, STRONG)
    rate(bob, WEAK)
    made = service.challenge(alice, bob, BO3, handicap=True).challenge
    points = start_for(STRONG, WEAK, 70)[1]
    english = logged_in(bob).get(f"/challenges/{made.pk}/").content.decode()
    assert f"handicap: bob receives {points}" in english
    russian = logged_in(bob, "ru").get(f"/challenges/{made.pk}/").content.decode()
    assert f"фора: bob получает {points}" in russian
    # The lobby's row for it, drawn by the server (the script words it the same: clubtext.js).
    assert f"handicap: bob receives {points}" in logged_in(bob).get("/").content.decode()


def test_the_lobby_words_a_handicap_not_worked_out_yet_and_none(members) -> None:
    alice, bob, _ = members
    asked = service.challenge(alice, None, BO3, handicap=True).challenge
    even = service.challenge(bob, alice, BO3, handicap=True).challenge
    with translation.override("en"):
        assert format_text(asked).endswith(" · handicap")
        assert format_text(even).endswith(" · handicap: no start")
    with translation.override("ru"):
        assert format_text(asked).endswith(" · с форой")
        assert format_text(even).endswith(" · фора: нет")


def test_the_lobbys_live_row_carries_the_start(members) -> None:
    alice, bob, _ = members
    rate(alice, STRONG)
    rate(bob, WEAK)
    made = service.challenge(alice, bob, BO3, handicap=True).challenge
    match = service.accept(bob, made.pk).match
    points = start_of(match)[1]
    row = lobby.welcome(None, lobby=True).matches[0]
    assert row.id == match.pk and row.model_dump(by_alias=True)["start"] == {"A": 0, "B": points}
    # Every frame begins at the start, so it is in the frame's points too.
    assert (0, points) == (row.scores.A, row.scores.B)
    page = logged_in(alice, "ru").get("/").content.decode()
    assert f"фора: bob получает {points}" in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_clients")
async def test_the_lobby_socket_sends_the_start_on_live_rows_and_challenges(members) -> None:
    alice, bob, _ = members
    await database_sync_to_async(rate)(alice, STRONG)
    await database_sync_to_async(rate)(bob, WEAK)
    plain = await database_sync_to_async(game_service.create_match)(alice, bob, 3, draw="A")
    made = (
        await database_sync_to_async(service.challenge)(alice, bob, BO3, handicap=True)
    ).challenge
    points = start_for(STRONG, WEAK, 70)[1]

    welcome = await LobbyClient(bob).open()
    assert [(m["id"], m["start"]) for m in welcome["matches"]] == [(plain.pk, {"A": 0, "B": 0})]
    [mine] = welcome["mine"]
    assert (mine["id"], mine["handicap"], mine["start"]) == (made.pk, True, {"A": 0, "B": points})

    match = (await database_sync_to_async(service.accept)(bob, made.pk)).match
    welcome = await LobbyClient().open()
    row = next(m for m in welcome["matches"] if m["id"] == match.pk)
    assert row["start"] == {"A": 0, "B": points} and row["scores"] == {"A": 0, "B": points}
