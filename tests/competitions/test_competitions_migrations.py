"""The competitions' migrations match their models (and the ratings' new kind its choices):
makemigrations finds nothing to write."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_makemigrations_finds_nothing_to_write() -> None:
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # SystemExit(1) if any
    assert "No changes detected" in out.getvalue()


def test_a_competition_result_is_a_kind_of_rated_result() -> None:
    from ratings.models import Kind

    assert Kind.COMPETITION == "competition"


@pytest.mark.django_db(transaction=True)
def test_a_knockout_drawn_before_the_options_keeps_its_bracket(members) -> None:
    """competitions.0004 adds the third-place match (off) and the grand final's reset (on) to
    the competitions already there: a knockout drawn before keeps its bracket, with no
    third-place match, and its decisions read as they were."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    from competitions.models import Competition
    from competitions.service import bracket_of
    from rules import bracket as rules

    executor = MigrationExecutor(connection)
    executor.migrate([("competitions", "0003_competition_handicap")])
    old = executor.loader.project_state([("competitions", "0003_competition_handicap")]).apps
    OldCompetition = old.get_model("competitions", "Competition")
    OldEntrant = old.get_model("competitions", "Entrant")
    OldDecision = old.get_model("competitions", "Decision")
    now = timezone.now()
    ann, ben, cat, dan = members[:4]
    row = OldCompetition.objects.create(
        name="Old cup", format="knockout", entry_deadline=now, status="in_play",
        organiser_id=ann.pk, created=now, seed=1, seeded=2, drawn=now,
        slots=[ann.pk, dan.pk, ben.pk, cat.pk],
    )  # fmt: skip
    for seed, m in enumerate((ann, ben, cat, dan), start=1):
        OldEntrant.objects.create(competition=row, member_id=m.pk, entered=now, seed=seed)
    OldDecision.objects.create(competition=row, key="w1.0", winner_id=ann.pk, how="played", at=now)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = Competition.objects.get(pk=row.pk)
    assert (new.third_place, new.reset) == (False, True)
    bracket = bracket_of(new)
    assert rules.THIRD_PLACE not in rules.matches(bracket)
    assert rules.match(bracket, rules.Key.parse("w2.0")).players == (ann.pk, None)
