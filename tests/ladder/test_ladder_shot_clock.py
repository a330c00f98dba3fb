"""A ladder match has a shot clock by default (issue 36: no stalling): the ladder's setting,
which is the club's generous one (SNOOKER_RATED_SHOT_CLOCK, 120 s) unless the organisers chose
another; it starts when both players are at the table, the page is told it as for any match
with a clock, and its expiry is the time foul the rules already have (RULES.md §4)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.forms import modelform_factory
from django.utils import timezone

from game import presence as game_presence
from game import service as game_service
from game.models import Match, MatchEvent
from ladder.models import Ladder
from rules.match import match_from_json
from rules.state import opponent
from tests.ladder.helpers import accepted, on_ladder

pytestmark = pytest.mark.django_db


def test_a_new_ladder_has_the_clubs_generous_shot_clock(settings) -> None:
    assert Ladder.objects.create(name="Juniors", slug="juniors").shot_clock == 120
    settings.CLUB = {**settings.CLUB, "RATED_SHOT_CLOCK": 60}
    assert Ladder.objects.create(name="Seniors", slug="seniors").shot_clock == 60
    # The organisers' form offers the club's clocks, and no "none".
    field = modelform_factory(Ladder, fields=["shot_clock"])().fields["shot_clock"]
    assert [value for value, _ in field.choices] == [30, 45, 60, 120]  # type: ignore[attr-defined]


def test_a_ladder_match_runs_the_clock_and_its_expiry_is_the_time_foul(members, main) -> None:
    ann, ben, *_ = members
    assert main.shot_clock == 120
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    assert match.shot_clock == 120 and match.deadline is None
    now = timezone.now()
    game_presence.connect(match.pk, "ann-page", "B", now)
    game_presence.connect(match.pk, "ben-page", "A", now)
    row, snapshot = game_service.snapshot(match.pk)
    assert row.deadline == now + timedelta(seconds=120)
    # What the page reads to show the clock (static/js/panels.js), as for any match with one.
    assert snapshot.shot_clock.seconds == 120 and snapshot.shot_clock.deadline == row.deadline
    striker = match_from_json(row.state).frame.striker
    assert game_service.expire_shot_clock(match.pk, row.version, now + timedelta(seconds=119)) == []
    stored = game_service.expire_shot_clock(match.pk, row.version, now + timedelta(seconds=121))
    assert len(stored) == 1
    foul = MatchEvent.objects.get(match=match, version=stored[0].version)
    assert foul.kind == "shot_clock" and foul.seat == striker
    after = Match.objects.get(pk=match.pk)
    assert match_from_json(after.state).frame.to_act == opponent(striker)  # the other's word
    assert after.status == Match.Status.LIVE


def test_a_ladders_own_clock_is_its_matches(members, main) -> None:
    ann, ben, *_ = members
    main.shot_clock = 45
    main.save()
    on_ladder(main, ann, ben)
    assert accepted(main, ben, ann).shot_clock == 45
