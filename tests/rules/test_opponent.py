"""The computer opponent (rules/opponent, docs/opponent.md): it plays a match to the end with
requests the referee accepts, its hand errs as its level says, and it decides the clear cases
after a foul as a player would."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from rules import match as m
from rules.commands import Choose, Concede, Stroke
from rules.opponent import CLUB, NOVICE, PRO, decide
from rules.opponent.model import SIDE_SHARE, aim_sigma, execute
from rules.opponent.player import option_values
from rules.opponent.selfplay import Step, play_match
from rules.state import FrameState, Pending, make_balls
from rules.table import SPOTS, WHITE


def colours_only(white: tuple[float, float] = (150.0, -300.0)) -> FrameState:
    """The last three colours on their spots, blue on, the scores close: a short frame."""
    balls = {WHITE: white, **{c: SPOTS[c] for c in ("blue", "pink", "black")}}
    return FrameState(balls=make_balls(balls), striker="A", scores=(50, 48), on="blue")


def test_a_seeded_match_plays_to_the_end_with_every_request_accepted() -> None:
    steps: list[Step] = []
    match = play_match(
        {"A": NOVICE, "B": CLUB}, random.Random(7), start=colours_only(), max_strokes=40,
        on_step=steps.append,
    )  # fmt: skip
    assert match.over and match.winner is not None
    assert any(isinstance(s.command, Stroke) for s in steps)
    # Every command went through `apply` (it raises on a refused one); replayed from the same
    # start they make the same match, and the same seed makes the same commands.
    again: list[Step] = []
    play_match(
        {"A": NOVICE, "B": CLUB}, random.Random(7), start=colours_only(), max_strokes=40,
        on_step=again.append,
    )  # fmt: skip
    assert [s.command for s in again] == [s.command for s in steps]
    replayed = m.Match(1, "A", colours_only())
    for step in steps:
        replayed, _ = m.apply(replayed, step.seat, step.command)
    assert replayed.frames[-1].scores == match.frames[-1].scores


@pytest.mark.parametrize("level", [NOVICE, CLUB, PRO], ids=lambda lv: lv.name)
def test_the_hands_spread_matches_the_levels_parameters(level: object) -> None:
    assert level in (NOVICE, CLUB, PRO)
    lv = NOVICE if level is NOVICE else CLUB if level is CLUB else PRO
    rng = random.Random(3)
    meant = Stroke(1.0, 2.0, 0.0, 0.0)
    distance, cut = 1200.0, math.radians(30)
    struck = [execute(meant, lv, rng, distance, cut) for _ in range(4000)]
    expected = {
        "angle": aim_sigma(lv, distance, cut),
        "speed": lv.pace * meant.speed,
        "height": lv.spin,
        "side": lv.spin * SIDE_SHARE,
    }
    for name, sigma in expected.items():
        values = [getattr(s, name) for s in struck]
        assert statistics.fmean(values) == pytest.approx(getattr(meant, name), abs=sigma * 0.1)
        assert statistics.stdev(values) == pytest.approx(sigma, rel=0.06), name
    # The error grows with the distance and the cut, and falls with the level.
    assert aim_sigma(lv, 2000, 0.0) > aim_sigma(lv, 500, 0.0)
    assert aim_sigma(lv, 1000, math.radians(60)) > aim_sigma(lv, 1000, 0.0)
    assert aim_sigma(PRO, 1000, 0.3) < aim_sigma(CLUB, 1000, 0.3) < aim_sigma(NOVICE, 1000, 0.3)


def after_foul(balls: dict[str, tuple[float, float]], **pending: object) -> FrameState:
    """B holds the decision after A's foul."""
    options = pending.pop("options", ("play", "put_back"))
    return FrameState(
        balls=make_balls(balls), striker="B", scores=(20, 24),
        pending=Pending("B", options, "A", pending.pop("restore", None)),  # type: ignore[arg-type]
    )  # fmt: skip


EASY_RED = {WHITE: (300.0, 1205.0), "red1": (600.0, 1500.0), "black": SPOTS["black"]}
# Reds tight on the top cushion, the cue ball in baulk: nothing for either player to pot.
NOTHING_ON = {
    WHITE: (0.0, -1500.0), "red1": (0.0, 1757.0), "red2": (300.0, 1757.0),
    "black": SPOTS["black"],
}  # fmt: skip


def choice(frame: FrameState) -> str:
    decision = decide(m.Match(1, "A", frame), "B", PRO, random.Random(1))
    assert decision is not None and isinstance(decision.command, Choose)
    return decision.command.option


def test_an_easy_pot_left_by_the_foul_is_played() -> None:
    assert choice(after_foul(EASY_RED)) == "play"


def test_nothing_on_and_tight_on_a_cushion_after_the_foul_is_put_back() -> None:
    frame = after_foul({**NOTHING_ON, WHITE: (200.0, -1757.0)})
    values = option_values(frame, "B", PRO)
    assert values["put_back"] > values["play"]
    assert choice(frame) == "put_back"


def test_a_miss_from_a_snooker_is_replaced() -> None:
    # A was snookered on the only red behind the brown and missed it.
    restore = FrameState(
        balls=make_balls({WHITE: (0.0, -1150.0), "brown": SPOTS["brown"], "red1": (0.0, 1000.0)}),
        striker="A", scores=(20, 20),
    )  # fmt: skip
    frame = after_foul(NOTHING_ON, options=("play", "put_back", "replace"), restore=restore)
    assert choice(frame) == "replace"


def test_an_easy_pot_beats_replacing_a_miss() -> None:
    restore = FrameState(balls=make_balls(dict(EASY_RED)), striker="A", scores=(20, 20))
    frame = after_foul(EASY_RED, options=("play", "put_back", "replace"), restore=restore)
    assert choice(frame) == "play"


def test_it_concedes_when_it_needs_more_snookers_than_are_left() -> None:
    frame = FrameState(
        balls=make_balls({WHITE: (0.0, 0.0), "pink": SPOTS["pink"], "black": SPOTS["black"]}),
        striker="A", scores=(10, 50), on="pink",
    )  # fmt: skip
    decision = decide(m.Match(1, "A", frame), "A", CLUB, random.Random(1))
    assert decision is not None and decision.command == Concede("frame")
    level = frame.with_(scores=(40, 50))  # 10 behind, 13 left: it plays on
    decision = decide(m.Match(1, "A", level), "A", CLUB, random.Random(1))
    assert decision is not None and isinstance(decision.command, Stroke)


def test_a_free_ball_is_nominated_when_it_is_the_pot() -> None:
    # Red on, but only colours (as a free ball) can be potted: one is nominated and scores 1.
    balls = {**NOTHING_ON, WHITE: (300.0, 1205.0), "blue": (600.0, 1500.0), "pink": SPOTS["pink"]}
    del balls["black"]
    frame = FrameState(balls=make_balls(balls), striker="A", scores=(20, 20), free_ball=True)
    decision = decide(m.Match(1, "A", frame), "A", PRO, random.Random(2))
    assert decision is not None and isinstance(decision.command, Stroke)
    assert decision.command.nominated in ("blue", "pink") and decision.kind == "pot"
    _, outcome = m.apply(m.Match(1, "A", frame), "A", decision.command)
    assert outcome.ruling.points == 1 and not outcome.ruling.foul


def test_a_decision_is_reproducible_and_not_its_turn_is_none() -> None:
    match = m.Match(1, "A", colours_only())
    first = decide(match, "A", CLUB, random.Random(5))
    second = decide(match, "A", CLUB, random.Random(5))
    assert first is not None and second is not None and first.command == second.command
    assert decide(match, "B", CLUB, random.Random(5)) is None


def test_a_snookered_player_escapes_off_a_cushion() -> None:
    # The only red sits behind the blue from the cue ball: no straight line reaches it.
    frame = FrameState(
        balls=make_balls({WHITE: (0.0, -300.0), "blue": SPOTS["blue"], "red1": (0.0, 600.0)}),
        striker="A", scores=(20, 20),
    )  # fmt: skip
    decision = decide(m.Match(1, "A", frame), "A", CLUB, random.Random(4))
    assert decision is not None and decision.meant is not None
    _, outcome = m.apply(m.Match(1, "A", frame), "A", decision.meant)
    assert not outcome.ruling.foul  # the stroke it meant hits the red first


def test_a_servers_clock_stops_the_search_in_time() -> None:
    # Each look at the clock finds 0.3 s gone: a 1 s limit allows three simulations.
    ticks = iter(i * 0.3 for i in range(1000))
    match = m.Match(1, "A", colours_only())
    decision = decide(match, "A", PRO, random.Random(1), clock=lambda: next(ticks), seconds=1.0)
    assert decision is not None and decision.sims <= 4
    m.apply(match, "A", decision.command)  # still a stroke the referee accepts


def test_a_servers_pause_comes_before_each_simulation() -> None:
    calls: list[None] = []
    match = m.Match(1, "A", colours_only())
    decision = decide(match, "A", PRO, random.Random(1), pause=lambda: calls.append(None))
    assert decision is not None and decision.sims > 0
    assert len(calls) == decision.sims
