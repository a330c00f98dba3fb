"""Statistics against golden matches: real strokes and decisions folded through
`rules.match.apply` (tests/rules/golden/stats_*.json, written by tests/rules/stats_bot.py),
each figure asserted exactly; and the definitions on hand-made acts and trajectories.

The breaks expected below are the referee's own count: the frame state's `brk` when each visit
ended, as the bot printed it while playing (and `test_breaks_are_the_referees_count` checks it
again), not what `rules.stats` says.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules import stats
from rules.match import Match, apply, match_to_json, new_match, replay
from rules.outcome import Termination
from rules.state import PLAYERS, Player
from rules.stats import Act, Break
from rules.table import POCKETS
from tests.rules.stats_golden import check, golden


def figures_of(name: str) -> tuple[Match, stats.MatchFigures]:
    start, played = golden(name)
    match, acts = stats.played(start, played)
    return match, stats.figures(acts)


# --- golden matches ----------------------------------------------------------------------------
def test_a_century_and_two_more_breaks_of_fifty() -> None:
    """Best of 3 from the rack. Frame 1: A's break-off is a foul (4), B plays on and clears
    with 120. Frame 2: B's break-off is a foul (5), A plays on and makes 50, then misses; B
    makes 7; safeties; B makes 69 and wins the frame 76-55. B wins 2-0."""
    match, f = figures_of("stats_century")
    assert match.over and match.winner == "B" and match.termination is Termination.FRAMES
    assert [r.scores for r in match.frames] == [(0, 124), (55, 76)]
    a, b = f.A, f.B
    assert f.winner == "B" and b.won and not a.won
    assert (b.frames_won, b.frames_lost, a.frames_won, a.frames_lost) == (2, 0, 0, 2)
    assert b.breaks == (Break(1, 120), Break(2, 7), Break(2, 69))
    assert a.breaks == (Break(2, 50),)
    assert (b.highest_break, b.centuries, b.high_breaks) == (120, 1, (Break(1, 120), Break(2, 69)))
    assert (a.highest_break, a.centuries, a.high_breaks) == (50, 0, (Break(2, 50),))
    assert (b.break_points, b.average_break) == (196, pytest.approx(196 / 3))
    assert (a.break_points, a.average_break) == (50, 50.0)
    # 36 pots in the clearance, 2 in the 7, 18 in the 69; 16 in the 50.
    assert (b.pots, a.pots) == (56, 16)
    # Every other stroke was a safety (the bot plays one when it sees no pot): no attempts.
    assert (b.attempts, a.attempts) == (56, 16)
    assert b.pot_success == a.pot_success == 1.0
    assert (a.fouls, a.foul_points, b.fouls, b.foul_points) == (1, 4, 1, 5)
    # Both frames ended on the last black, neither decided by it (124 and 14 ahead).
    assert [r.termination for r in match.frames] == [Termination.POTTED_BLACK] * 2
    assert (a.won_on_black, b.won_on_black) == (0, 0)


def test_a_frame_decided_on_the_re_spotted_black() -> None:
    """Pink and black left, A 13 behind: A pots both (a break of 13), the black is re-spotted,
    B wins the draw and passes, A's time runs out: a foul of 7 on the black ends the frame."""
    match, f = figures_of("stats_black_ball")
    assert match.winner == "B" and match.frames[0].scores == (63, 70)
    assert match.frames[0].termination is Termination.FOUL_ON_BLACK
    assert f.A.breaks == (Break(1, 13),) and f.B.breaks == ()
    assert (f.A.pots, f.A.attempts) == (2, 2)
    assert (f.A.fouls, f.A.foul_points) == (1, 7)
    assert (f.B.won_on_black, f.A.won_on_black) == (1, 0)
    assert (f.B.frames_won, f.A.frames_lost, f.B.won) == (1, 1, True)


def test_misses_a_missed_pot_a_concession_mid_break_the_shot_clock_and_a_claim() -> None:
    """Frame 1: A breaks off; B misses twice (A has the balls replaced, then plays on); A pots
    red, green, red (5) and misses a red into a pocket; B pots a red and A concedes the frame.
    Frame 2: B's break-off pots a red, then B's time runs out (7: a colour on, none nominated);
    A puts B back in, then claims the match."""
    match, f = figures_of("stats_misses")
    assert match.winner == "A" and match.termination is Termination.CLAIMED
    assert [r.termination for r in match.frames] == [Termination.CONCEDED, Termination.CLAIMED]
    assert [r.winner for r in match.frames] == ["B", "A"]
    assert f.A.breaks == (Break(1, 5),)
    # A break cut short by the opponent's concession counts; a red on the break-off too.
    assert f.B.breaks == (Break(1, 1), Break(2, 1))
    assert (f.A.pots, f.A.attempts) == (3, 4)  # the missed red; the break-off is no attempt
    assert (f.B.pots, f.B.attempts) == (2, 2)  # hitting nothing is no attempt
    assert (f.B.fouls, f.B.foul_points) == (3, 15)
    assert (f.A.fouls, f.A.foul_points) == (0, 0)
    assert (f.A.frames_won, f.A.frames_lost, f.B.frames_won, f.B.frames_lost) == (1, 1, 1, 1)
    assert f.A.won and not f.B.won
    assert (f.A.won_on_black, f.B.won_on_black) == (0, 0)


GOLDEN = ["stats_century", "stats_black_ball", "stats_misses"]


@pytest.mark.parametrize("name", GOLDEN)
def test_the_golden_matches_play_as_recorded(name: str) -> None:
    check(name)


@pytest.mark.parametrize("name", GOLDEN)
def test_the_fold_is_the_match_replay(name: str) -> None:
    """`stats.played` makes the same match as `rules.match.replay` (a fold of `apply`)."""
    start, played = golden(name)
    match, acts = stats.played(start, played)
    assert len(acts) == len(played)
    if start == new_match(start.best_of, start.first_breaker):
        again = replay(start.best_of, start.first_breaker, played)
        assert match_to_json(again) == match_to_json(match)


def test_breaks_are_the_referees_count() -> None:
    """Each break is the frame state's `brk` after the visit's last scoring stroke."""
    start, played = golden("stats_century")
    match, by_referee = start, []
    last: tuple[Player, int, int] | None = None
    for seat, command in played:
        before = match
        match, outcome = apply(match, seat, command)
        scored = outcome.shot is not None and not outcome.ruling.foul and outcome.ruling.points
        if last is not None and not (scored and seat == last[0]):
            by_referee.append(last)
            last = None
        if scored:
            assert seat is not None
            last = (seat, before.frame_number, outcome.settled.brk)
        if outcome.frame_end is not None and last is not None:
            by_referee.append(last)
            last = None
    _, f = figures_of("stats_century")
    counted = sorted(
        [(s, b.frame, b.points) for s in PLAYERS for b in f.of(s).breaks],
        key=lambda t: (t[1], t[2]),
    )
    assert sorted(by_referee, key=lambda t: (t[1], t[2])) == counted


# --- the definitions on hand-made acts ---------------------------------------------------------
def pot(seat: Player, points: int, frame: int = 1, **kw: Any) -> Act:
    return Act("stroke", seat, frame, points=points, aimed=True, **kw)


def miss(seat: Player, frame: int = 1, aimed: bool = True) -> Act:
    return Act("stroke", seat, frame, aimed=aimed)


def foul(seat: Player, penalty: int, frame: int = 1, kind: str = "stroke") -> Act:
    return Act(kind, seat, frame, foul=True, penalty=penalty)


def test_a_visit_ends_with_a_miss_a_foul_or_the_frame() -> None:
    f = stats.figures(
        [
            pot("A", 1), pot("A", 7), miss("A"),  # 8
            pot("B", 1), pot("B", 6), foul("B", 4),  # 7
            Act("choice", "A", 1),
            pot("A", 1), Act("choice", "B", 1),  # a choice between: two visits
            pot("A", 1), pot("A", 5),  # 6, ended by the frame's end below
            Act("concede", "B", 1, frame_winner="A", frame_ended=Termination.CONCEDED),
            pot("A", 1, frame=2), pot("A", 1, frame=3),  # a new frame: a new visit
        ]
    )  # fmt: skip
    assert f.A.breaks == (Break(1, 8), Break(1, 1), Break(1, 6), Break(2, 1), Break(3, 1))
    assert f.B.breaks == (Break(1, 7),)
    assert (f.B.fouls, f.B.foul_points) == (1, 4)
    assert f.winner is None and not f.A.won and not f.B.won


def test_breaks_of_fifty_and_centuries() -> None:
    acts = [pot("A", 8)] * 7 + [miss("A")] + [pot("A", 8)] * 13 + [miss("A")]  # 56 and 104
    acts += [pot("B", 7)] * 7  # 49
    f = stats.figures(acts)
    assert f.A.breaks == (Break(1, 56), Break(1, 104))
    assert f.A.high_breaks == f.A.breaks and f.A.centuries == 1 and f.A.highest_break == 104
    assert f.B.high_breaks == () and f.B.highest_break == 49
    assert f.A.average_break == 80.0


def test_pots_and_attempts() -> None:
    f = stats.figures(
        [
            Act("stroke", "A", 1, opening=True, aimed=True),  # a break-off is no attempt
            miss("A"),  # aimed at a pocket and missed: an attempt
            miss("A", aimed=False),  # a safety: no attempt
            Act("stroke", "A", 1, points=1),  # a pot, however it went in
            Act("stroke", "A", 1, foul=True, penalty=4, aimed=True),  # aimed, then in-off
            Act("stroke", "B", 1, opening=True, points=1),  # a pot from the break-off
        ]
    )
    assert (f.A.pots, f.A.attempts) == (1, 3)
    assert (f.B.pots, f.B.attempts) == (1, 1)
    assert f.A.pot_success == pytest.approx(1 / 3)
    assert stats.figures([]).A.pot_success is None and stats.figures([]).A.average_break is None


@pytest.mark.parametrize(
    ("ended", "scores", "respotted", "on_black"),
    [
        (Termination.POTTED_BLACK, (60, 54), False, True),  # 6 ahead: the black decided it
        (Termination.POTTED_BLACK, (54, 61), False, True),  # 7 behind, the leader pots it
        (Termination.POTTED_BLACK, (80, 10), False, False),  # long decided
        (Termination.FOUL_ON_BLACK, (50, 52), False, True),  # the opponent fouled it
        (Termination.FOUL_ON_BLACK, (70, 52), False, False),
        (Termination.POTTED_BLACK, (63, 63), True, True),  # the re-spotted black
        (Termination.FOUL_ON_BLACK, (63, 63), True, True),
        (Termination.CONCEDED, (63, 63), True, True),  # conceded at the re-spotted black
        (Termination.CONCEDED, (50, 52), False, False),
        (None, (60, 54), False, False),  # stored before reasons were kept
    ],
)
def test_frames_won_on_the_black(
    ended: Termination | None, scores: tuple[int, int], respotted: bool, on_black: bool
) -> None:
    acts = []
    if respotted:
        acts.append(Act("toss", None, 1, scores=scores, respotted_black=True))
    acts.append(Act("stroke", "A", 1, scores=scores, frame_winner="A", frame_ended=ended))
    f = stats.figures(acts)
    assert f.A.won_on_black == int(on_black) and f.B.won_on_black == 0
    assert (f.A.frames_won, f.B.frames_lost) == (1, 1)


def test_the_match_result() -> None:
    f = stats.figures([Act("concede", "A", 1, frame_winner="B", match_winner="B")])
    assert f.winner == "B" and f.B.won and not f.A.won


# --- where a struck ball went ------------------------------------------------------------------
def rows_from(start: tuple[float, float], angle: float) -> list[list[float]]:
    """A ball at rest until 0.1 s, then sliding off along `angle` at 1000 mm/s."""
    vx, vy = 1000 * math.cos(angle), 1000 * math.sin(angle)
    return [[0, 3, *start], [0.1, 0, *start, vx, vy, 0, 0], [2, 3, 0, 0]]


def towards(start: tuple[float, float], name: str, off: float = 0.0) -> float:
    mouth = next(p.mouth for p in POCKETS if p.name == name)
    return math.atan2(mouth[1] - start[1], mouth[0] - start[0]) + off


@pytest.mark.parametrize(
    ("pocket", "off_mm", "aimed"),
    [
        ("top_right", 0.0, True),
        ("middle_left", 0.0, True),
        ("top_right", 60.0, True),  # wide, but some of the ball reaches the opening
        ("top_right", 80.0, False),  # clear of the opening
        ("bottom_left", 0.0, True),
    ],
)
def test_a_ball_set_off_towards_a_pocket(pocket: str, off_mm: float, aimed: bool) -> None:
    start = (100.0, 400.0)
    mouth = next(p.mouth for p in POCKETS if p.name == pocket)
    distance = math.dist(start, mouth)
    angle = towards(start, pocket, math.asin(off_mm / distance))
    trajectories: dict[str, list[list[float]]] = {
        "red3": rows_from(start, angle),
        "white": [[0, 0, 0, 0, 1, 1]],
    }
    assert stats.aimed_at_pocket(["red3"], trajectories) is aimed


def test_a_ball_sent_away_from_every_pocket_or_not_moved() -> None:
    start = (0.0, 0.0)
    assert not stats.aimed_at_pocket(["red3"], {"red3": rows_from(start, 1.3)})
    assert not stats.aimed_at_pocket(["red3"], {"red3": [[0, 3, 0, 0]]})
    assert not stats.aimed_at_pocket([], {"red3": rows_from(start, 0.0)})
    # Either of two balls struck at once will do.
    side = (10.0, 0.0)
    both = {"red3": rows_from(start, 1.3), "red4": rows_from(side, towards(side, "middle_right"))}
    assert stats.aimed_at_pocket(["red3", "red4"], both)


# --- a scorer's sheet ---------------------------------------------------------------------------
# A best-of-3 match as a scorer writes it down, visit by visit: each figure below the sheet was
# added up by hand from these lines, not taken from rules.stats. A stroke is a pot worth N ("7"),
# a missed pot ("x"), a safety ("s"), a foul giving N away ("F4"), or one played at a pocket
# that ended in a foul ("xF4"); "open:" marks a frame's opening stroke, "clock7" the shot clock.
SHEET = """
1 A open:s
1 B s
1 A 1 7 1 7 x
1 B 1 6 xF4
1 A play
1 A s
1 B x
1 A 1 7 1 7 1 7 1 7 1 7 1 7 1 2 s
1 B concedes
2 B open:s
2 A clock7
2 B put_back
2 A x
2 B 1 7 1 7 1 7 1 7 1 7 1 7 1 7 1 7 1 7 1 7 1 7 1 7 1 7 x
2 A concedes
3 A open:1 7 x
3 B 1 5 s
3 A concedes match
"""
# A: breaks 16 (frame 1), 51 (frame 1), 8 (frame 3); pots 4 + 14 + 2 = 20; attempts
#    5 + 14 + 1 + 3 = 23 (the opening safety and the safeties are none); one foul, 7 points.
# B: breaks 7, 104 (frame 2), 6; pots 2 + 26 + 2 = 30; attempts 3 + 1 + 27 + 2 = 33 (the
#    in-off played at a pocket is one); one foul, 4 points; frames 2 of 3, and the match.
HAND = {
    "A": {"frames": (1, 2), "breaks": [(1, 16), (1, 51), (3, 8)], "highest": 51,
          "fifties": [(1, 51)], "centuries": 0, "average": 25.0, "pots": (20, 23),
          "fouls": (1, 7), "won": False},
    "B": {"frames": (2, 1), "breaks": [(1, 7), (2, 104), (3, 6)], "highest": 104,
          "fifties": [(2, 104)], "centuries": 1, "average": 39.0, "pots": (30, 33),
          "fouls": (1, 4), "won": True},
}  # fmt: skip


def sheet_acts(sheet: str) -> list[Act]:
    """The sheet's lines as the acts the server would store (one per stroke or decision)."""
    acts: list[Act] = []
    for line in sheet.strip().splitlines():
        frame_text, seat, *strokes = line.split()
        frame = int(frame_text)
        assert seat in ("A", "B")
        player: Player = "A" if seat == "A" else "B"
        other: Player = "B" if seat == "A" else "A"
        for n, word in enumerate(strokes):
            opening = n == 0 and word.startswith("open:")
            word = word.removeprefix("open:")
            if word in ("play", "put_back"):
                acts.append(Act("choice", player, frame))
            elif word == "concedes":
                last = strokes[n + 1 :] == ["match"]
                acts.append(
                    Act("concede", player, frame, frame_winner=other,
                        frame_ended=Termination.CONCEDED, match_winner=other if last else None)
                )  # fmt: skip
                break
            elif word.startswith("clock"):
                acts.append(Act("shot_clock", player, frame, foul=True, penalty=int(word[5:])))
            elif "F" in word:
                aimed, penalty = word.split("F")
                acts.append(Act("stroke", player, frame, foul=True, penalty=int(penalty),
                                aimed=aimed == "x", opening=opening))  # fmt: skip
            elif word in ("x", "s"):
                acts.append(Act("stroke", player, frame, aimed=word == "x", opening=opening))
            else:
                acts.append(
                    Act("stroke", player, frame, points=int(word), aimed=True, opening=opening)
                )
    return acts


def test_a_scorers_sheet_adds_up_as_the_scorer_did() -> None:
    f = stats.figures(sheet_acts(SHEET))
    assert f.winner == "B"
    for seat in PLAYERS:
        mine, hand = f.of(seat), HAND[seat]
        assert (mine.frames_won, mine.frames_lost) == hand["frames"]
        assert [(b.frame, b.points) for b in mine.breaks] == hand["breaks"]
        assert mine.highest_break == hand["highest"]
        assert [(b.frame, b.points) for b in mine.high_breaks] == hand["fifties"]
        assert mine.centuries == hand["centuries"]
        assert mine.average_break == hand["average"]
        assert (mine.pots, mine.attempts) == hand["pots"]
        assert (mine.fouls, mine.foul_points) == hand["fouls"]
        assert mine.won is hand["won"] and mine.won_on_black == 0
