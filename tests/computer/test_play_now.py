"""One click to play the computer (snooker_site/views.py, `play_computer_now`): anyone, a
visitor without an account as a guest; at most SNOOKER_COMPUTER_VISITOR_RATE a visitor's
address; a guest who then joins keeps their matches against the computer."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game.models import Match
from tests.computer.test_computer import seats

pytestmark = pytest.mark.django_db

ADDRESS = "192.0.2.7"
PASSWORD_FREE = "a long pass phrase 7"


def play(client: Client, level: str = "pro", address: str = ADDRESS) -> int:
    return client.post("/computer/now/", {"level": level}, REMOTE_ADDR=address).status_code


def test_the_lobby_offers_the_three_levels_to_a_visitor(client: Client) -> None:
    page = client.get("/").content.decode()
    for level in ("novice", "club", "pro"):
        assert f'data-testid="play-computer-{level}"' in page


def test_a_visitor_plays_the_computer_as_a_guest_in_one_click(client: Client) -> None:
    seats()
    response = client.post("/computer/now/", {"level": "novice"}, REMOTE_ADDR=ADDRESS)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    assert hasattr(match.player_a, "guest") and match.player_b.computer.level == "novice"
    assert match.best_of == 1 and not match.rated
    # The browser is now that guest: its table shows it seat A.
    assert client.get(f"/match/{match.pk}/").context["seat"] == "A"
    # A second click plays again as the same guest, not a new one.
    assert play(client, "club") == 302
    assert Match.objects.filter(player_a=match.player_a).count() == 2
    assert play(client, "grandmaster") == 400


def test_visitors_start_few_matches_per_address(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    seats()
    settings.SNOOKER_COMPUTER_VISITOR_RATE = "2/h"
    assert play(Client()) == 302
    assert play(Client()) == 302
    response = Client().post("/computer/now/", {"level": "pro"}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 429 and 0 < int(response["Retry-After"]) <= 3600
    assert Match.objects.count() == 2
    assert play(Client(), address="192.0.2.8") == 302  # another address
    # A member is held to the computer's own limit per player, not the visitors'.
    member = get_user_model().objects.create_user("alice", password=PASSWORD_FREE)
    page = Client()
    page.force_login(member)
    assert play(page) == 302


def test_a_guest_who_joins_keeps_their_matches_against_the_computer(client: Client) -> None:
    seats()
    assert play(client) == 302
    guest = Match.objects.get().player_a
    data = {"username": "gina", "password1": PASSWORD_FREE, "password2": PASSWORD_FREE}
    assert client.post("/accounts/signup/", data, REMOTE_ADDR=ADDRESS).status_code == 302
    gina = get_user_model().objects.get(username="gina")
    assert Match.objects.get().player_a == gina
    assert not Match.objects.filter(player_a=guest).exists()
    # A visitor who never played as a guest joins with nothing to keep.
    assert (
        Client()
        .post("/accounts/signup/", {**data, "username": "hal"}, REMOTE_ADDR="192.0.2.9")
        .status_code
        == 302
    )


def test_a_third_click_while_two_are_live_says_why_on_the_computers_page(client: Client) -> None:
    seats()
    assert play(client, "novice") == 302
    assert play(client, "club") == 302
    response = client.post("/computer/now/", {"level": "pro"}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 409
    text = response.content.decode()
    assert 'data-testid="computer-form"' in text
    assert "You already have 2 matches against the computer being played" in text
    assert Match.objects.count() == 2
