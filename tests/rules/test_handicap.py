"""Handicap starts in the rules core (RULES.md §10): the match carries the start, every frame
begins at it, and it counts as points and as nothing else. The clause-by-clause cases are the
golden scenarios in tests/scenarios/handicap; these are the match around them and properties."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import match as m
from rules import referee
from rules.commands import Choose, Command, Concede, ShotClockExpired, Stroke, Toss
from rules.errors import IllegalRequest, StateFormatError
from rules.outcome import End, Termination
from rules.state import NO_START, FrameState, Pending, Player, make_balls
from rules.stats import figures, played
from rules.table import POCKETS, SPOTS
from tests.rules.strategies import frames, shots

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ON_THE_BLACK = (Termination.POTTED_BLACK, Termination.FOUL_ON_BLACK)

starts = st.one_of(
    st.just(NO_START),
    st.integers(1, 147).map(lambda n: (n, 0)),
    st.integers(1, 147).map(lambda n: (0, n)),
)


def test_every_frame_begins_at_the_start() -> None:
    match = m.new_match(best_of=5, draw="A", start=(0, 28))
    assert match.start == (0, 28)
    board = m.scoreboard(match)
    assert board.scores == (0, 28) and board.start == (0, 28) and board.frame_number == 1
    assert board.current_break == 0
    for loser in ("B", "A", "B"):
        assert match.frame.scores == (0, 28) and match.frame.opening
        match, _ = m.apply(match, loser, Concede("frame"))
    # Each frame's record keeps the score it ended at, start included (the frame's result).
    assert [f.scores for f in match.frames] == [(0, 28)] * 3
    assert [f.winner for f in match.frames] == ["A", "B", "A"]
    assert m.scoreboard(match).start == (0, 28)


def test_a_match_without_a_start_is_as_before() -> None:
    plain = m.new_match(best_of=3, draw="B")
    assert plain.start == NO_START == m.new_match(3, "B", NO_START).start
    assert plain == m.new_match(3, "B", (0, 0))
    assert "start" not in m.match_to_json(plain)  # the stored form is the one it always was
    assert m.scoreboard(plain).start == NO_START


@pytest.mark.parametrize("start", [(5, 5), (-1, 0), (0, -3), (True, 0), (1.5, 0)])
def test_a_bad_start_is_refused(start: tuple[int, int]) -> None:
    with pytest.raises(IllegalRequest) as err:
        m.new_match(best_of=1, draw="A", start=start)
    assert err.value.code == "bad_start"


def test_the_start_is_stored_and_replayed() -> None:
    commands: list[tuple[Player | None, Command]] = [
        ("A", Stroke(angle=math.pi / 2, speed=6.0, cue_ball=(-100.0, -1150.0))),
        ("B", Concede("frame")),
        ("B", Concede("frame")),
    ]
    match = m.new_match(best_of=5, draw="A", start=(17, 0))
    for seat, command in commands:
        match, _ = m.apply(match, seat, command)
    assert match.frame.scores == (17, 0) and match.frame_number == 3
    assert m.replay(5, "A", commands, start=(17, 0)) == match
    stored = json.loads(json.dumps(m.match_to_json(match)))
    assert stored["start"] == {"A": 17, "B": 0}
    assert m.match_from_json(stored) == match
    stored["start"] = {"A": 3, "B": 4}
    with pytest.raises(StateFormatError, match="only one player has a start"):
        m.match_from_json(stored)


def _on_the_black(striker: Player, scores: tuple[int, int], start: tuple[int, int]) -> m.Match:
    """Only the black left, `striker` to play with a stroke that pots it."""
    black = SPOTS["black"]
    mouth = next(p.mouth for p in POCKETS if p.name == "top_right")
    angle = math.atan2(mouth[1] - black[1], mouth[0] - black[0])
    white = (black[0] - 300 * math.cos(angle), black[1] - 300 * math.sin(angle))
    frame = FrameState(
        balls=make_balls({"white": white, "black": black}), striker=striker, scores=scores,
        on="black",
    )  # fmt: skip
    return replace(m.new_match(best_of=1, draw="A", start=start), frame=frame)


def _pot_black() -> Stroke:
    black = SPOTS["black"]
    mouth = next(p.mouth for p in POCKETS if p.name == "top_right")
    return Stroke(math.atan2(mouth[1] - black[1], mouth[0] - black[0]), speed=2.0)


def test_a_start_is_never_part_of_a_break() -> None:
    # B has a start of 30 and has scored 20 at the table; the black makes B's break 7.
    match = _on_the_black("B", (40, 50), (0, 30))
    after, acts = played(match, [("B", _pot_black())])
    assert after.frames[0].scores == (40, 57) and after.winner == "B"
    stats = figures(acts)
    assert [b.points for b in stats.B.breaks] == [7] and stats.B.highest_break == 7
    assert stats.A.breaks == ()


def test_the_start_alone_wins_the_frame_on_the_last_black() -> None:
    # A out-scores B at the table (57 to 25) but B's start of 35 wins it.
    match, outcome = m.apply(_on_the_black("A", (50, 60), (0, 35)), "A", _pot_black())
    assert outcome.frame_end == End(Termination.POTTED_BLACK, "B")
    assert match.frames[0].scores == (57, 60)


def test_a_tie_through_the_start_waits_for_the_draw() -> None:
    match, outcome = m.apply(_on_the_black("A", (43, 50), (0, 14)), "A", _pot_black())
    assert outcome.calls == ("RE-SPOTTED BLACK",) and m.toss_due(match)
    assert match.frame.scores == (50, 50)


def test_snookers_required_count_the_start() -> None:
    colours = {c: SPOTS[c] for c in ("yellow", "green", "brown", "blue", "pink", "black")}
    frame = FrameState(balls=make_balls({**colours, "white": (500.0, -500.0)}), striker="B",
                       scores=(0, 40), on="yellow")  # fmt: skip
    match = replace(m.new_match(best_of=1, draw="A", start=(0, 40)), frame=frame)
    board = m.scoreboard(match)
    # 13 short of B's 40 with 27 on the table: A needs 4 snookers (fouls of 4).
    assert board.points_remaining == 27 and board.snookers_required == (4, 0)


# --- properties --------------------------------------------------------------------------------
def _shift(state: FrameState, start: tuple[int, int], sign: int) -> FrameState:
    """The state with `start` added to (or taken from) every score it holds."""
    a, b = state.scores
    pending = state.pending
    if pending is not None and pending.restore is not None:
        pending = replace(pending, restore=_shift(pending.restore, start, sign))
    return state.with_(scores=(a + sign * start[0], b + sign * start[1]), pending=pending)


@SETTINGS
@given(frames(), starts, st.data())
def test_a_start_changes_nothing_but_the_points(
    state: FrameState, start: tuple[int, int], data: st.DataObject
) -> None:
    """The same stroke from the same position, with and without a start: the referee rules
    the same and leaves the same table, the scores apart by the start; unless the start
    changes whether someone needs snookers (the miss rule reads it) or the frame ends on the
    black, where the player with more points, start included, wins (RULES.md §10)."""
    shot = data.draw(shots(state))
    assume(not (state.in_hand and shot.cue_ball is None))
    with_start = _shift(state, start, +1)
    try:
        plain, ruling = referee.strike(state, state.striker, shot)
    except IllegalRequest as exc:
        with pytest.raises(IllegalRequest) as err:
            referee.strike(with_start, state.striker, shot)
        assert err.value.code == exc.code
        return
    after, ruling_s = referee.strike(with_start, state.striker, shot)
    assert after.scores[0] >= start[0] and after.scores[1] >= start[1]
    if ruling_s.ended in ON_THE_BLACK:
        assert after.winner == ("A" if after.scores[0] > after.scores[1] else "B")
        assert after.scores[0] != after.scores[1]
    if after.respotted_black and not state.respotted_black:
        assert after.scores[0] == after.scores[1]
    same_snookers = referee.needs_snookers(state) == referee.needs_snookers(
        with_start
    ) and referee.needs_snookers(plain) == referee.needs_snookers(after)
    if ruling.miss != ruling_s.miss:
        assert not same_snookers  # only snookers required, read with the start, tell them apart
        return
    ended = plain.frame_over or after.frame_over or plain.respotted_black or after.respotted_black
    if not ended:
        assert ruling_s == ruling
        assert _shift(after, start, -1) == plain


def _decide(match: m.Match, data: st.DataObject) -> tuple[Player | None, Command] | None:
    pending = match.frame.pending
    if pending is None:
        return None
    if pending.holder is None:
        return None, Toss(data.draw(st.sampled_from(["A", "B"])))
    return pending.holder, Choose(data.draw(st.sampled_from(pending.options)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(starts, st.sampled_from(["A", "B"]), st.data())
def test_scores_never_fall_below_the_start(
    start: tuple[int, int], draw: Player, data: st.DataObject
) -> None:
    """Random play of a whole match (strokes through the physics, time fouls, choices,
    concessions): every frame begins at the start, no score is ever below it, and the
    stored form keeps it."""
    match = m.new_match(best_of=3, draw=draw, start=start)
    assert match.frame.scores == start
    for _ in range(25):
        if match.over:
            break
        step = _decide(match, data)
        if step is None:
            frame = match.frame
            kind = data.draw(st.sampled_from(["stroke", "stroke", "stroke", "clock", "concede"]))
            seat: Player = frame.striker
            command: Command
            if kind == "stroke":
                cue = (data.draw(st.floats(-250, 250)), -1150.0) if frame.in_hand else None
                command = Stroke(
                    angle=data.draw(st.floats(0, 2 * math.pi)),
                    speed=data.draw(st.floats(0.5, 6.0)), cue_ball=cue,
                    nominated=data.draw(st.sampled_from(referee.nominations(frame) or (None,))),
                )  # fmt: skip
            elif kind == "clock":
                command = ShotClockExpired()
            else:
                seat = data.draw(st.sampled_from(["A", "B"]))
                command = Concede("frame")
            step = (seat, command)
        before = match
        try:
            match, _ = m.apply(match, *step)
        except IllegalRequest:
            continue
        assert match.frame.scores[0] >= start[0] and match.frame.scores[1] >= start[1]
        if len(match.frames) > len(before.frames) and not match.over:
            assert match.frame.scores == start and match.frame.opening
    for record in match.frames:
        assert record.scores[0] >= start[0] and record.scores[1] >= start[1]
    assert m.match_from_json(json.loads(json.dumps(m.match_to_json(match)))) == match


def test_pending_restore_is_shifted_with_the_scores() -> None:
    # The helper above shifts the `replace` state too: a miss keeps the scores apart by the
    # start all the way back.
    inner = FrameState(balls=make_balls({"white": (0.0, 0.0)}), striker="A", scores=(1, 2))
    outer = inner.with_(pending=Pending("B", ("play",), "A", inner))
    shifted = _shift(outer, (10, 0), +1)
    assert shifted.scores == (11, 2)
    assert shifted.pending is not None and shifted.pending.restore is not None
    assert shifted.pending.restore.scores == (11, 2)
