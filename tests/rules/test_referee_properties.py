"""Invariants of the referee over random legal frames and strokes (Hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import referee
from rules.errors import IllegalRequest
from rules.state import FrameState, opponent
from rules.table import COLOURS, WHITE, is_red
from tests.rules.strategies import frames, shots

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _decide(state: FrameState, data: st.DataObject) -> FrameState:
    """Take whatever decision is pending, as the right player would."""
    while state.pending is not None and not state.frame_over:
        pending = state.pending
        if pending.holder is None:
            state, _ = referee.toss(state, data.draw(st.sampled_from(["A", "B"])))
        else:
            option = data.draw(st.sampled_from(pending.options))
            state, _ = referee.choose(state, pending.holder, option)
    return state


def _check_stroke(before: FrameState, after: FrameState, ruling: referee.Ruling, shot) -> None:
    # Scores never decrease.
    assert after.scores[0] >= before.scores[0] and after.scores[1] >= before.scores[1]
    # Every penalty is between 4 and 7.
    if ruling.foul:
        assert 4 <= ruling.penalty <= 7
        assert ruling.points == 0
    else:
        assert ruling.penalty == 0
    # Reds never come back.
    assert set(after.reds) <= set(before.reds)
    # Every ball is on the table or accounted for as potted (or off the table).
    gone = set(shot.potted) | set(shot.off_table)
    for ball in before.object_balls:
        assert ball in after.ball_map() or ball in gone or after.respotted_black
    if not after.respotted_black:
        for ball in after.object_balls:
            assert ball in before.object_balls
    # After the last red, the colours go down in order.
    if not after.reds and after.on != "colour" and not after.frame_over:
        colours = [c for c in COLOURS if c in after.ball_map()]
        assert colours == list(COLOURS[len(COLOURS) - len(colours) :])
        if colours:
            assert after.on == colours[0]
    # A fair pot keeps the striker at the table.
    if not ruling.foul and ruling.points > 0 and not after.frame_over and not after.pending:
        assert after.striker == before.striker
    if not ruling.foul and ruling.points == 0 and not after.frame_over:
        assert after.striker == opponent(before.striker)
    # A foul hands the decision to the other player, unless it ended the frame or, on the last
    # black, levelled the scores: then the re-spotted black's draw comes first (RULES.md §2).
    if ruling.foul and after.pending is not None:
        if ruling.respotted_black:
            assert after.pending.holder is None and after.pending.options == ()
            assert after.scores[0] == after.scores[1]
        else:
            assert after.pending.holder == opponent(before.striker)


@SETTINGS
@given(frames(), st.data())
def test_random_visits_keep_the_invariants(state: FrameState, data: st.DataObject) -> None:
    for _ in range(6):
        state = _decide(state, data)
        if state.frame_over:
            break
        shot = data.draw(shots(state))
        assume(not (state.in_hand and shot.cue_ball is None))
        try:
            after, ruling = referee.strike(state, state.striker, shot)
        except IllegalRequest:
            continue
        _check_stroke(state, after, ruling, shot)
        state = after


@SETTINGS
@given(frames(), st.data())
def test_rejected_requests_change_nothing(state: FrameState, data: st.DataObject) -> None:
    text = state.text()
    shot = data.draw(shots(state))
    wrong = opponent(state.striker)
    for request in (
        lambda: referee.strike(state, wrong, shot),
        lambda: referee.choose(state, state.striker, "replace"),
        lambda: referee.toss(state, "A"),
        lambda: referee.strike(state, state.striker, shot.__class__(cue_ball=(0.0, 0.0))),
    ):
        try:
            request()
        except IllegalRequest as exc:
            assert exc.code
        else:
            raise AssertionError("an illegal request was accepted")
        assert state.text() == text


@SETTINGS
@given(frames())
def test_canonical_form_round_trips(state: FrameState) -> None:
    assert FrameState.from_json(state.to_json()) == state


def test_white_never_listed_while_in_hand() -> None:
    state = referee.new_frame("A")
    assert state.in_hand and WHITE not in state.ball_map()
    assert all(is_red(b) for b in state.reds) and len(state.reds) == 15
