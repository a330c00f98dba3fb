"""The pages around the table: join, log in, challenge a member, open the match."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from game.models import Match, MatchEvent
from tests.pages import unwrap_names

pytestmark = pytest.mark.django_db


def test_join_then_challenge_then_open_the_match(client: Client, players) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": "green-baize-77", "password2": "green-baize-77"},
    )
    assert response.status_code == 302
    # A match is made by a challenge the opponent accepts (club/): nothing before that.
    response = client.post(
        "/challenges/new/", {"opponent": "ALICE", "best_of": 5, "shot_clock": 30}
    )
    assert response.status_code == 302 and not Match.objects.exists()
    alice = Client()
    alice.force_login(players[0])
    challenge = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    response = alice.post(f"/challenges/{challenge}/accept/")
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    assert (match.player_a.username, match.player_b.username) == ("carol", "alice")
    assert match.best_of == 5 and match.shot_clock == 30
    start = MatchEvent.objects.get(match=match)
    assert start.version == 1 and json.loads(start.payload)["request"]["draw"] in ("A", "B")
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert 'data-seat="A"' in page and "carol v alice" in page
    assert "carol v alice" in unwrap_names(client.get("/").content.decode())


def test_spectators_open_any_match(client: Client, match) -> None:
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert 'data-seat=""' in page
    assert client.get("/match/999/").status_code == 404


def test_log_in(client: Client, players) -> None:
    assert client.post("/accounts/login/", {"username": "bob", "password": "pw"}).status_code == 302
    assert "bob" in client.get("/").content.decode()
