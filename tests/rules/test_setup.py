"""A frame set up at a position (rules/setup.py): what the referee refuses, and the seats
turned round."""

from __future__ import annotations

import pytest

from rules import referee
from rules.errors import IllegalRequest
from rules.setup import check, set_up, swapped
from rules.state import FrameState, Pending, make_balls
from rules.table import SPOTS, WHITE

COLOURS_LEFT = {WHITE: (150.0, -300.0), "blue": SPOTS["blue"], "pink": SPOTS["pink"],
                "black": SPOTS["black"]}  # fmt: skip


def frame(balls: dict[str, tuple[float, float]] = COLOURS_LEFT, **fields: object) -> FrameState:
    values: dict[str, object] = {"striker": "A", "scores": (40, 48), "on": "blue", **fields}
    return FrameState(balls=make_balls(balls), **values)  # type: ignore[arg-type]


def refusal(position: FrameState) -> str:
    with pytest.raises(IllegalRequest) as refused:
        check(position)
    return refused.value.code


def test_a_legal_position_and_the_rack_pass() -> None:
    check(frame())
    check(referee.new_frame("A"))
    check(frame(on="colour", balls={**COLOURS_LEFT, "red3": (300.0, 1000.0)}))
    check(frame(on="red", balls={**COLOURS_LEFT, "red3": (300.0, 1000.0)}))
    check(frame(on="colour", balls=COLOURS_LEFT))  # the colour after the last red


def test_impossible_positions_are_refused_with_their_codes() -> None:
    assert refusal(frame({**COLOURS_LEFT, "pink": (1.0, 0.0)})) == "balls_overlap"  # on blue
    assert refusal(frame({**COLOURS_LEFT, "pink": (2000.0, 0.0)})) == "ball_off_table"
    assert refusal(frame(on="red")) == "bad_ball_on"  # no red is left
    assert refusal(frame(on="pink")) == "bad_ball_on"  # the blue is still there
    with_a_red = {**COLOURS_LEFT, "red1": (300.0, 900.0)}
    assert refusal(frame(on="blue", balls=with_a_red)) == "bad_ball_on"
    assert refusal(frame(frame_over=True, winner="B")) == "bad_position"
    assert refusal(frame(pending=Pending("B", ("play",), "A", None))) == "bad_position"
    assert refusal(frame({b: p for b, p in COLOURS_LEFT.items() if b != WHITE})) == "bad_position"
    assert refusal(frame(scores=(-1, 0))) == "bad_position"


def test_a_set_up_visit_starts_afresh_and_turns_round() -> None:
    position = set_up(frame(brk=12, misses=2, in_hand=True))
    assert position.brk == 0 and position.misses == 0 and position.in_hand
    turned = swapped(position)
    assert turned.striker == "B" and turned.scores == (48, 40)
    assert swapped(turned) == position
