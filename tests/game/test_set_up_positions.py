"""A match whose frame is set up at a position (game/service.py `create_match(position=)`,
rules/setup.py): checked, stored in its first event, and rebuilt from its events exactly."""

from __future__ import annotations

import pytest

from game import service
from game.models import Match
from game.protocol import client_in
from rules.match import match_from_json
from rules.state import FrameState, make_balls
from rules.table import SPOTS, WHITE

pytestmark = pytest.mark.django_db

POSITION = FrameState(
    balls=make_balls({WHITE: (-250.0, 0.0), "blue": SPOTS["blue"], "pink": SPOTS["pink"],
                      "black": SPOTS["black"]}),
    striker="B", scores=(40, 44), on="blue", brk=9,
)  # fmt: skip


def test_a_position_is_the_frame_played_and_rebuilds(players) -> None:  # type: ignore[no-untyped-def]
    alice = players[0]
    row = service.create_match(alice, alice, 1, practice=True, position=POSITION)
    state = match_from_json(row.state)
    assert state.frame.ball_map() == POSITION.ball_map() and state.frame.scores == (40, 44)
    assert state.frame.striker == "B" and state.frame.brk == 0  # a visit's start
    stroke = client_in.Stroke(type="stroke", client_id="s1", version=1, angle=0.0, speed=2.0)
    service.submit(row.pk, alice, stroke)  # straight at the blue, into the middle pocket
    stored = match_from_json(Match.objects.get(pk=row.pk).state)
    assert service.rebuild(row.pk) == stored
    assert stored.frame.scores[1] > 44 or stored.frame.striker == "A"


def test_an_impossible_position_or_format_is_refused(players) -> None:  # type: ignore[no-untyped-def]
    alice = players[0]
    overlapping = POSITION.with_(balls=make_balls({**POSITION.ball_map(), "pink": (1.0, 0.0)}))
    with pytest.raises(service.ServiceError) as refused:
        service.create_match(alice, alice, 1, practice=True, position=overlapping)
    assert refused.value.code == "balls_overlap"
    with pytest.raises(service.ServiceError) as refused:
        service.create_match(alice, alice, 3, practice=True, position=POSITION)
    assert refused.value.code == "bad_format"
    assert Match.objects.count() == 0
