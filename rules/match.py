"""The match around the frames (RULES.md §2, seed §8) and the scoreboard a player reads.

A match is best of N frames; the first break is decided by a draw the server records, and the
players alternate the opening stroke of each frame. Every operation returns a new `Match`; when
a frame ends it is recorded and, unless the match is decided, the next frame is racked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from rules import referee
from rules.errors import IllegalRequest, StateFormatError
from rules.referee import Ruling
from rules.state import PLAYERS, FrameState, Player, Shot, load_player, load_scores, opponent
from rules.table import VALUES


@dataclass(frozen=True, slots=True)
class FrameRecord:
    number: int  # 1-based
    breaker: Player
    winner: Player
    scores: tuple[int, int]
    final: FrameState  # the frame as it ended (concession included)


@dataclass(frozen=True, slots=True)
class Match:
    best_of: int
    first_breaker: Player  # the recorded draw (R2.first-break-draw)
    frame: FrameState  # the frame being played (the last one, once the match is over)
    frames: tuple[FrameRecord, ...] = ()
    winner: Player | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def frame_number(self) -> int:
        return len(self.frames) + (0 if self.over else 1)

    def frames_won(self, player: Player) -> int:
        return sum(1 for f in self.frames if f.winner == player)


def frames_to_win(best_of: int) -> int:
    return best_of // 2 + 1


def breaker_of(first_breaker: Player, number: int) -> Player:
    """§8: the opening stroke alternates from frame to frame."""
    return first_breaker if number % 2 == 1 else opponent(first_breaker)


def new_match(best_of: int, draw: Player) -> Match:
    if best_of < 1 or best_of % 2 == 0:
        raise IllegalRequest("bad_format", f"best of {best_of}: a match is best of an odd number")
    return Match(best_of=best_of, first_breaker=draw, frame=referee.new_frame(draw))


def advance(match: Match, frame: FrameState) -> Match:
    """Record a frame that has ended and rack the next one, or end the match."""
    if not frame.frame_over:
        return replace(match, frame=frame)
    assert frame.winner is not None
    number = len(match.frames) + 1
    record = FrameRecord(
        number, breaker_of(match.first_breaker, number), frame.winner, frame.scores, frame
    )
    done = replace(match, frames=(*match.frames, record), frame=frame)
    if done.frames_won(frame.winner) >= frames_to_win(match.best_of):
        return replace(done, winner=frame.winner)
    return replace(done, frame=referee.new_frame(breaker_of(match.first_breaker, number + 1)))


def check_live(match: Match) -> None:
    if match.over:
        raise IllegalRequest("match_over", f"the match is over: {match.winner} won")


def strike(match: Match, by: Player, shot: Shot) -> tuple[Match, Ruling]:
    check_live(match)
    frame, ruling = referee.strike(match.frame, by, shot)
    return advance(match, frame), ruling


def choose(match: Match, by: Player, option: str) -> tuple[Match, Ruling]:
    check_live(match)
    frame, ruling = referee.choose(match.frame, by, option)
    return advance(match, frame), ruling


def toss(match: Match, winner: Player) -> tuple[Match, Ruling]:
    check_live(match)
    frame, ruling = referee.toss(match.frame, winner)
    return advance(match, frame), ruling


def concede_frame(match: Match, by: Player) -> tuple[Match, Ruling]:
    check_live(match)
    frame, ruling = referee.concede(match.frame, by)
    return advance(match, frame), ruling


def concede_match(match: Match, by: Player) -> tuple[Match, Ruling]:
    """The other player wins the match; the frame in play is recorded as conceded."""
    check_live(match)
    frame, ruling = referee.concede(match.frame, by)
    recorded = advance(match, frame)
    return replace(recorded, winner=opponent(by)), ruling


# --- the scoreboard --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Scoreboard:
    scores: tuple[int, int]
    frames: tuple[int, int]
    best_of: int
    frame_number: int
    striker: Player
    to_act: Player | None
    on: str
    current_break: int
    points_remaining: int
    snookers_required: tuple[int, int]  # for A and for B


def snookers_required(frame: FrameState, player: Player) -> int:
    """How many snookers `player` needs (docs/referee-decisions.md), 0 if none."""
    mine = frame.score(player)
    theirs = frame.score(opponent(player))
    short = theirs - mine - referee.points_remaining(frame)
    if short <= 0:
        return 0
    lowest = 1 if frame.on in ("red", "colour") else VALUES[frame.on]
    return math.ceil(short / max(4, lowest))


def scoreboard(match: Match) -> Scoreboard:
    frame = match.frame
    return Scoreboard(
        scores=frame.scores,
        frames=(match.frames_won("A"), match.frames_won("B")),
        best_of=match.best_of,
        frame_number=match.frame_number,
        striker=frame.striker,
        to_act=None if match.over else frame.to_act,
        on=frame.on,
        current_break=frame.brk,
        points_remaining=referee.points_remaining(frame),
        snookers_required=(
            snookers_required(frame, PLAYERS[0]),
            snookers_required(frame, PLAYERS[1]),
        ),
    )


# --- canonical form ----------------------------------------------------------------------------
def match_to_json(match: Match) -> dict[str, Any]:
    return {
        "best_of": match.best_of,
        "first_breaker": match.first_breaker,
        "winner": match.winner,
        "frame": match.frame.to_json(),
        "frames": [
            {
                "number": f.number,
                "breaker": f.breaker,
                "winner": f.winner,
                "scores": {"A": f.scores[0], "B": f.scores[1]},
                "final": f.final.to_json(),
            }
            for f in match.frames
        ],
    }


def match_from_json(data: object) -> Match:
    if not isinstance(data, dict):
        raise StateFormatError("match", "expected an object")
    best_of = data.get("best_of")
    if not isinstance(best_of, int) or isinstance(best_of, bool) or best_of < 1:
        raise StateFormatError("match.best_of", f"expected a whole number >= 1, got {best_of!r}")
    first = load_player(data.get("first_breaker"), "match.first_breaker")
    assert first is not None
    frames_raw = data.get("frames", [])
    if not isinstance(frames_raw, list):
        raise StateFormatError("match.frames", "expected a list")
    frames: list[FrameRecord] = []
    for i, raw in enumerate(frames_raw):
        where = f"match.frames[{i}]"
        if not isinstance(raw, dict):
            raise StateFormatError(where, "expected an object")
        breaker = load_player(raw.get("breaker"), f"{where}.breaker")
        winner = load_player(raw.get("winner"), f"{where}.winner")
        number = raw.get("number")
        if not isinstance(number, int) or breaker is None or winner is None:
            raise StateFormatError(f"{where}.number", "expected a frame number")
        frames.append(
            FrameRecord(
                number, breaker, winner, load_scores(raw.get("scores"), f"{where}.scores"),
                FrameState.from_json(raw.get("final")),
            )
        )  # fmt: skip
    return Match(
        best_of=best_of,
        first_breaker=first,
        frame=FrameState.from_json(data.get("frame")),
        frames=tuple(frames),
        winner=load_player(data.get("winner"), "match.winner", optional=True),
    )
