"""The position editor (docs/coach.md, "The position editor"): a member's position placed by
hand, checked by the referee when saved (club/positions.py), refused with a worded code and
never a 500, shared by its address for anyone to see and any member to play, alone or against
the computer, through the one way to a table set up at a position (snooker_site/views.py
`table_at`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from club import positions
from club.models import Position
from club.service import visitor_guest
from game import service
from game.models import Match
from rules.match import match_from_json
from rules.table import BALL_DIAMETER, SPOTS
from tests.computer.test_analysis_queue import _finished
from tests.computer.test_computer import seats

pytestmark = pytest.mark.django_db(transaction=True)

GOOD: dict[str, Any] = {
    "balls": {"white": [0.0, -1000.0], "red1": [100.0, 900.0], "black": list(SPOTS["black"])},
    "striker": "B", "scores": {"A": 20, "B": 34}, "on": "red", "in_hand": False,
}  # fmt: skip


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    seats()  # the computer's users, whatever an earlier test's flush took away
    users = get_user_model().objects
    return users.create_user("alice", password="pw"), users.create_user("bob", password="pw")


def _save(web: Client, name: object, position: object, raw: str | None = None):  # type: ignore[no-untyped-def]
    body = raw if raw is not None else json.dumps({"name": name, "position": position})
    return web.post("/practice/position/save/", body, content_type="application/json")


def test_a_position_saved_shared_and_played_alone_or_against_the_computer(players) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players
    web = Client()
    assert web.get("/practice/position/").status_code == 302  # members only: to log in
    web.force_login(alice)
    page = web.get("/practice/position/")
    assert page.status_code == 200 and 'data-testid="editor-table"' in page.content.decode()
    answer = _save(web, "  Long  red ", GOOD)
    assert answer.status_code == 201, answer.content
    saved = Position.objects.get()
    assert answer.json() == {"id": saved.pk, "url": f"/practice/position/{saved.pk}/",
                             "name": "Long red"}  # fmt: skip
    assert saved.owner == alice and saved.state["striker"] == "B"
    assert "Long red" in web.get("/practice/position/").content.decode()  # her list
    # Anyone sees it; a visitor is offered no table.
    shown = Client().get(f"/practice/position/{saved.pk}/").content.decode()
    assert "Long red" in shown and 'data-testid="play-position"' not in shown
    # Bob plays it alone: a practice table at the position, B to play.
    other = Client()
    other.force_login(bob)
    assert (
        'data-testid="play-position"'
        in other.get(f"/practice/position/{saved.pk}/").content.decode()
    )
    played = other.post(f"/practice/position/{saved.pk}/play/", {"opponent": "alone"})
    table = Match.objects.get(practice=True)
    assert played.status_code == 302 and played["Location"] == f"/match/{table.pk}/"
    frame = match_from_json(table.state).frame
    assert table.player_a == bob and frame.striker == "B" and frame.scores == (20, 34)
    assert frame.ball_map() == {b: tuple(p) for b, p in GOOD["balls"].items()}
    assert service.rebuild(table.pk) == match_from_json(table.state)
    # Against the computer he strikes, in seat A: the seats turned round.
    other.post(f"/practice/position/{saved.pk}/play/", {"opponent": "novice"})
    versus = Match.objects.exclude(pk=table.pk).get()
    turned = match_from_json(versus.state).frame
    assert versus.player_a == bob and turned.striker == "A" and turned.scores == (34, 20)
    assert other.post(f"/practice/position/{saved.pk}/play/", {"opponent": "x"}).status_code == 400
    # A copy opens in the editor; only the owner deletes.
    copy = other.get(f"/practice/position/?position={saved.pk}").content.decode()
    assert "Long red" in copy and '"red1"' in copy
    assert other.post(f"/practice/position/{saved.pk}/delete/").status_code == 404
    assert web.post(f"/practice/position/{saved.pk}/delete/").status_code == 302
    assert not Position.objects.exists()
    assert Client().get(f"/practice/position/{saved.pk}/").status_code == 404


def test_the_editor_starts_from_a_finished_replay_position_only(players) -> None:  # type: ignore[no-untyped-def]
    web = Client()
    web.force_login(players[0])
    match = _finished(players)
    replay = web.get(f"/match/{match.pk}/replay/").content.decode()
    assert 'data-testid="edit-position"' in replay  # beside "Play from here"
    before = service.position_before(match.pk, 3)
    page = web.get(f"/practice/position/?from={match.pk}&version=3").content.decode()
    start = json.loads(
        page.split('id="editor-data" type="application/json">')[1].split("</script>")[0]
    )
    assert start["start"] == before.to_json()
    refused = web.get(f"/practice/position/?from={match.pk}&version=99")
    assert refused.status_code == 409 and 'data-code="no_stroke_here"' in refused.content.decode()
    live = service.create_match(players[0], players[1], 3, draw="A")
    assert web.get(f"/practice/position/?from={live.pk}&version=2").status_code == 404
    assert web.get("/practice/position/?from=x&version=2").status_code == 404
    assert web.get("/practice/position/?position=999").status_code == 404


def _with(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


REFUSED = [
    ("not json", None, None, "{", "bad_payload"),
    ("a list", "p", [1, 2], None, "bad_payload"),
    ("no balls", "p", {"on": "red"}, None, "bad_payload"),
    ("a field the editor never sends", "p", _with(pending={"options": []}), None, "bad_payload"),
    ("a string for a ball", "p", _with(balls={"white": "here"}), None, "bad_payload"),
    ("an unknown ball", "p", _with(balls={"white": [0, 0], "red16": [0, 9]}), None, "bad_payload"),
    ("a huge number", "p", _with(balls={"white": [1e999, 0], "red1": [0, 9]}), None, "bad_payload"),
    ("scores of text", "p", _with(scores={"A": "x", "B": 0}), None, "bad_payload"),
    ("no name", "", GOOD, None, "position_name"),
    ("a name of numbers", 12, GOOD, None, "position_name"),
    ("a long name", "x" * 61, GOOD, None, "position_name"),
    ("a score past the frame's", "p", _with(scores={"A": 5000, "B": 0}), None, "bad_score"),
    ("a score below nothing", "p", _with(scores={"A": -1, "B": 0}), None, "bad_payload"),
    ("balls overlapping", "p", _with(balls={"white": [0, 0], "red1": [BALL_DIAMETER / 2, 0]}), None,
     "balls_overlap"),
    ("a ball in the cushion", "p", _with(balls={"white": [0, 0], "red1": [2000, 0]}), None,
     "ball_off_table"),
    ("the black on with reds left", "p", _with(on="black"), None, "bad_ball_on"),
    ("no object ball", "p", _with(balls={"white": [0, 0]}), None, "bad_position"),
    ("no cue ball, not in hand", "p", _with(balls={"red1": [0, 900]}), None, "bad_position"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("why", "name", "position", "raw", "code"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_a_bad_position_is_refused_with_a_worded_code(
    players, why, name, position, raw, code
) -> None:  # type: ignore[no-untyped-def]
    web = Client()
    web.force_login(players[0])
    answer = _save(web, name, position, raw)
    assert answer.status_code == 400, (why, answer.content)
    body = answer.json()
    assert body["code"] == code and body["message"] and "That cannot be done" not in body["message"]
    web.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    russian = _save(web, name, position, raw).json()
    assert russian["code"] == code and russian["message"] != body["message"]
    assert not Position.objects.exists()


def test_in_hand_the_cue_ball_is_off_the_table_and_a_member_keeps_so_many(
    players, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    web = Client()
    web.force_login(players[0])
    assert _save(web, "in hand", _with(in_hand=True)).status_code == 201
    assert "white" not in Position.objects.get().state["balls"]
    monkeypatch.setattr(positions, "MAX_POSITIONS", 2)
    assert _save(web, "two", GOOD).status_code == 201
    full = _save(web, "three", GOOD)
    assert full.status_code == 409 and full.json()["code"] == "too_many_positions"
    assert "2" in full.json()["message"]
    # A guest (seated by an invitation) is not a member.
    guest = Client()
    guest.force_login(visitor_guest("Zoe"))
    assert _save(guest, "mine", GOOD).json()["code"] == "members_only"
    assert guest.get("/practice/position/").status_code == 403
