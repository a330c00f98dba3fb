"""Live matches over the websocket, in one process (in-memory layer): every flow of issue 4."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game import service
from game.greetings import TABLES
from game.models import Connection, Match, MatchEvent
from game.protocol import client_in
from rules.match import match_from_json, match_to_json
from rules.state import FrameState, make_balls
from tests.game.helpers import Client, started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


async def _trio(match, players):  # type: ignore[no-untyped-def]
    a, b, s = Client(match.pk, players[0]), Client(match.pk, players[1]), Client(match.pk)
    for c in (a, b, s):
        await c.open()
    return a, b, s


async def test_welcome_gives_seat_players_and_snapshot(match, players) -> None:
    a, b, s = await _trio(match, players)
    seats = [m for c in (a, b, s) for m in c.seen if m["type"] == "welcome"]
    assert [w["seat"] for w in seats] == ["A", "B", None]
    snap = seats[0]["snapshot"]
    assert seats[0]["players"] == {"A": "alice", "B": "bob"}
    assert snap["version"] == 1 and snap["first_breaker"] == "A"
    assert snap["frame"]["in_hand"] and snap["frame"]["opening"]
    assert snap["scoreboard"]["points_remaining"] == 147
    for c in (a, b, s):
        await c.close()


async def test_the_crowds_path_is_answered_as_the_players_is(match, players) -> None:
    """/ws/watch/ (a page that holds no seat: game/routing.py) only lets a proxy send the
    crowd elsewhere: a player's seat is theirs on it too, a stranger is a spectator, and
    both hear the table."""
    a = Client(match.pk, players[0], path="watch")
    s = Client(match.pk, path="watch")
    b = Client(match.pk, players[1])
    for c in (a, s, b):
        await c.open()
    assert [m["seat"] for c in (a, s) for m in c.seen if m["type"] == "welcome"] == ["A", None]
    client_id = await a.break_off()
    assert (await a.expect("ack"))["client_id"] == client_id
    assert (await s.expect("event"))["kind"] == "stroke"
    for c in (a, b, s):
        await c.close()


async def test_a_stroke_reaches_everyone_with_ruling_and_trajectories(match, players) -> None:
    a, b, s = await _trio(match, players)
    client_id = await a.break_off()
    ack = await a.expect("ack")
    assert ack == {"type": "ack", "client_id": client_id, "version": 2, "duplicate": False}
    events = [await c.expect("event") for c in (a, b, s)]
    assert events[0] == events[1] == events[2]
    event = events[0]
    assert event["kind"] == "stroke" and event["seat"] == "A"
    assert event["ruling"]["foul"] is False and event["shot"]["first_contact"][0].startswith("red")
    assert event["shot"]["trajectories"]["white"]  # closed-form segments, not samples
    assert event["snapshot"]["scoreboard"]["to_act"] == "B"
    assert len(json.dumps(event)) < 40_000
    stored = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.version == 2
    for c in (a, b, s):
        await c.close()


async def test_out_of_turn_and_spectator_strokes_are_refused(match, players) -> None:
    a, b, s = await _trio(match, players)
    cid = await b.break_off()
    assert (await b.expect("error"))["code"] == "not_your_turn"
    cid = await s.break_off()
    error = await s.expect("error")
    assert error["code"] == "not_a_player" and error["client_id"] == cid
    await a.send({"type": "choose", "client_id": "x1", "version": 1, "option": "play"})
    assert (await a.expect("error"))["code"] == "no_choice_pending"
    await a.stroke(cue_ball=[0, 0])  # outside the D
    assert (await a.expect("error"))["code"] == "cue_ball_outside_d"
    await a.stroke(version=0, cue_ball=[150, -1150])
    assert (await a.expect("error"))["code"] == "stale_version"
    stored = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.version == 1
    for c in (a, b, s):
        await c.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{nope", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "stroke", "client_id": "a", "version": 1, "angle": 0, "speed": 99}', "invalid"),
        ('{"type": "stroke", "client_id": "a", "version": 1, "angle": 0, "speed": 1, "x": 1}',
         "invalid"),
        ('{"type": "ping", "version": -1}', "invalid"),
        ('{"type": "ping", "version": 1, "pad": "' + "x" * 9000 + '"}', "too_large"),
    ],
)  # fmt: skip
async def test_bad_input_is_answered_and_changes_nothing(match, players, raw, code) -> None:
    a = Client(match.pk, players[0])
    await a.open()
    await a.ws.send_to(text_data=raw)
    assert (await a.expect("error"))["code"] == code
    await a.send({"type": "ping", "version": 1})
    assert (await a.expect("pong"))["version"] == 1  # the socket lives on
    await a.close()


async def test_hello_comes_first_and_speaks_our_protocol(match, players) -> None:
    a = Client(match.pk, players[0])
    await a.ws.connect()
    await a.send({"type": "ping", "version": 0})
    assert (await a.expect("error"))["code"] == "hello_first"
    await a.send({"type": "hello", "protocol": 99})
    assert (await a.expect("error"))["code"] == "protocol"
    await a.close()


async def test_unknown_match_closes_with_not_found(players, db) -> None:
    a = Client(999, players[0])
    connected, code = await a.ws.connect()
    assert not connected and code == 4404


async def test_a_repeated_client_id_never_plays_twice(match, players) -> None:
    a, b, _ = await _trio(match, players)
    cid = await a.break_off()
    first = await a.expect("ack")
    await a.expect("event")
    a.version = 1  # the retry carries the version the first attempt was made at
    await a.break_off(client_id=cid)
    again = await a.expect("ack")
    assert again["version"] == first["version"] and again["duplicate"] is True
    # The same id for another request is refused, not taken for a retry.
    await a.stroke(client_id=cid, angle=0.1, speed=8, cue_ball=[150, -1150])
    error = await a.expect("error")
    assert error["code"] == "client_id_reused" and error["client_id"] == cid
    assert await database_sync_to_async(MatchEvent.objects.filter(match=match).count)() == 2
    await a.close()
    await b.close()


async def test_foul_choice_and_rebreak(match, players) -> None:
    """An opening stroke that hits nothing: B chooses; only B may, and rebreak re-racks."""
    a, b, s = await _trio(match, players)
    await a.stroke(angle=-1.5707963, speed=1.0, cue_ball=[150, -1150])  # towards the baulk cushion
    await a.expect("event")
    event = await s.expect("event")
    assert event["ruling"]["foul"] and event["ruling"]["penalty"] == 4
    assert sorted(event["ruling"]["choices"]) == ["play", "rebreak"]
    assert event["snapshot"]["scoreboard"]["to_act"] == "B"
    await a.send({"type": "choose", "client_id": "a-choice", "version": 2, "option": "play"})
    assert (await a.expect("error"))["code"] == "not_your_choice"
    await b.expect("event")
    await b.send({"type": "choose", "client_id": "b-choice", "version": 2, "option": "rebreak"})
    await b.expect("ack")
    event = await s.expect("event")
    frame = event["snapshot"]["frame"]
    assert event["kind"] == "choice" and frame["opening"] and frame["in_hand"]
    assert frame["striker"] == "A" and frame["scores"] == {"A": 0, "B": 4}
    for c in (a, b, s):
        await c.close()


async def test_reconnect_receives_exactly_what_it_missed(match, players) -> None:
    a, b, s = await _trio(match, players)
    await s.close()
    await a.break_off()
    await b.expect("event")
    await b.stroke(angle=-1.5707963, speed=0.5)  # B misses everything from where it lies
    await b.expect("event")
    back = Client(match.pk)
    back.version = 1
    welcome = await back.open(last_version=1)
    assert welcome["snapshot"] is None
    missed = [await back.expect("event"), await back.expect("event")]
    assert [e["version"] for e in missed] == [2, 3]
    fresh = Client(match.pk)
    welcome = await fresh.open(last_version=None)
    assert welcome["snapshot"]["version"] == 3
    for c in (a, b, back, fresh):
        await c.close()


async def test_an_event_stored_while_a_socket_is_greeted_follows_what_it_missed(
    match, players, monkeypatch
) -> None:
    """The welcome reads the table, then the events after the socket's last version: one stored
    between the two reads is sent after them, as every event is, never turned into a snapshot
    (a page animates events; a snapshot would skip the shots it missed)."""
    a, b, _ = await _trio(match, players)
    await a.break_off()
    for c in (a, b):
        await c.expect("event")
    between = service.events_between
    concession = client_in.Concede(type="concede", client_id="b-concede", scope="frame")

    def stored_meanwhile(*args: Any) -> Any:
        # The table was read at v2; B's concession is stored (and told) before its events are.
        service.submit(match.pk, players[1], concession)
        return between(*args)

    monkeypatch.setattr(service, "events_between", stored_meanwhile)
    TABLES.forget(match.pk)  # what this process heard: read from the database
    back = Client(match.pk)
    back.version = 1
    assert (await back.open(last_version=1))["snapshot"] is None
    assert [(await back.expect("event"))["version"] for _ in range(2)] == [2, 3]
    for c in (a, b, back):
        await c.close()


async def test_events_replay_to_the_snapshot_and_strokes_rebuild_the_match(match, players) -> None:
    a, b, _ = await _trio(match, players)
    await a.break_off()
    await a.expect("event")
    await b.expect("event")
    await b.stroke(angle=-1.5707963, speed=0.5)  # B hits nothing: a foul, A decides
    assert (await a.expect("event"))["ruling"]["foul"]
    await a.send({"type": "choose", "client_id": "a-play", "version": 3, "option": "put_back"})
    assert (await a.expect("event"))["kind"] == "choice"
    await a.send({"type": "concede", "client_id": "a-concede", "scope": "frame"})
    assert (await a.expect("event"))["kind"] == "concede"

    def check() -> None:
        stored = MatchEvent.objects.filter(match=match).order_by("version")
        events = [json.loads(e.payload) for e in stored]
        snapshot = events[0]["snapshot"]
        for event in events[1:]:
            assert event["version"] == snapshot["version"] + 1
            snapshot = event["snapshot"]
        _, current = service.snapshot(match.pk)
        assert snapshot == current.model_dump(mode="json", by_alias=True)
        stored = match_from_json(Match.objects.get(pk=match.pk).state)
        assert service.rebuild(match.pk) == stored
        assert len(stored.frames) == 1 and stored.frames[0].winner == "B"

    await database_sync_to_async(check)()
    await a.close()
    await b.close()


async def test_aim_is_relayed_to_others_only(match, players) -> None:
    a, b, s = await _trio(match, players)
    await a.send({"type": "aim", "angle": 1.0, "speed": 4.0, "cue_ball": [150, -1150]})
    for c in (b, s):
        aim = await c.expect("aim")
        assert aim["seat"] == "A" and aim["angle"] == 1.0
    await s.send({"type": "aim", "angle": 1.0, "speed": 4.0})
    assert (await s.expect("error"))["code"] == "not_a_player"
    for c in (a, b, s):
        await c.close()


async def test_a_flood_is_refused_then_closed_and_the_match_goes_on(
    match, players, settings, set_clock
) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "RATE_BURST": 5, "RATE_PER_SECOND": 0.01,
                        "FLOOD_CLOSE_AFTER": 0.5}  # fmt: skip
    a, b, _ = await _trio(match, players)
    answers: list[dict[str, Any]] = []
    closed = None
    for _ in range(60):  # a steady flood for about 0.6 s, answered once, then closed
        await b.send({"type": "ping", "version": 1})
        await set_clock.advance(0.01)
        while not b.ws.output_queue.empty():
            message = await b.ws.receive_output()
            if message["type"] == "websocket.close":
                closed = message.get("code")
                break
            answers.append(json.loads(message["text"]))
        if closed:
            break
    assert closed == 4008
    refusals = [m for m in answers if m["type"] == "error"]
    assert [m["code"] for m in refusals] == ["rate_limited"]
    await a.break_off()
    assert (await a.expect("ack"))["version"] == 2  # the match goes on
    await a.close()


async def test_claim_after_the_grace_only(players, db) -> None:
    patient = await database_sync_to_async(service.create_match)(
        players[0], players[1], 3, draw="A", reconnect_grace=60
    )
    quick = await database_sync_to_async(service.create_match)(
        players[0], players[1], 3, draw="A", reconnect_grace=0
    )
    for m, code in ((patient, "not_claimable"), (quick, None)):
        a, b = Client(m.pk, players[0]), Client(m.pk, players[1])
        await a.open()
        await b.open()
        await b.close()
        presence = await a.expect("presence")
        while presence["players"]["B"]["online"]:
            presence = await a.expect("presence")
        assert presence["players"]["B"]["claim_from"] is not None
        await a.send({"type": "claim", "client_id": "claim", "scope": "match"})
        if code:
            assert (await a.expect("error"))["code"] == code
        else:
            event = await a.expect("event")
            assert event["kind"] == "claim" and event["snapshot"]["winner"] == "A"
            assert event["snapshot"]["status"] == "finished"
        await a.close()


async def test_shot_clock_runs_out_into_a_foul(players, db, set_clock) -> None:
    m = await database_sync_to_async(service.create_match)(
        players[0], players[1], 1, draw="A", shot_clock=1
    )
    a, b = Client(m.pk, players[0]), Client(m.pk, players[1])
    await a.open()
    await b.open()
    await set_clock.advance(1.1)  # the timer fired and its foul is stored
    event = await b.expect("event")
    assert event["kind"] == "shot_clock" and event["ruling"]["foul"]
    assert event["ruling"]["penalty"] == 4 and event["snapshot"]["frame"]["scores"]["B"] == 4
    # Every timer due has fired and done its work (`advance`): one foul, however many sockets.
    assert await database_sync_to_async(MatchEvent.objects.filter(match=m).count)() == 2
    await a.close()
    await b.close()


async def test_spectators_counted_in_presence(match, players, settings) -> None:
    settings.SNOOKER = {**settings.SNOOKER, "HEARTBEAT": 0.4}  # counts come with the beat
    a = Client(match.pk, players[0])
    await a.open()
    viewers = [Client(match.pk) for _ in range(3)]
    for v in viewers:
        await v.open()
    presence = await a.expect("presence")
    while presence["spectators"] < 3:
        presence = await a.expect("presence")
    assert presence["players"]["A"]["online"] and not presence["players"]["B"]["online"]
    for c in (a, *viewers):
        await c.close()


async def test_the_last_aim_always_reaches_the_watchers(match, players) -> None:
    a, b, s = await _trio(match, players)
    for i in range(5):  # faster than the relay allows
        await a.send({"type": "aim", "angle": 0.1 * i, "speed": 2.0})
    angles = []
    while not angles or angles[-1] != 0.4:
        angles.append((await s.expect("aim"))["angle"])
    assert angles[0] == 0.0 and len(angles) < 5  # throttled, but ends on the final aim
    for c in (a, b, s):
        await c.close()


async def test_level_frame_brings_the_toss_for_the_respotted_black(match, players) -> None:
    """A pots the last black to level the frame: the server's draw follows as its own event."""

    def lone_black() -> None:
        row = Match.objects.get(pk=match.pk)
        state = match_from_json(row.state)
        frame = FrameState(
            balls=make_balls({"white": (700.0, 1595.5), "black": (800.0, 1695.5)}),
            striker="A", scores=(43, 50), on="black",
        )  # fmt: skip
        row.state = match_to_json(replace(state, frame=frame))
        row.save()

    await database_sync_to_async(lone_black)()
    a, b, s = await _trio(match, players)
    await a.stroke(angle=math.pi / 4, speed=1.5)  # straight into the top-right pocket
    stroke, toss = await s.expect("event"), await s.expect("event")
    assert stroke["shot"]["potted"] == ["black"] and stroke["ruling"]["respotted_black"]
    assert toss["kind"] == "toss" and toss["seat"] is None
    winner = toss["request"]["winner"]
    frame = toss["snapshot"]["frame"]
    assert frame["pending"] == {
        "holder": winner, "options": ["play", "pass"], "offender": None, "restore": None,
    }  # fmt: skip
    assert frame["scores"] == {"A": 50, "B": 50} and frame["in_hand"]
    assert frame["balls"] == {"black": [0.0, 1460.5]}
    chooser = a if winner == "A" else b
    await chooser.send({"type": "choose", "client_id": "pass", "version": 3, "option": "pass"})
    event = await s.expect("event")
    assert event["snapshot"]["scoreboard"]["to_act"] == ("B" if winner == "A" else "A")
    for c in (a, b, s):
        await c.close()


async def test_a_player_lost_with_a_dead_process_turns_absent(
    match, players, settings, set_clock
) -> None:
    """No socket closed to say so: the heartbeat notices the silent row and tells everyone."""
    settings.SNOOKER = {
        **settings.SNOOKER, "HEARTBEAT": 0.2, "CONNECTION_STALE": 1.0, "AWAY_NOTICE": 0.5
    }  # fmt: skip

    def dead_process_socket() -> None:  # Bob's socket on a process that was killed
        Match.objects.filter(pk=match.pk).update(arrived_b=set_clock.now())
        Connection.objects.create(
            match=match, channel_name="dead!1", seat="B", last_seen=set_clock.now()
        )

    await database_sync_to_async(dead_process_socket)()
    a = Client(match.pk, players[0])
    await a.open()
    await set_clock.advance(settings.SNOOKER["PRESENCE_COALESCE"])
    presence = await a.expect("presence")
    assert presence["players"]["B"]["online"]
    # Silent for the stale time (1.0 s), then seen by the next look (every half beat), and told
    # (its away notice counts from the last sign of life, so it is over by then).
    for _ in range(20):
        await set_clock.advance(0.1)
    while presence["players"]["B"]["online"]:
        presence = await a.expect("presence")
    assert presence["players"]["B"]["claim_from"] is not None
    # The sweep took the dead row away and kept Bob's absence from its last sign of life (a
    # claim counts it from the sweep).
    assert not await database_sync_to_async(Connection.objects.filter(seat="B").exists)()
    await a.close()


async def _next_presence(client: Client, set_clock: Any) -> dict[str, Any]:
    """The next presence `client` is told, moving the set clock on until it comes."""
    for _ in range(100):
        while not await client.ws.receive_nothing(timeout=0.02):
            message = await client.recv()
            if message["type"] == "presence":
                return message
        await set_clock.advance(0.05)
    raise AssertionError("no presence told in 5 s of the set clock")


async def test_a_reload_does_not_read_as_leaving(match, players, settings, set_clock) -> None:
    """A player's socket closed and another opened within the away notice (a reload): the
    opponent is never told they went. One who stays away is told, once the notice is over."""
    notice = 0.6
    settings.SNOOKER = {**settings.SNOOKER, "AWAY_NOTICE": notice, "PRESENCE_COALESCE": 0.05}
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    await a.open()
    await b.open()
    presence = await _next_presence(a, set_clock)
    while not presence["players"]["B"]["online"]:
        presence = await _next_presence(a, set_clock)
    told = len(a.seen)
    await b.close()
    await set_clock.advance(0.3)  # the page reloading: longer than presence is coalesced
    again = Client(match.pk, players[1])  # the reloaded page
    await again.open()
    await again.expect("presence")  # the last one told, sent to a newcomer at once
    for _ in range(9):  # past the notice, a step at a time
        await set_clock.advance(0.1)
    while not await a.ws.receive_nothing(timeout=0.05):
        await a.recv()
    presences = [m for m in a.seen[told:] if m["type"] == "presence"]
    assert all(p["players"]["B"]["online"] for p in presences), presences
    await again.close()
    gone = set_clock.monotonic()
    presence = await _next_presence(a, set_clock)
    while presence["players"]["B"]["online"]:
        presence = await _next_presence(a, set_clock)
    assert set_clock.monotonic() - gone >= notice - 0.05
    assert presence["players"]["B"]["away_since"] is not None
    await a.close()


async def test_a_handicapped_match_shows_its_start_from_the_first_frame(players) -> None:
    """RULES.md §10: Bob starts every frame 28 up; everyone sees it in the welcome, the start
    event and every snapshot after; the next frame begins at it again, and the stored
    commands rebuild the match with it."""
    made = await database_sync_to_async(service.create_match)(
        players[0], players[1], best_of=3, draw="A", start=(0, 28)
    )
    match = await database_sync_to_async(started)(made)
    a, b, s = await _trio(match, players)
    for c in (a, b, s):
        welcome = next(m for m in c.seen if m["type"] == "welcome")
        board = welcome["snapshot"]["scoreboard"]
        assert board["start"] == {"A": 0, "B": 28} and board["scores"] == {"A": 0, "B": 28}
        assert welcome["snapshot"]["frame"]["scores"] == {"A": 0, "B": 28}
        assert board["frame_number"] == 1 and board["break"] == 0
    await a.break_off()
    event = await b.expect("event")
    assert event["snapshot"]["scoreboard"]["start"] == {"A": 0, "B": 28}
    assert event["snapshot"]["scoreboard"]["scores"]["B"] == 28
    await a.expect("event")
    await s.expect("event")
    await b.send({"type": "concede", "client_id": "b-concede", "scope": "frame"})
    event = await s.expect("event")
    assert event["kind"] == "concede" and event["frame_end"]["winner"] == "A"
    assert event["snapshot"]["frames"][0]["scores"]["B"] == 28  # the record keeps the start
    board = event["snapshot"]["scoreboard"]
    assert board["frame_number"] == 2 and board["scores"] == {"A": 0, "B": 28}

    def check() -> None:
        first = MatchEvent.objects.get(match=match, version=1)
        assert first.command == {"draw": "A", "start": {"A": 0, "B": 28}}
        assert json.loads(first.payload)["request"]["start"] == {"A": 0, "B": 28}
        stored = match_from_json(Match.objects.get(pk=match.pk).state)
        assert stored.start == (0, 28)
        assert service.rebuild(match.pk) == stored

    await database_sync_to_async(check)()
    for c in (a, b, s):
        await c.close()
