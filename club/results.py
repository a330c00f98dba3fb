"""What the end of a match shows: the result and the frame scores, from the stored state,
and the breaks of 50 or more that `members` recorded when the match ended (`rules/stats.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.models import Match
from game.text import player_name
from members.models import HighBreak
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
        "A": player_name(match.player_a.get_username()),
        "B": player_name(match.player_b.get_username()),
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
    """The match's breaks of 50 or more, in the order made; None while it goes on (they are
    recorded when it ends)."""
    if match.status != Match.Status.FINISHED:
        return None
    rows = HighBreak.objects.filter(match=match).select_related("player")
    return [
        BreakLine(player_name(row.player.get_username()), row.points, row.frame) for row in rows
    ]
