"""Valuing a foul stroke over random single strokes (Hypothesis): the referee calls every foul
the stroke commits, each valued as RULES.md §4 says, and the penalty is the highest of them,
never below 4 and never above 7 (§22.2, §23)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import referee
from rules.errors import IllegalRequest
from rules.referee import Call, Foul
from rules.state import FrameState, Shot
from rules.table import VALUES, WHITE, is_colour, is_red
from tests.rules.strategies import free_ball_frames, shots

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# RULES.md §4: the fouls valued at the ball on, at 7, and at the higher of the ball on and the
# balls concerned.
AT_BALL_ON = {Foul.NO_CONTACT, Foul.IN_OFF, Foul.FREE_BALL_SNOOKER, Foul.JUMP}
AT_SEVEN = {Foul.NO_NOMINATION, Foul.RED_WHEN_COLOUR_ON}
AT_HIGHER = {Foul.POT_NOT_ON, Foul.WRONG_BALL_FIRST, Foul.PUSH, Foul.OFF_TABLE}


def _free_ball(state: FrameState, shot: Shot) -> str | None:
    """The ball the striker played as the free ball: nominated, or else the one ball not on
    among the first contact (RULES.md §3, §5)."""
    if not state.free_ball:
        return None
    on = referee.balls_on(state.on, state.object_balls)
    if shot.nominated is not None:
        return None if shot.nominated in on else shot.nominated
    others = [b for b in shot.first_contact if b not in on]
    return others[0] if len(others) == 1 else None


def _ball_on_value(state: FrameState, shot: Shot) -> int:
    """RULES.md §4, "value of the ball on"."""
    if state.on == "red":
        return 1
    if state.on != "colour":
        return VALUES[state.on]
    first = shot.first_contact
    nominated = shot.nominated
    if nominated is None and len(first) == 1 and is_colour(first[0]):
        nominated = first[0]  # RULES.md §3: the colour first hit is taken as nominated
    return VALUES[nominated] if nominated is not None else 7


def _check_values(state: FrameState, shot: Shot, calls: tuple[Call, ...]) -> None:
    v = _ball_on_value(state, shot)
    free = _free_ball(state, shot)
    for call in calls:
        if call.foul in AT_BALL_ON:
            assert call.value == v, call
        elif call.foul in AT_SEVEN:
            assert call.value == 7, call
        else:
            worths = [v if b in (free, WHITE) else VALUES[b] for b in call.balls]
            assert call.foul in AT_HIGHER or call.foul is Foul.TWO_BALLS_FIRST, call
            assert call.balls and call.value == max(v, *worths), call


def _check_complete(state: FrameState, shot: Shot, calls: tuple[Call, ...]) -> None:
    """The fouls any reading of the rule book finds in this stroke are all called."""
    called = {c.foul for c in calls}
    first = shot.first_contact
    colour_on = state.on == "colour"
    if not first:
        assert Foul.NO_CONTACT in called
    if WHITE in shot.potted:
        assert Foul.IN_OFF in called
    if shot.off_table:
        assert Foul.OFF_TABLE in called
    if shot.jumped:
        assert Foul.JUMP in called
    if colour_on and any(is_red(b) for b in first):
        assert Foul.RED_WHEN_COLOUR_ON in called  # also with another ball at once
    if colour_on and shot.nominated is None and calls:
        assert Foul.NO_NOMINATION in called
    if not state.free_ball and len(first) == 2 and not all(is_red(b) for b in first):
        assert Foul.TWO_BALLS_FIRST in called
    if not state.free_ball and state.on == "red":
        if len(first) == 1 and not is_red(first[0]):
            assert Foul.WRONG_BALL_FIRST in called
        if any(is_colour(b) for b in shot.potted):
            assert Foul.POT_NOT_ON in called
    # One call per rule broken.
    assert len(called) == len(calls)


@SETTINGS
@given(free_ball_frames(), st.data())
def test_the_penalty_is_the_highest_foul_called(state: FrameState, data: st.DataObject) -> None:
    shot = data.draw(shots(state))
    assume(not (state.in_hand and shot.cue_ball is None))
    try:
        after, ruling = referee.strike(state, state.striker, shot)
    except IllegalRequest:
        assume(False)
        return
    assert ruling.foul == bool(ruling.fouls)
    if not ruling.foul:
        assert ruling.penalty == 0
        return
    assert ruling.penalty == max(4, *(c.value for c in ruling.fouls))
    assert 4 <= ruling.penalty <= 7
    _check_values(state, shot, ruling.fouls)
    _check_complete(state, shot, ruling.fouls)
    a, b = state.scores
    gained = (after.scores[0] - a, after.scores[1] - b)
    assert gained == ((0, ruling.penalty) if state.striker == "A" else (ruling.penalty, 0))
