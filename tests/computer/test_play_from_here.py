"""A finished match's replay position at a table of the member's own (snooker_site/views.py
`play_from_here`, docs/coach.md): alone or against the computer, the member to strike, the
balls exactly where they stood; never a live match's, never a step where no stroke was due."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import service
from game.models import Match
from rules.match import match_from_json
from tests.computer.test_analysis_queue import _finished
from tests.computer.test_computer import seats

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    seats()  # the computer's users, whatever an earlier test's flush took away
    users = get_user_model().objects
    return users.create_user("alice", password="pw"), users.create_user("bob", password="pw")


def _from(web: Client, match: Match, version: int, opponent: str):  # type: ignore[no-untyped-def]
    return web.post(f"/match/{match.pk}/replay/play-from/",
                    {"version": version, "opponent": opponent})  # fmt: skip


def test_a_position_is_played_again_alone_or_against_the_computer(players) -> None:  # type: ignore[no-untyped-def]
    match = _finished(players)  # v2 Alice's break-off, v3 Bob's stroke, then the concession
    seats()  # the computer's users (a transactional test's flush may have taken them)
    carol = get_user_model().objects.create_user("carol", password="pw")
    web = Client()
    assert _from(web, match, 3, "alone").status_code == 302  # to log in first
    web.force_login(carol)  # anyone may: the replay is public
    before = service.position_before(match.pk, 3)
    assert before.striker == "B"
    answer = _from(web, match, 3, "alone")
    assert answer.status_code == 302, answer.content.decode()[-600:]
    table = Match.objects.exclude(pk=match.pk).get()
    assert answer.status_code == 302 and answer["Location"] == f"/match/{table.pk}/"
    frame = match_from_json(table.state).frame
    assert table.practice and table.player_a == carol
    assert frame.ball_map() == before.ball_map() and frame.scores == before.scores
    assert frame.striker == "B"  # alone: both seats are hers
    assert service.rebuild(table.pk) == match_from_json(table.state)
    # Against the computer she strikes: the seats turned round.
    answer = _from(web, match, 3, "pro")
    versus = Match.objects.exclude(pk__in=[match.pk, table.pk]).get()
    turned = match_from_json(versus.state).frame
    assert versus.player_a == carol and turned.striker == "A"
    assert turned.scores == before.scores[::-1] and turned.ball_map() == before.ball_map()


def test_no_position_of_a_live_match_nor_where_no_stroke_was_due(players) -> None:  # type: ignore[no-untyped-def]
    web = Client()
    web.force_login(players[0])
    live = service.create_match(players[0], players[1], 3, draw="A")
    assert _from(web, live, 2, "alone").status_code == 400
    match = _finished(players)
    assert _from(web, match, 3, "teapot").status_code == 400
    refused = _from(web, match, 99, "alone")
    assert refused.status_code == 409 and 'data-code="no_stroke_here"' in refused.content.decode()
    assert Match.objects.count() == 2  # nothing made
