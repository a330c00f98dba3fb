"""Physics and referee together: any legal request is simulated and settled, never refused."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import referee
from rules.commands import Stroke
from rules.state import FrameState
from rules.stroke import play_stroke
from rules.table import COLOURS, WHITE, on_bed
from tests.rules.strategies import d_point, frames


@st.composite
def requests(draw: st.DrawFn, state: FrameState) -> Stroke:
    table = state.ball_map()
    cue = draw(d_point(table)) if state.in_hand else None
    nominated = None
    if state.on == "colour":
        nominated = draw(st.sampled_from([b for b in table if b in COLOURS]))
    side = draw(st.floats(-0.35, 0.35))
    height = draw(st.floats(-0.35, 0.35))
    return Stroke(
        angle=draw(st.floats(-math.pi, math.pi)),
        speed=draw(st.floats(0.05, 10.0)),
        side=side,
        height=height,
        nominated=nominated,
        cue_ball=cue,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames(), st.data())
def test_every_legal_request_is_settled(state: FrameState, data: st.DataObject) -> None:
    request = data.draw(requests(state))
    assume(not state.in_hand or request.cue_ball is not None)
    new, ruling, result = play_stroke(state, state.striker, request)
    assert not result.truncated
    assert all(on_bed(p) for _, p in new.balls)
    assert set(result.potted) <= set(state.ball_map()) | {WHITE}
    assert tuple(result.first_contact) == tuple(result.first_contact[:2])
    if ruling.foul:
        assert new.pending is not None or new.frame_over
    # A colour on after a red adds the black's 7; a free ball one more ball on (8 at most).
    bound = referee.points_remaining(state) + 7 + (8 if new.free_ball else 0)
    assert referee.points_remaining(new) <= bound
