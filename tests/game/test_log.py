"""The referee's log of a frame from the stored events (the `log` message, docs/protocol.md).

A browser that arrives (or reloads) is sent, after a welcome with a snapshot, the log of the
frame being played; it may ask for an earlier frame's. Each entry is the event as the log
tells it, so the log a newcomer reads is the one a browser built from the live events.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game import logs, service
from game.models import Match, MatchEvent
from rules.match import match_from_json, match_to_json
from rules.state import FrameState, make_balls
from tests.game.helpers import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


def as_entry(event: dict[str, Any]) -> dict[str, Any]:
    """What an entry holds of a live event (the frame not ended by it)."""
    shot = event["shot"]
    return {
        "version": event["version"], "kind": event["kind"], "seat": event["seat"],
        "request": event["request"], "ruling": event["ruling"],
        "shot": {"first_contact": shot["first_contact"], "potted": shot["potted"]}
        if shot else None,
        "scores": event["snapshot"]["scoreboard"]["scores"],
        "break": event["snapshot"]["scoreboard"]["break"],
        "frame_end": event["frame_end"], "match_end": event["match_end"],
    }  # fmt: skip


async def next_log(client: Client) -> dict[str, Any]:
    return await client.expect("log")


async def test_a_newcomer_reads_the_frame_as_it_was_called(match, players) -> None:
    a, b, s = Client(match.pk, players[0]), Client(match.pk, players[1]), Client(match.pk)
    for c in (a, b, s):
        await c.open()
    first = await next_log(s)
    assert first["frame"] == 1 and first["breaker"] == "A" and first["omitted"] == 0
    assert [e["kind"] for e in first["entries"]] == ["start"]
    assert first["entries"][0]["request"] == {"draw": "A", "start": {"A": 0, "B": 0}}
    await a.break_off()
    await b.expect("event")
    await b.stroke(angle=-1.5707963, speed=0.5)  # a foul (as test_live's): A decides
    while (await a.expect("event"))["version"] < 3:  # its own break-off's first
        pass
    await a.send({"type": "choose", "client_id": "a-play", "version": 3, "option": "play"})
    await a.expect("event")
    live = [m for m in s.seen if m["type"] == "event"]
    while len(live) < 3:
        live.append(await s.expect("event"))

    late = Client(match.pk)
    welcome = await late.open()
    assert late.seen[-1] is welcome and welcome["snapshot"]["version"] == 4
    log = await late.recv()  # the log comes straight after the welcome
    assert log["type"] == "log" and log["frame"] == 1
    assert log["entries"][1:] == [as_entry(e) for e in live]
    foul = log["entries"][2]
    assert foul["ruling"]["calls"][0] == f"FOUL {foul['ruling']['penalty']}"
    assert foul["ruling"]["fouls"] and foul["ruling"]["fouls"][0]["clause"].startswith("§23")
    # Up to date after a drop: the missed events, and no log.
    back = Client(match.pk)
    back.version = 4
    assert (await back.open(last_version=4))["snapshot"] is None
    await back.send({"type": "ping", "version": 4})
    assert (await back.expect("pong"))["version"] == 4
    assert not [m for m in back.seen if m["type"] == "log"]


async def test_an_earlier_frame_on_request_to_the_asker_only(match, players) -> None:
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    await a.open()
    await b.open()
    await a.break_off()
    await a.expect("event")
    await a.send({"type": "concede", "client_id": "a-concede", "scope": "frame"})
    ended = await a.expect("event")
    assert ended["frame_end"] == {"termination": "conceded", "winner": "B"}

    s = Client(match.pk)
    await s.open()
    now = await next_log(s)
    assert now == {"type": "log", "frame": 2, "breaker": "B", "entries": [], "omitted": 0}
    await s.send({"type": "log", "frame": 1})
    log = await next_log(s)
    assert [e["kind"] for e in log["entries"]] == ["start", "stroke", "concede"]
    last = log["entries"][-1]
    # The frame's own score, not the next rack's shown by the event's snapshot.
    assert last["scores"] == ended["snapshot"]["frames"][0]["scores"]
    assert last["frame_end"] == ended["frame_end"] and last["break"] == 0
    await b.ws.receive_nothing(timeout=0.3)  # nobody else hears the answer
    for frame, code in ((3, "no_such_frame"), (0, "invalid")):
        await s.send({"type": "log", "frame": frame})
        assert (await s.expect("error"))["code"] == code


async def test_log_requests_are_rate_limited(match, players, settings) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "LOG_BURST": 2, "LOG_PER_SECOND": 0.1}
    s = Client(match.pk)
    await s.open()
    await next_log(s)
    for _ in range(2):
        await s.send({"type": "log", "frame": 1})
        await next_log(s)
    await s.send({"type": "log", "frame": 1})
    assert (await s.expect("error"))["code"] == "rate_limited"


async def test_the_frame_ending_pot_keeps_its_break(match, players) -> None:
    """A's break of 20 ends the frame with the black: the entry says 27 and 57–43."""

    def last_black() -> None:
        row = Match.objects.get(pk=match.pk)
        state = match_from_json(row.state)
        frame = FrameState(
            balls=make_balls({"white": (700.0, 1595.5), "black": (800.0, 1695.5)}),
            striker="A", scores=(50, 43), on="black", brk=20,
        )  # fmt: skip
        row.state = match_to_json(replace(state, frame=frame))
        row.save()
        # The event before the pot shows the break as a visit of 20 would have left it.
        start = MatchEvent.objects.get(match=match, version=1)
        data = json.loads(start.payload)
        data["snapshot"]["scoreboard"]["break"] = 20
        start.payload = json.dumps(data)
        start.save()

    await database_sync_to_async(last_black)()
    a = Client(match.pk, players[0])
    await a.open()
    await a.stroke(angle=math.pi / 4, speed=1.5)  # straight into the top-right pocket
    event = await a.expect("event")
    assert event["frame_end"]["winner"] == "A"
    s = Client(match.pk)
    await s.open()
    await next_log(s)
    await s.send({"type": "log", "frame": 1})
    entry = (await next_log(s))["entries"][-1]
    assert entry["scores"] == {"A": 57, "B": 43} and entry["break"] == 27


async def test_a_long_frame_sends_its_last_entries(match, players, monkeypatch) -> None:
    monkeypatch.setattr(logs, "LOG_ENTRIES", 2)
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    await a.open()
    await b.open()
    await a.break_off()
    await b.expect("event")
    await b.stroke(angle=-1.5707963, speed=0.5)
    while a.version < 3:  # (Alice's own break comes first)
        await a.expect("event")
    s = Client(match.pk)
    await s.open()
    log = await next_log(s)
    assert [e["version"] for e in log["entries"]] == [2, 3] and log["omitted"] == 1


async def test_each_event_knows_its_frame(match, players) -> None:
    a = Client(match.pk, players[0])
    await a.open()
    for scope_id in ("one", "two"):
        await a.send({"type": "concede", "client_id": scope_id, "scope": "frame"})
        await a.expect("event")

    def frames() -> list[tuple[int, int | None]]:
        stored = MatchEvent.objects.filter(match=match).order_by("version")
        return list(stored.values_list("version", "frame"))

    assert await database_sync_to_async(frames)() == [(1, 1), (2, 1), (3, 2)]


def test_the_migration_numbers_the_frames_of_stored_events(players, db) -> None:
    """Migration 0006's backfill, run as the migration runs it."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("game.migrations.0006_event_frame")
    row = service.create_match(players[0], players[1], best_of=3, draw="A")
    payloads = [
        {"version": 2, "ruling": {"frame_over": False}},
        {"version": 3, "ruling": {"frame_over": True}},  # stored before frame_end was kept
        {"version": 4, "frame_end": {"termination": "conceded", "winner": "A"}},
        {"version": 5, "ruling": None},
    ]
    for data in payloads:
        MatchEvent.objects.create(
            match=row, version=data["version"], kind="concede", payload=json.dumps(data)
        )
    MatchEvent.objects.update(frame=None)
    migration.fill_frames(apps, None)
    stored = MatchEvent.objects.filter(match=row).order_by("version")
    assert list(stored.values_list("frame", flat=True)) == [1, 1, 1, 2, 3]
