"""What the end of a match shows: the result and the frame scores, from the stored state.

Breaks of 50 or more are computed from the stored events by the statistics of the other half
of issue 12 (`rules/stats.py`, branch club-records): `breaks_of_fifty` is the hook for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.models import Match
from rules.match import match_from_json
from rules.state import Player, opponent


@dataclass(frozen=True, slots=True)
class FrameLine:
    number: int
    breaker: str
    scores: tuple[int, int]  # A's, B's
    winner: str
    loser: str
    termination: str | None  # potted_black, foul_on_black, three_misses, conceded, claimed


@dataclass(frozen=True, slots=True)
class Result:
    players: tuple[str, str]  # A, B
    frames_won: tuple[int, int]
    winner: str | None
    loser: str | None
    score: tuple[int, int]  # frames won: the winner's first (A's first while it goes on)
    termination: str | None  # frames, conceded, claimed
    frames: tuple[FrameLine, ...]


@dataclass(frozen=True, slots=True)
class BreakLine:
    player: str
    points: int
    frame: int


def result_of(match: Match) -> Result:
    state = match_from_json(match.state)
    names: dict[Player, str] = {
        "A": match.player_a.get_username(),
        "B": match.player_b.get_username(),
    }
    winner = state.winner
    won = (state.frames_won("A"), state.frames_won("B"))
    return Result(
        players=(names["A"], names["B"]),
        frames_won=won,
        winner=names[winner] if winner else None,
        loser=names[opponent(winner)] if winner else None,
        score=(won[1], won[0]) if winner == "B" else won,
        termination=state.termination.value if state.termination else None,
        frames=tuple(
            FrameLine(
                f.number,
                names[f.breaker],
                f.scores,
                names[f.winner],
                names[opponent(f.winner)],
                f.termination.value if f.termination else None,
            )
            for f in state.frames
        ),
    )


def breaks_of_fifty(match: Match) -> list[BreakLine] | None:
    """HOOK (club-records): the match's breaks of 50 or more, from `rules/stats.py` (the
    statistics computed from the stored events, with the per-match figures table). Until that
    is merged there are none to show: None, and the panel leaves the section out."""
    return None
