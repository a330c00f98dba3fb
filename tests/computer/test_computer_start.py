"""A match against the computer with a handicap start (issue 40: "the computer can give or take
a start"): the member's page asks how many points and for whom; the cap holds."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game.models import Match
from rules.match import match_from_json
from tests.computer.test_computer import seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def page() -> Client:
    seats()
    client = Client()
    client.force_login(get_user_model().objects.create_user("alice", password="pw"))
    return client


@pytest.mark.parametrize(("receiver", "start"), [("me", (21, 0)), ("computer", (0, 21))])
def test_the_member_or_the_computer_receives_the_start(page: Client, receiver, start) -> None:  # type: ignore[no-untyped-def]
    response = page.post(
        "/computer/", {"level": "pro", "best_of": 1, "start": 21, "receiver": receiver}
    )
    match = Match.objects.get()
    assert response.status_code == 302
    state = match_from_json(match.state)
    assert state.start == start and state.frame.scores == start


def test_no_start_asked_is_none(page: Client) -> None:
    page.post("/computer/", {"level": "club", "best_of": 1})
    assert match_from_json(Match.objects.get().state).start == (0, 0)


def test_a_start_above_the_cap_is_refused_and_nothing_is_made(page: Client, settings) -> None:  # type: ignore[no-untyped-def]
    cap = settings.CLUB["HANDICAP_CAP"]
    response = page.post(
        "/computer/", {"level": "club", "best_of": 1, "start": cap + 1, "receiver": "me"}
    )
    assert response.status_code == 200 and not Match.objects.exists()
    assert f'max="{cap}"' in response.content.decode()
    page.post("/computer/", {"level": "club", "best_of": 1, "start": -1, "receiver": "me"})
    assert not Match.objects.exists()


def test_the_form_reads_in_russian(page: Client) -> None:
    text = page.get("/computer/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Фора" in text and "Компьютер" in text
