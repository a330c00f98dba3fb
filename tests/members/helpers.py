"""Matches stored through the service's own storage path, from the golden matches."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from game import service
from game.models import Match
from rules import match as rules_match
from tests.rules.stats_golden import golden


def store(name: str, player_a: Any, player_b: Any) -> Match:
    """A golden match (tests/rules/golden) as the service stores a match: each command applied
    with the rules core and stored as the event the players were sent (`service._store`, as
    `submit` does after its checks), the figures written when the last one ends it."""
    start, played = golden(name)
    assert start == rules_match.new_match(start.best_of, start.first_breaker), "from the rack"
    row = service.create_match(player_a, player_b, start.best_of, draw=start.first_breaker)
    state = start
    with transaction.atomic():
        row = Match.objects.select_for_update().get(pk=row.pk)
        for seat, command in played:
            state, outcome = rules_match.apply(state, seat, command)
            service._store(row, seat, command, state, outcome)
    row.refresh_from_db()
    return row
