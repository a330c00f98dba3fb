"""Requests the referee refuses, the canonical state form, and a whole frame played out."""

from __future__ import annotations

import json

import pytest

from rules import referee
from rules.errors import IllegalRequest, StateFormatError
from rules.state import FrameState, Shot, make_balls
from rules.table import COLOURS, REDS, SPOTS, WHITE


def _state(**changes: object) -> FrameState:
    balls = {WHITE: (0.0, -500.0), "red1": (0.0, 500.0), "blue": SPOTS["blue"]}
    return FrameState(balls=make_balls(balls), striker="A").with_(**changes)


def _refused(code: str, call) -> IllegalRequest:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalRequest) as err:
        call()
    assert err.value.code == code
    return err.value


def test_error_shows_the_state() -> None:
    state = _state()
    error = _refused("not_your_turn", lambda: referee.strike(state, "B", Shot(("red1",))))
    assert state.text() in str(error) and "player B is not the striker" in str(error)


@pytest.mark.parametrize(
    ("code", "state", "shot"),
    [
        ("bad_nomination", _state(on="colour"), Shot(("blue",), nominated="pink")),
        ("bad_nomination", _state(on="colour"), Shot(("blue",), nominated="red1")),
        ("bad_nomination", _state(), Shot(("red1",), nominated="blue")),
        ("bad_nomination", _state(), Shot(("red1",), nominated=WHITE)),
        ("ball_not_on_table", _state(), Shot(("red2",))),
        ("bad_shot", _state(), Shot(("red1", "blue", "red1"))),
        ("bad_shot", _state(), Shot((), potted=("red1",))),
        ("bad_shot", _state(), Shot(("red1",), potted=("red1",), off_table=("red1",))),
        ("bad_shot", _state(), Shot(("red1",), after=(("red1", (5000.0, 0.0)),))),
        ("cue_ball_not_in_hand", _state(), Shot(("red1",), cue_ball=(0.0, -1100.0))),
        ("cue_ball_required", _state(in_hand=True), Shot(("red1",))),
        ("cue_ball_outside_d", _state(in_hand=True), Shot(("red1",), cue_ball=(0.0, -700.0))),
        ("cue_ball_outside_d", _state(in_hand=True), Shot(("red1",), cue_ball=(300.0, -1100.0))),
    ],
)
def test_illegal_strokes_change_nothing(code: str, state: FrameState, shot: Shot) -> None:
    before = state.text()
    _refused(code, lambda: referee.strike(state, state.striker, shot))
    assert state.text() == before


def test_cue_ball_may_not_touch_a_ball_in_the_d() -> None:
    state = FrameState(
        balls=make_balls({"red1": (0.0, 500.0), "brown": SPOTS["brown"]}),
        striker="A",
        in_hand=True,
    )
    _refused(
        "cue_ball_overlaps",
        lambda: referee.strike(state, "A", Shot(("red1",), cue_ball=(30.0, -1100.0))),
    )


def test_nothing_is_played_while_a_choice_is_pending() -> None:
    fouled, ruling = referee.strike(_state(), "A", Shot(("blue",)))
    assert ruling.foul and fouled.pending is not None
    _refused("choice_pending", lambda: referee.strike(fouled, "B", Shot(("red1",))))
    _refused("not_your_choice", lambda: referee.choose(fouled, "A", "play"))
    _refused("not_an_option", lambda: referee.choose(fouled, "B", "rebreak"))
    _refused("no_choice_pending", lambda: referee.choose(_state(), "A", "play"))
    _refused("no_toss_pending", lambda: referee.toss(fouled, "A"))


def test_after_the_frame_nothing_more() -> None:
    over, _ = referee.concede(_state(), "B")
    assert over.frame_over and over.winner == "A"
    _refused("frame_over", lambda: referee.strike(over, "A", Shot(("red1",))))
    _refused("frame_over", lambda: referee.concede(over, "A"))


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"striker": "A"}, "state.balls"),
        ({"balls": {}, "striker": "C"}, "state.striker"),
        ({"balls": {"purple": [0, 0]}, "striker": "A"}, "state.balls.purple"),
        ({"balls": {"red1": [0]}, "striker": "A"}, "state.balls.red1"),
        ({"balls": {}, "striker": "A", "on": "gold"}, "state.on"),
        ({"balls": {}, "striker": "A", "scores": {"A": -1, "B": 0}}, "state.scores.A"),
        ({"balls": {}, "striker": "A", "misses": "2"}, "state.misses"),
        ({"balls": {}, "striker": "A", "spin": 1}, "state.spin"),
        ({"balls": {}, "striker": "A", "pending": {"options": ["dance"]}}, "state.pending.options"),
    ],
)
def test_bad_state_data_names_the_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(StateFormatError) as err:
        FrameState.from_json(data)
    assert err.value.field == field


def test_canonical_text_is_stable_json() -> None:
    fouled, _ = referee.strike(_state(), "A", Shot(("blue",)))
    text = fouled.text()
    assert json.loads(text)["pending"]["options"] == ["play", "put_back", "replace"]
    assert FrameState.from_json(json.loads(text)) == fouled


def test_a_maximum_147() -> None:
    """Fifteen reds with fifteen blacks, then the colours: 147, frame over, A wins."""
    state = referee.new_frame("A")
    state, ruling = referee.strike(
        state, "A", Shot(("red1",), potted=("red1",), cue_ball=(-150.0, -1150.0))
    )
    assert ruling.points == 1 and state.on == "colour"
    state, _ = referee.strike(state, "A", Shot(("black",), potted=("black",), nominated="black"))
    for red in REDS[1:]:
        state, _ = referee.strike(state, "A", Shot((red,), potted=(red,)))
        state, ruling = referee.strike(
            state, "A", Shot(("black",), potted=("black",), nominated="black")
        )
        assert ruling.respotted == (("black", SPOTS["black"]),)
    assert state.on == "yellow" and state.score("A") == 120
    for colour in COLOURS:
        assert state.on == colour
        state, ruling = referee.strike(state, "A", Shot((colour,), potted=(colour,)))
    assert state.frame_over and state.winner == "A" and state.scores == (147, 0)
    assert state.brk == 147


def test_level_frame_goes_to_the_respotted_black() -> None:
    state = FrameState(
        balls=make_balls({WHITE: (0.0, 1000.0), "black": SPOTS["black"]}),
        striker="A", scores=(50, 57), on="black",
    )  # fmt: skip
    state, ruling = referee.strike(state, "A", Shot(("black",), potted=("black",)))
    assert state.respotted_black and not state.frame_over and state.to_act is None
    assert referee.calls(ruling, state) == ("RE-SPOTTED BLACK",)
    state, _ = referee.toss(state, "B")
    state, _ = referee.choose(state, "B", "pass")
    assert state.striker == "A" and state.in_hand and state.ball_map() == {"black": SPOTS["black"]}
    state, ruling = referee.strike(
        state, "A", Shot(("black",), potted=(WHITE,), cue_ball=(-150.0, -1150.0))
    )
    assert state.frame_over and state.winner == "B" and ruling.penalty == 7


@pytest.mark.parametrize(
    ("on", "in_hand", "penalty"), [("red", False, 4), ("colour", False, 7), ("red", True, 4)]
)
def test_shot_clock_foul(on: str, in_hand: bool, penalty: int) -> None:
    state = _state(on=on)
    if in_hand:
        state = state.with_(
            balls=make_balls({b: p for b, p in state.balls if b != WHITE}), in_hand=True
        )
    fouled, ruling = referee.time_foul(state, "A")
    assert ruling.foul and ruling.penalty == penalty and not ruling.miss
    assert fouled.scores == (0, penalty) and fouled.to_act == "B"
    assert fouled.pending is not None and fouled.pending.options == ("play", "put_back")
    assert fouled.in_hand == in_hand and fouled.on == "red"
    assert [b for b, _ in fouled.balls if b != WHITE] == [b for b, _ in state.balls if b != WHITE]
    _refused("not_your_turn", lambda: referee.time_foul(state, "B"))
