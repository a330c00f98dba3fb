"""No engine help while it matters (computer/fairplay.py, issue 36): the attack of replaying a
live match's strokes at a practice table and asking for the Pro's stroke is refused, through
the real service and view; so is any hint for a member playing a live match."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from club.service import practise
from computer import driver
from computer.service import play_computer
from game import service
from game.models import Match
from game.protocol import client_in
from rules.match import match_from_json
from rules.positions import TOLERANCE_MM, key, position_of
from tests.computer.test_computer import seats
from tests.game.helpers import BREAK_AT, BREAK_CUE, started

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def thinking_in_a_thread():  # type: ignore[no-untyped-def]
    driver.use_pool(ThreadPoolExecutor(max_workers=1))
    yield
    driver.use_pool(None)


def member(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(name, password="pw")


def page_of(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


# The strokes of the live match, as any spectator's page receives them in its events.
ANGLE = math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0])
STROKES = [
    {"angle": ANGLE, "speed": 8.0, "cue_ball": BREAK_CUE},  # the break-off
    {"angle": -1.2, "speed": 1.5},  # the reply, from where the cue ball stopped
]


def play(match: Match, by, strokes) -> Match:  # type: ignore[no-untyped-def]
    """Play `strokes` at `match` through the service (each by the seat to act)."""
    for fields in strokes:
        row = Match.objects.get(pk=match.pk)
        to_act = match_from_json(row.state).frame.to_act
        user = by[to_act] if isinstance(by, dict) else by
        stroke = client_in.Stroke(
            type="stroke", client_id=f"s{match.pk}-{row.version}", version=row.version, **fields
        )
        service.submit(match.pk, user, stroke)
    return Match.objects.get(pk=match.pk)


def live_match():  # type: ignore[no-untyped-def]
    """Bob and Carol's live, rated match after two strokes."""
    bob, carol = member("bob"), member("carol")
    match = started(service.create_match(bob, carol, 3, draw="A", rated=True))
    return play(match, {"A": bob, "B": carol}, STROKES), bob, carol


def test_replaying_a_live_match_at_a_practice_table_gets_no_hint() -> None:
    """The attack: a spectator replays the live match's commands at their own practice table,
    reaching exactly its position, and asks for the Pro's stroke: refused."""
    live, _, _ = live_match()
    alice = member("alice")
    table = play(practise(alice, 1), alice, STROKES)
    copy = match_from_json(table.state).frame
    assert copy.balls == match_from_json(live.state).frame.balls  # the very position
    # The live match is filed under its position; the practice table is not.
    assert live.position == key(position_of(copy)) and table.position is None  # type: ignore[arg-type]
    refused = page_of(alice).post(f"/computer/hint/{table.pk}/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "live_position"
    assert "live match" in refused.json()["message"]
    # In Russian too.
    russian = page_of(alice).post(f"/computer/hint/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.json()["code"] == "live_position"
    assert "идущем матче" in russian.json()["message"]


def test_a_position_nudged_beyond_the_tolerance_gets_its_hint() -> None:
    live_match()  # Bob and Carol play on
    alice = member("alice")
    table = play(practise(alice, 1), alice, STROKES)
    state = table.state
    x, y = state["frame"]["balls"]["black"]
    # Within the tolerance, still the live match's position...
    state["frame"]["balls"]["black"] = [x + TOLERANCE_MM - 1, y]
    Match.objects.filter(pk=table.pk).update(state=state)
    assert page_of(alice).post(f"/computer/hint/{table.pk}/").json()["code"] == "live_position"
    # ...beyond it, another position: the hint is given.
    state["frame"]["balls"]["black"] = [x + TOLERANCE_MM + 1, y]
    Match.objects.filter(pk=table.pk).update(state=state)
    response = page_of(alice).post(f"/computer/hint/{table.pk}/")
    assert response.status_code == 200 and response.json()["aim"]["speed"] > 0


def test_a_finished_matchs_position_gets_its_hint() -> None:
    live, bob, _ = live_match()
    alice = member("alice")
    table = play(practise(alice, 1), alice, STROKES)
    assert page_of(alice).post(f"/computer/hint/{table.pk}/").status_code == 403
    service.submit(live.pk, bob, client_in.Concede(type="concede", client_id="gg", scope="match"))
    ended = Match.objects.get(pk=live.pk)
    assert ended.status == Match.Status.FINISHED and ended.position is None  # out of the index
    assert page_of(alice).post(f"/computer/hint/{table.pk}/").status_code == 200


def test_a_member_playing_a_live_match_gets_no_hint_anywhere() -> None:
    seats()
    alice, bob = member("alice"), member("bob")
    table = practise(alice, 1)
    assert page_of(alice).post(f"/computer/hint/{table.pk}/").status_code == 200
    # A friendly with Bob, not even started: no hint at her own practice table.
    friendly = service.create_match(bob, alice, 1)
    refused = page_of(alice).post(f"/computer/hint/{table.pk}/")
    assert refused.status_code == 403 and refused.json()["code"] == "playing"
    assert "playing a match" in refused.json()["message"]
    # Over (abandoned), the hint comes back...
    Match.objects.filter(pk=friendly.pk).update(status=Match.Status.ABANDONED)
    assert page_of(alice).post(f"/computer/hint/{table.pk}/").status_code == 200
    # ...and a match against the computer is a match too.
    play_computer(alice, "novice", 1)
    assert page_of(alice).post(f"/computer/hint/{table.pk}/").json()["code"] == "playing"
    # Bob, a spectator of nothing, gets his at his own table.
    mine = practise(bob, 1)
    assert page_of(bob).post(f"/computer/hint/{mine.pk}/").status_code == 200


def test_the_index_follows_every_stroke_and_leaves_with_the_match() -> None:
    """Each stored version files the match under its position (in the stroke's own write),
    so every process's hint sees it; a frame's opening is filed under nothing."""
    bob, carol = member("bob"), member("carol")
    match = started(service.create_match(bob, carol, 1, draw="A"))
    assert match.position is None  # the opening: every frame's, nobody's secret
    row = play(match, {"A": bob, "B": carol}, STROKES[:1])
    assert row.position == key(position_of(match_from_json(row.state).frame))  # type: ignore[arg-type]
    moved = play(row, {"A": bob, "B": carol}, [dict(STROKES[1])])
    assert moved.position is not None and moved.position != row.position
    assert list(Match.objects.filter(position=row.position)) == []  # the old entry is gone
