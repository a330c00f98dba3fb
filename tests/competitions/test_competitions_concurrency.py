"""Two semi-finals ending at the same moment (two threads, two connections) both put their
winners into the final, and the final's fixture is made exactly once: each result's
transaction holds the competition's row lock. On PostgreSQL, as the club runs and CI tests: the
tests' in-memory SQLite refuses a second writer at once rather than make it wait."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from competitions import service
from competitions.models import Competition, Decision, Pairing
from game.models import Match
from rules import bracket as rules
from tests.ladder.helpers import concede, each_plays
from tests.ladder.test_ladder_concurrency import at_once
from tests.needs import missing

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_semi_finals_ending_at_once_both_reach_the_final(members) -> None:
    if connection.vendor != "postgresql":
        missing("needs PostgreSQL (DATABASE_URL=postgres://...)")
    ann, ben, cat, dan, *_ = members
    organiser = get_user_model().objects.create_user("org", password=None, is_staff=True)
    now = timezone.now()
    row = service.open_competition(organiser, "Four", now, now + timedelta(days=1))
    for m in (ann, ben, cat, dan):
        service.enter(row.pk, m, now)
    service.draw(row.pk, organiser, now, seed=1)
    semis = [
        Match.objects.select_related("player_b").get(pk=p.fixture.match_id)
        for p in Pairing.objects.filter(competition=row).select_related("fixture")
    ]
    assert len(semis) == 2
    for m in semis:
        each_plays(m, prefix=f"s{m.pk}-", strokes=10)  # enough play to be rated
    results: list[Any] = at_once(
        *(lambda m=m: concede(m, m.player_b, client_id=f"c{m.pk}") for m in semis)
    )
    assert all(isinstance(r, Match) for r in results), results
    row = Competition.objects.get(pk=row.pk)
    assert Decision.objects.filter(competition=row).count() == 2
    final = Pairing.objects.filter(competition=row, key="w2.0")
    assert final.count() == 1
    players = {final.get().fixture.first_id, final.get().fixture.second_id}
    assert players == {m.player_a_id for m in semis}
    assert [str(m.key) for m in rules.ready(service.bracket_of(row))] == ["w2.0"]
