"""The match around the frames and the scoreboard (RULES.md §2)."""

from __future__ import annotations

import pytest

from rules import match as m
from rules.errors import IllegalRequest
from rules.state import FrameState, make_balls
from rules.table import SPOTS


def test_first_break_goes_to_the_draw() -> None:
    for draw in ("A", "B"):
        started = m.new_match(best_of=3, draw=draw)
        assert started.first_breaker == draw
        assert started.frame.striker == draw and started.frame.opening and started.frame.in_hand


def test_breaks_alternate_and_best_of_ends() -> None:
    match = m.new_match(best_of=3, draw="B")
    breakers = []
    for loser in ("A", "B", "A"):
        if match.over:
            break
        breakers.append(match.frame.striker)
        match, ruling = m.concede_frame(match, loser)
        assert ruling.frame_over
    assert breakers == ["B", "A", "B"]
    assert match.over and match.winner == "B"
    assert [f.winner for f in match.frames] == ["B", "A", "B"]
    assert (match.frames_won("A"), match.frames_won("B")) == (1, 2)
    with pytest.raises(IllegalRequest) as err:
        m.concede_frame(match, "A")
    assert err.value.code == "match_over"


def test_conceding_the_match() -> None:
    match, _ = m.concede_match(m.new_match(best_of=7, draw="A"), "A")
    assert match.winner == "B" and len(match.frames) == 1


@pytest.mark.parametrize("best_of", [0, 2, -1])
def test_best_of_must_be_odd(best_of: int) -> None:
    with pytest.raises(IllegalRequest):
        m.new_match(best_of=best_of, draw="A")


def _frame(balls: dict[str, tuple[float, float]], scores: tuple[int, int], on: str) -> FrameState:
    return FrameState(balls=make_balls(balls), striker="A", scores=scores, on=on)


def test_scoreboard_figures() -> None:
    match = m.new_match(best_of=5, draw="A")
    board = m.scoreboard(match)
    assert board.points_remaining == 147
    assert board.snookers_required == (0, 0)
    assert board.frames == (0, 0) and board.frame_number == 1 and board.best_of == 5
    # Pink and black left (13 on the table), A trails by 20: 7 short, 2 snookers on the pink.
    frame = _frame({"white": (0, 0), "pink": (0, 892.25), "black": (0, 1460.5)}, (10, 30), "pink")
    assert m.snookers_required(frame, "A") == 2
    assert m.snookers_required(frame, "B") == 0
    # One red left with a colour on: 8 + 7 + 27 = 42.
    one_red = {"white": (0.0, 0.0), "red1": (100.0, 100.0), **SPOTS}
    assert m.referee.points_remaining(_frame(one_red, (0, 0), "colour")) == 42
    assert m.referee.points_remaining(_frame(one_red, (0, 0), "red")) == 35
