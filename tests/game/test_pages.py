"""The pages around the table: join, log in, challenge a member, open the match."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from game.models import Match, MatchEvent

pytestmark = pytest.mark.django_db


def test_join_then_challenge_then_open_the_match(client: Client, players) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": "green-baize-77", "password2": "green-baize-77"},
    )
    assert response.status_code == 302
    response = client.post("/matches/new/", {"opponent": "ALICE", "best_of": 5, "shot_clock": 30})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    assert (match.player_a.username, match.player_b.username) == ("carol", "alice")
    assert match.best_of == 5 and match.shot_clock == 30
    start = MatchEvent.objects.get(match=match)
    assert start.version == 1 and json.loads(start.payload)["request"]["draw"] in ("A", "B")
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert 'data-seat="A"' in page and "carol v alice" in page
    assert "carol v alice" in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("opponent", "error"), [("nobody", "No member is called"), ("alice", "someone other")]
)
def test_a_challenge_needs_another_member(client: Client, players, opponent, error) -> None:
    client.force_login(players[0])
    response = client.post("/matches/new/", {"opponent": opponent, "best_of": 3})
    assert response.status_code == 200 and error in response.content.decode()
    assert not Match.objects.exists()


def test_new_match_needs_a_login(client: Client) -> None:
    response = client.get("/matches/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_spectators_open_any_match(client: Client, match) -> None:
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert 'data-seat=""' in page
    assert client.get("/match/999/").status_code == 404


def test_log_in(client: Client, players) -> None:
    assert client.post("/accounts/login/", {"username": "bob", "password": "pw"}).status_code == 302
    assert "bob" in client.get("/").content.decode()
