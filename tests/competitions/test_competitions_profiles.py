"""A member's profile lists the competitions they entered, the newest first, each with their
result so far (entered, playing, champion, runner-up, third, fourth, out in a round,
withdrawn), read
in one query however many they entered (competitions/templatetags/competition_tags.py)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from competitions import service
from rules import bracket as rules
from tests.competitions.test_competitions_service import (
    RATINGS,
    opened,
    to_play,
)
from tests.ladder.helpers import concede
from tests.queries import same_cost


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def results(name: str, language: str = "en") -> dict[str, tuple[str, str]]:
    """The profile's competitions: each one's result and its words, by the competition's id."""
    html = Client(headers={"accept-language": language}).get(f"/players/{name}/").content
    found = re.findall(
        r'data-testid="profile-competition-(\d+)" data-result="([a-z_]+)"><a [^>]*>[^<]*</a> · '
        r"([^<]*)</li>",
        html.decode(),
    )
    return {pk: (result, text) for pk, result, text in found}


def play_round(row) -> None:  # type: ignore[no-untyped-def]
    """Each match to be played now, won by the higher rated."""
    for m in to_play(row).values():
        a, b = m.player_a.username, m.player_b.username
        concede(m, m.player_b if RATINGS[a] > RATINGS[b] else m.player_a)


def test_a_profile_lists_each_competition_with_the_members_result(organiser, members) -> None:
    ann, ben, cat, dan, _, fay = members
    row = opened(organiser, (ann, ben, cat, dan), rules.BestOf(1))
    pk = str(row.pk)
    assert results("ann")[pk] == ("entered", "entered")
    assert pk not in results("fay")
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    assert results("dan")[pk] == ("playing", "playing")
    play_round(row)  # the semi-finals: the higher rated win
    assert results("ann")[pk] == ("playing", "playing")
    assert results("cat")[pk] == results("dan")[pk] == ("out", "out in Semi-final")
    play_round(row)  # the final
    assert results("ann")[pk] == ("champion", "champion")
    assert results("ben")[pk] == ("runner_up", "runner-up")
    assert results("ben", "ru")[pk][1] == "финалист"
    assert results("cat", "ru")[pk][1] == "выбыл(а): Полуфинал"
    # A later competition, withdrawn from in play, is listed first.
    later = service.open_competition(
        organiser, "Spring cup", timezone.now(), timezone.now() + timedelta(days=1)
    )
    for m in (ann, fay):
        service.enter(later.pk, m, timezone.now())
    service.draw(later.pk, organiser, timezone.now(), seed=1)
    service.withdraw(later.pk, fay, timezone.now())
    assert list(results("fay")) == [str(later.pk)]
    assert results("fay")[str(later.pk)][0] == "withdrawn"
    assert list(results("ann")) == [str(later.pk), pk]
    assert results("ann")[str(later.pk)][0] == "champion"  # a walkover in the final


def test_a_third_place_on_the_profile(organiser, members) -> None:
    ann, ben, cat, dan, *_ = members
    row = opened(organiser, (ann, ben, cat, dan), rules.BestOf(1))
    row.third_place = True
    row.save(update_fields=["third_place"])
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    for _ in range(2):
        play_round(row)
    assert results("cat")[str(row.pk)][0] == "third"
    assert results("dan")[str(row.pk)] == ("fourth", "fourth")


def test_a_profile_costs_the_same_however_many_competitions(organiser, members) -> None:
    ann, ben, *_ = members
    browser = Client()

    def another() -> None:
        now = timezone.now()
        row = service.open_competition(organiser, "Cup", now, now + timedelta(days=1))
        for m in (ann, ben):
            service.enter(row.pk, m, now)
        service.draw(row.pk, organiser, now, seed=3)

    def grow() -> None:
        for _ in range(3):
            another()

    another()
    same_cost(lambda: browser.get("/players/ann/"), grow, most=18)
