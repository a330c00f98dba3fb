"""Events stored before commands were kept still replay after the migration."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from game import service
from game.models import Match, MatchEvent
from rules import match as rules_match
from rules.commands import Concede, Stroke
from rules.match import match_from_json
from rules.outcome import Termination

BEFORE = [("game", "0002_event_text")]


def _old_state(match: rules_match.Match) -> dict[str, object]:
    """The stored form as it was: no terminations."""
    state = rules_match.match_to_json(match)
    del state["termination"]
    for frame in state["frames"]:
        del frame["termination"]
    return state


@pytest.mark.django_db(transaction=True)
def test_old_events_gain_seat_and_command_and_replay_to_the_stored_state(players) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldMatch, OldEvent = old.get_model("game", "Match"), old.get_model("game", "MatchEvent")

    stroke = Stroke(angle=1.5707963267948966, speed=6.0, cue_ball=(-100.0, -1150.0))
    steps = [("A", stroke, "stroke"), ("B", Concede("frame"), "concede")]
    state = rules_match.new_match(3, "A")
    states = [state]
    for seat, command, _ in steps:
        state, _ = rules_match.apply(state, seat, command)  # type: ignore[arg-type]
        states.append(state)
    started = timezone.now() - timedelta(seconds=5)
    row = OldMatch.objects.create(
        player_a_id=players[0].pk, player_b_id=players[1].pk, best_of=3, shot_clock=30,
        version=3, state=_old_state(state), turn_started=started,
    )  # fmt: skip
    OldEvent.objects.create(
        match=row, version=1, kind="start", request={},
        payload=json.dumps({"seat": None, "request": {"draw": "A"}}),
    )  # fmt: skip
    requests = [
        {"version": 1, "angle": stroke.angle, "speed": 6.0, "side": 0.0, "height": 0.0,
         "nominated": None, "cue_ball": [-100.0, -1150.0]},
        {"scope": "frame"},
    ]  # fmt: skip
    for version, ((seat, _, kind), request) in enumerate(zip(steps, requests, strict=True), 2):
        OldEvent.objects.create(
            match=row, version=version, kind=kind, request=request,
            payload=json.dumps({"seat": seat, "request": request}),
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    events = MatchEvent.objects.filter(match_id=row.pk).order_by("version")
    assert [(e.seat, e.command) for e in events] == [
        ("", {"draw": "A"}),
        ("A", {"angle": stroke.angle, "speed": 6.0, "side": 0.0, "height": 0.0,
               "nominated": None, "cue_ball": [-100.0, -1150.0]}),
        ("B", {"scope": "frame"}),
    ]  # fmt: skip
    migrated = Match.objects.get(pk=row.pk)
    stored = match_from_json(migrated.state)
    assert stored.frames[0].termination == Termination.CONCEDED
    assert service.rebuild(row.pk) == stored == state
    assert migrated.deadline == started + timedelta(seconds=30)


@pytest.mark.django_db(transaction=True)
def test_matches_from_before_the_start_was_kept_are_started_if_both_had_come(players) -> None:
    """0007: a match both players had come to started when the later came (as its shot clock
    did); a practice table when it was made; one only one player came to has not started."""
    before = [("game", "0006_event_frame")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    OldMatch = executor.loader.project_state(before).apps.get_model("game", "Match")
    alice, bob = players[0].pk, players[1].pk
    t0 = timezone.now() - timedelta(hours=1)
    state = rules_match.match_to_json(rules_match.new_match(3, "A"))

    def made(**fields):  # type: ignore[no-untyped-def]
        return OldMatch.objects.create(
            player_a_id=alice, player_b_id=fields.pop("b", bob), best_of=3, version=1,
            state=state, **fields,
        ).pk  # fmt: skip

    both = made(arrived_a=t0, arrived_b=t0 + timedelta(seconds=40))
    one = made(arrived_a=t0)
    practice = made(b=alice, practice=True, arrived_a=t0, arrived_b=t0)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    started = dict(Match.objects.values_list("pk", "started"))
    assert started[both] == t0 + timedelta(seconds=40)
    assert started[one] is None
    assert started[practice] == Match.objects.get(pk=practice).created
