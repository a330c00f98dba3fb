"""The computer against itself: a match played to the end through `rules.match.apply`, every
request as a browser's would be (the tests and `make bench-opponent` use it).

The server's only part is the draw for the re-spotted black, which a seeded coin decides. A
frame that runs past `max_strokes` is conceded by the player behind, so a run always ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from rules import match as m
from rules.commands import Command, Concede, Toss
from rules.match import Match, Outcome
from rules.opponent.model import Level
from rules.opponent.player import Decision, decide
from rules.state import NO_START, PLAYERS, FrameState, Player


@dataclass(frozen=True, slots=True)
class Step:
    """One request of the match: who made it, what the computer meant, what it did."""

    seat: Player | None
    command: Command
    decision: Decision | None
    before: FrameState
    outcome: Outcome
    seconds: float  # the decision's thinking time (0 for the server's draw)


def play_match(
    levels: dict[Player, Level],
    rng: random.Random,
    *,
    best_of: int = 1,
    draw: Player = "A",
    start: FrameState | None = None,
    handicap: tuple[int, int] = NO_START,
    max_strokes: int = 300,
    clock: Callable[[], float] | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> Match:
    """Play a match (from `start`, a frame already set up, if given; with a `handicap` start,
    RULES.md §10) to its end."""
    match = m.new_match(best_of, draw, handicap)
    if start is not None:
        match = Match(best_of, draw, start)
    strokes = 0
    number = match.frame_number
    while not match.over:
        if match.frame_number != number:
            number, strokes = match.frame_number, 0
        before = match.frame
        seat: Player | None
        command: Command
        decision: Decision | None = None
        seconds = 0.0
        if m.toss_due(match):
            seat, command = None, Toss(PLAYERS[rng.randrange(2)])
        elif strokes >= max_strokes:
            a, b = before.scores
            seat = "A" if a < b else "B"
            command = Concede("frame")
        else:
            seat = before.to_act
            assert seat is not None
            started = clock() if clock else 0.0
            decision = decide(match, seat, levels[seat], rng)
            seconds = (clock() - started) if clock else 0.0
            assert decision is not None
            command = decision.command
            strokes += 1
        match, outcome = m.apply(match, seat, command)
        if on_step is not None:
            on_step(Step(seat, command, decision, before, outcome, seconds))
    return match
