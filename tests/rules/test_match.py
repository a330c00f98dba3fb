"""The match around the frames and the scoreboard (RULES.md §2)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from rules import match as m
from rules.commands import Choose, Claim, Command, Concede, ShotClockExpired, Stroke, Toss
from rules.errors import IllegalRequest
from rules.outcome import End, Termination
from rules.state import FrameState, Player, make_balls, opponent
from rules.table import POCKETS, SPOTS


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
        match, outcome = m.apply(match, loser, Concede("frame"))
        assert outcome.frame_end == End(Termination.CONCEDED, opponent(loser))
        assert outcome.settled.frame_over and "FRAME OVER" in outcome.calls
    assert breakers == ["B", "A", "B"]
    assert match.over and match.winner == "B"
    assert outcome.match_end == End(Termination.FRAMES, "B")
    assert [f.winner for f in match.frames] == ["B", "A", "B"]
    assert [f.termination for f in match.frames] == [Termination.CONCEDED] * 3
    assert (match.frames_won("A"), match.frames_won("B")) == (1, 2)
    with pytest.raises(IllegalRequest) as err:
        m.apply(match, "A", Concede("frame"))
    assert err.value.code == "match_over"


@pytest.mark.parametrize(
    ("command", "termination"),
    [(Concede("match"), Termination.CONCEDED), (Claim("match"), Termination.CLAIMED)],
)
def test_conceding_or_losing_the_match_by_claim(
    command: Concede | Claim, termination: Termination
) -> None:
    # A concedes, or B claims against A: either way A loses the frame and the match.
    seat: Player = "A" if isinstance(command, Concede) else "B"
    match, outcome = m.apply(m.new_match(best_of=7, draw="A"), seat, command)
    assert match.winner == "B" and len(match.frames) == 1
    assert outcome.frame_end == End(termination, "B")
    assert outcome.match_end == End(termination, "B")
    assert match.termination == termination and match.frames[0].termination == termination


def test_a_player_command_needs_a_seat_and_the_toss_needs_none() -> None:
    match = m.new_match(best_of=1, draw="A")
    with pytest.raises(IllegalRequest) as err:
        m.apply(match, None, Concede("frame"))
    assert err.value.code == "not_a_player"
    with pytest.raises(IllegalRequest) as err:
        m.apply(match, None, Toss("A"))
    assert err.value.code == "no_toss_pending"


def _on_the_black(scores: tuple[int, int]) -> tuple[m.Match, Stroke]:
    """Only the black left, A to play, and a stroke that pots it in the top right corner."""
    black = SPOTS["black"]
    mouth = next(p.mouth for p in POCKETS if p.name == "top_right")
    angle = math.atan2(mouth[1] - black[1], mouth[0] - black[0])
    white = (black[0] - 300 * math.cos(angle), black[1] - 300 * math.sin(angle))
    frame = FrameState(
        balls=make_balls({"white": white, "black": black}), striker="A", scores=scores, on="black"
    )
    return replace(m.new_match(best_of=1, draw="A"), frame=frame), Stroke(angle, speed=2.0)


def test_potting_the_last_black_ends_the_frame_and_the_match() -> None:
    match, stroke = _on_the_black((60, 50))
    match, outcome = m.apply(match, "A", stroke)
    assert outcome.shot is not None and outcome.shot.potted == ("black",)
    assert outcome.frame_end == End(Termination.POTTED_BLACK, "A")
    assert outcome.match_end == End(Termination.FRAMES, "A")
    assert outcome.calls == ("FRAME OVER",)


def test_a_level_frame_waits_for_the_servers_draw() -> None:
    match, stroke = _on_the_black((50, 57))
    match, outcome = m.apply(match, "A", stroke)
    assert outcome.calls == ("RE-SPOTTED BLACK",) and outcome.frame_end is None
    assert m.toss_due(match)
    with pytest.raises(IllegalRequest) as err:
        m.apply(match, "A", Choose("play"))
    assert err.value.code == "toss_pending"
    match, outcome = m.apply(match, None, Toss("B"))
    assert not m.toss_due(match) and match.frame.pending is not None
    assert match.frame.pending.holder == "B" and match.frame.pending.options == ("play", "pass")
    match, _ = m.apply(match, "B", Choose("pass"))
    assert match.frame.striker == "A" and match.frame.in_hand


def test_a_foul_on_the_last_black_ends_the_frame() -> None:
    match, _ = _on_the_black((60, 50))
    match, outcome = m.apply(match, "A", ShotClockExpired())
    assert outcome.ruling.foul and outcome.frame_end == End(Termination.FOUL_ON_BLACK, "A")
    assert match.frames[0].scores == (60, 57)


def test_replay_is_a_fold_of_apply() -> None:
    commands: list[tuple[Player | None, Command]] = [
        ("A", Stroke(angle=math.pi / 2, speed=6.0, cue_ball=(-100.0, -1150.0))),
        ("B", Concede("frame")),
        ("A", Concede("frame")),
        ("B", Claim("frame")),
    ]
    match = m.new_match(best_of=5, draw="A")
    for seat, command in commands:
        match, _ = m.apply(match, seat, command)
    assert m.replay(5, "A", commands) == match
    assert m.match_from_json(json.loads(json.dumps(m.match_to_json(match)))) == match


def test_matches_stored_before_terminations_still_load() -> None:
    match, _ = m.apply(m.new_match(best_of=1, draw="A"), "A", Concede("match"))
    stored = m.match_to_json(match)
    del stored["termination"]
    for frame in stored["frames"]:
        del frame["termination"]
    old = m.match_from_json(stored)
    assert old.winner == "B" and old.termination is None and old.frames[0].termination is None


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


def test_no_snookers_are_needed_once_the_frame_is_over() -> None:
    """A frame ended (a concession, the match's last frame) asks nobody for snookers."""
    pink_black = {"white": (0, 0), "pink": (0, 892.25), "black": (0, 1460.5)}
    trailing = _frame(pink_black, (10, 30), "pink")
    match = replace(m.new_match(best_of=5, draw="A"), frame=trailing)
    assert m.scoreboard(match).snookers_required == (2, 0)
    over = replace(match, frame=trailing.with_(frame_over=True))
    assert m.scoreboard(over).snookers_required == (0, 0)


def test_scoreboard_counts_a_free_ball() -> None:
    """RULES.md §5: the free ball is one more ball on for points remaining and snookers."""
    colours = {"white": (600.0, -400.0), **SPOTS}
    # Yellow on and a free ball, 20-48: 27 + 2 on the table, 28 behind: no snooker needed.
    frame = _frame(colours, (20, 48), "yellow").with_(free_ball=True)
    assert m.referee.points_remaining(frame) == 29
    assert m.snookers_required(frame, "A") == 0
    assert m.snookers_required(frame.with_(free_ball=False), "A") == 1
    # One red and a free ball: one more red and black, 8 + 27 + 8.
    one_red = {"white": (0.0, 0.0), "red1": (100.0, 100.0), **SPOTS}
    assert m.referee.points_remaining(_frame(one_red, (0, 0), "red").with_(free_ball=True)) == 43
    # Pink and black with a free ball: 13 + 6.
    last_two = {"white": (0.0, 0.0), "pink": SPOTS["pink"], "black": SPOTS["black"]}
    frame = _frame(last_two, (10, 30), "pink").with_(free_ball=True)
    assert m.referee.points_remaining(frame) == 19
    assert m.snookers_required(frame, "A") == 1
    board = m.scoreboard(replace(m.new_match(best_of=1, draw="A"), frame=frame))
    assert board.points_remaining == 19 and board.snookers_required == (1, 0)
