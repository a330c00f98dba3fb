"""The clocks start when the match does (both players at the table together:
tests/game/test_match_start.py); a practice table is one member on both sides, through the
same consumer and service."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from game import service
from game.models import Match
from game.shotclocks import CLOCKS
from tests.game.helpers import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


async def _match(players, **options):  # type: ignore[no-untyped-def]
    return await database_sync_to_async(service.create_match)(
        players[0], players[1], 3, draw="A", **options
    )


async def _row(match_id: int) -> Match:
    return await database_sync_to_async(Match.objects.get)(pk=match_id)


async def test_the_shot_clock_waits_for_both_players(players) -> None:
    m = await _match(players, shot_clock=30)
    assert m.deadline is None
    alice = Client(m.pk, players[0])
    welcome = await alice.open()
    assert welcome["snapshot"]["shot_clock"] == {"seconds": 30, "deadline": None}
    assert (await _row(m.pk)).deadline is None  # Bob has not come
    bob = Client(m.pk, players[1])
    welcome = await bob.open()
    deadline = (await _row(m.pk)).deadline
    assert deadline is not None
    assert welcome["snapshot"]["shot_clock"]["deadline"] is not None  # read after he came
    clock = await alice.expect("clock")  # Alice's snapshot predates it: she is told
    assert clock["version"] == 1 and clock["deadline"].startswith(deadline.isoformat()[:19])
    # Coming again starts nothing again.
    await bob.close()
    again = Client(m.pk, players[1])
    await again.open(last_version=1)
    assert (await again.expect("clock"))["deadline"] == clock["deadline"]
    assert (await _row(m.pk)).deadline == deadline


async def test_no_stroke_before_the_opponent_comes(players) -> None:
    """Play begins with the match (issue 36): a stroke alone at the table is refused and
    changes nothing; once both are there, the same stroke is played and the clock runs."""
    m = await _match(players, shot_clock=30)
    alice = Client(m.pk, players[0])
    await alice.open()
    await alice.break_off()
    refused = await alice.expect("error")
    assert refused["code"] == "not_started"
    row = await _row(m.pk)
    assert row.version == 1 and row.deadline is None and row.started is None
    bob = Client(m.pk, players[1])
    await bob.open()
    assert (await alice.expect("clock"))["version"] == 1  # Alice's time runs from the start
    await alice.break_off()
    event = await alice.expect("event")
    assert event["version"] == 2 and event["snapshot"]["shot_clock"]["deadline"] is not None


async def test_time_runs_out_only_once_both_are_there(players, set_clock) -> None:
    m = await _match(players, shot_clock=1)
    alice = Client(m.pk, players[0])
    await alice.open()
    await set_clock.advance(1.3)
    # Alone at the table, Alice's time does not run: no deadline, no timer, no foul.
    row = await _row(m.pk)
    assert row.deadline is None and row.version == 1 and not CLOCKS.timers
    bob = Client(m.pk, players[1])
    await bob.open()
    clock = await alice.expect("clock")
    assert clock["deadline"].startswith((set_clock.now() + timedelta(seconds=1)).isoformat()[:19])
    await set_clock.advance(0.9)
    assert (await _row(m.pk)).version == 1  # not yet
    await set_clock.advance(0.2)
    event = await alice.expect("event")
    assert event["kind"] == "shot_clock" and event["seat"] == "A"


async def test_a_practice_table_through_the_consumer(players) -> None:
    alice_user = players[0]
    m = await database_sync_to_async(service.create_match)(
        alice_user, alice_user, 1, draw="A", practice=True
    )
    alice = Client(m.pk, alice_user)
    welcome = await alice.open()
    assert welcome["seat"] == "A" and welcome["players"] == {"A": "alice", "B": "alice"}
    presence = await alice.expect("presence")
    assert all(p["online"] and p["arrived"] for p in presence["players"].values())
    row = await _row(m.pk)
    assert row.arrived_a is not None and row.arrived_b is not None
    watcher = Client(m.pk, address="10.5.0.1")
    await watcher.open()
    await alice.break_off()
    event = await alice.expect("event")
    assert event["seat"] == "A" and event["snapshot"]["scoreboard"]["to_act"] == "B"
    await watcher.expect("event")
    # Now she plays B's side: her aim is relayed as B's, and B's stroke is hers to play.
    await alice.send({"type": "aim", "angle": 1.0, "speed": 2.0})
    aim = await watcher.expect("aim")
    assert aim["seat"] == "B"
    await alice.stroke(angle=1.0, speed=2.0)
    event = await alice.expect("event")
    assert event["kind"] == "stroke" and event["seat"] == "B"
    await watcher.expect("event")
    # Nobody else plays at her table; nobody can be claimed against at it.
    await watcher.stroke()
    assert (await watcher.expect("error"))["code"] == "not_a_player"
    await alice.send({"type": "claim", "client_id": "self", "scope": "match"})
    assert (await alice.expect("error"))["code"] == "not_claimable"


async def test_the_shot_clock_starts_when_the_table_is_still(players) -> None:
    """The time the balls of the last stroke take to stop (and, after a frame, the moment its
    last position is held before the next rack) is not the next striker's to use."""
    from datetime import datetime

    from game.protocol.constants import CUE_LEAD, FRAME_HOLD

    m = await _match(players, shot_clock=30)
    alice, bob = Client(m.pk, players[0]), Client(m.pk, players[1])
    await alice.open()
    await bob.open()
    await alice.break_off()
    event = await alice.expect("event")
    stored = datetime.fromisoformat(event["snapshot"]["shot_clock"]["deadline"])
    sent = (await _row(m.pk)).deadline
    assert sent == stored
    rolling = event["shot"]["duration"]
    assert rolling > 3  # a break: the balls run for seconds
    left = (stored - datetime.now(stored.tzinfo)).total_seconds()
    still = CUE_LEAD + rolling  # the cue's swing to the ball is drawn before the balls move
    assert still + 30 - 2 < left <= still + 30
    await bob.expect("event")
    await bob.send({"type": "concede", "client_id": "c-frame", "scope": "frame"})
    event = await bob.expect("event")
    assert event["frame_end"] is not None and event["shot"] is None
    left = (datetime.fromisoformat(event["snapshot"]["shot_clock"]["deadline"])
            - datetime.now(stored.tzinfo)).total_seconds()  # fmt: skip
    assert FRAME_HOLD + 30 - 2 < left <= FRAME_HOLD + 30
