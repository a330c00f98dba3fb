"""The match around the frames (RULES.md §2, seed §8) and the scoreboard a player reads.

A match is best of N frames; the first break is decided by a draw the server records, and the
players alternate the opening stroke of each frame. `apply` is the one entry point: a command
in, a new `Match` and an `Outcome` out; when a frame ends it is recorded and, unless the match
is decided, the next frame is racked. Rebuilding a match is a fold of `apply` (`replay`).

A match may carry a handicap start (RULES.md §10): `Match.start`, the points each player's
score is set to before the first stroke of every frame. It is part of the score from then on,
so every rule that reads the score (the lead, snookers required, the last black, a tie, the
frame's result) counts it, and nothing else reads it; a break never contains it (the referee's
`brk` and the statistics count only what the rulings award).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rules import referee
from rules.commands import Choose, Claim, Command, Concede, ShotClockExpired, Stroke, Toss, kind
from rules.errors import IllegalRequest, StateFormatError
from rules.outcome import End, Termination
from rules.physics import ShotResult
from rules.referee import Ruling
from rules.state import (
    NO_START,
    PLAYERS,
    FrameState,
    Player,
    load_player,
    load_scores,
    opponent,
    start_refusal,
)
from rules.stroke import play_stroke
from rules.table import VALUES


@dataclass(frozen=True, slots=True)
class FrameRecord:
    number: int  # 1-based
    breaker: Player
    winner: Player
    scores: tuple[int, int]
    final: FrameState  # the frame as it ended (concession included)
    termination: Termination | None = None  # None only in matches stored before it was kept


@dataclass(frozen=True, slots=True)
class Match:
    best_of: int
    first_breaker: Player  # the recorded draw (R2.first-break-draw)
    frame: FrameState  # the frame being played (the last one, once the match is over)
    frames: tuple[FrameRecord, ...] = ()
    winner: Player | None = None
    termination: Termination | None = None  # how the match ended (None while it goes on)
    start: tuple[int, int] = NO_START  # the handicap start of every frame, for A and B (§10)

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


def new_match(best_of: int, draw: Player, start: tuple[int, int] = NO_START) -> Match:
    if best_of < 1 or best_of % 2 == 0:
        raise IllegalRequest("bad_format", f"best of {best_of}: a match is best of an odd number")
    refusal = start_refusal(start)
    if refusal is not None:
        raise IllegalRequest("bad_start", f"start {start}: {refusal}")
    return Match(
        best_of=best_of, first_breaker=draw, frame=referee.new_frame(draw, start), start=start
    )


def _advance(match: Match, frame: FrameState, ended: Termination | None) -> Match:
    """Record a frame that has ended and rack the next one, or end the match."""
    if not frame.frame_over:
        return replace(match, frame=frame)
    assert frame.winner is not None
    number = len(match.frames) + 1
    record = FrameRecord(
        number, breaker_of(match.first_breaker, number), frame.winner, frame.scores, frame, ended
    )
    done = replace(match, frames=(*match.frames, record), frame=frame)
    if done.frames_won(frame.winner) >= frames_to_win(match.best_of):
        return replace(done, winner=frame.winner, termination=Termination.FRAMES)
    breaker = breaker_of(match.first_breaker, number + 1)
    return replace(done, frame=referee.new_frame(breaker, match.start))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the referee's ruling, the stroke's physics, and how a frame or the
    match ended, if one did."""

    ruling: Ruling
    settled: FrameState  # the frame as the command left it, before any next frame is racked
    shot: ShotResult | None = None
    frame_end: End | None = None
    match_end: End | None = None

    @property
    def calls(self) -> tuple[str, ...]:
        return referee.calls(self.ruling, self.settled)


def apply(match: Match, seat: Player | None, command: Command) -> tuple[Match, Outcome]:
    """The one way a match changes: `seat` (None for the server's own commands) does
    `command`. An illegal command raises `IllegalRequest` and changes nothing."""
    if match.over:
        raise IllegalRequest("match_over", f"the match is over: {match.winner} won")
    shot: ShotResult | None = None
    conceded_match: Player | None = None
    if isinstance(command, Toss):
        frame, ruling = referee.toss(match.frame, command.winner)
    elif seat is None:
        raise IllegalRequest("not_a_player", f"{kind(command)} is a player's request")
    elif isinstance(command, Stroke):
        frame, ruling, shot = play_stroke(match.frame, seat, command)
    elif isinstance(command, Choose):
        frame, ruling = referee.choose(match.frame, seat, command.option)
    elif isinstance(command, ShotClockExpired):
        frame, ruling = referee.time_foul(match.frame, seat)
    else:
        loser = seat if isinstance(command, Concede) else opponent(seat)
        frame, ruling = referee.concede(match.frame, loser)
        if isinstance(command, Claim):
            ruling = replace(ruling, ended=Termination.CLAIMED)
        if command.scope == "match":
            conceded_match = loser
    new = _advance(match, frame, ruling.ended)
    if conceded_match is not None:
        assert ruling.ended is not None
        new = replace(new, winner=opponent(conceded_match), termination=ruling.ended)
    frame_end = None
    if ruling.ended is not None:
        assert frame.winner is not None
        frame_end = End(ruling.ended, frame.winner)
    match_end = None
    if new.winner is not None and new.termination is not None:
        match_end = End(new.termination, new.winner)
    return new, Outcome(ruling, frame, shot, frame_end, match_end)


def toss_due(match: Match) -> bool:
    """§7: the re-spotted black waits for the server's draw (a `Toss`)."""
    pending = match.frame.pending
    return not match.over and pending is not None and pending.holder is None


def replay(
    best_of: int,
    draw: Player,
    commands: Iterable[tuple[Player | None, Command]],
    start: tuple[int, int] = NO_START,
) -> Match:
    """The match its stored commands make: a fold of `apply`."""
    match = new_match(best_of, draw, start)
    for seat, command in commands:
        match, _ = apply(match, seat, command)
    return match


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
    start: tuple[int, int] = NO_START  # the handicap start, included in `scores` (§10)


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
        # Snookers are needed only while the frame can still be played.
        snookers_required=(0, 0)
        if match.over or frame.frame_over
        else (snookers_required(frame, PLAYERS[0]), snookers_required(frame, PLAYERS[1])),
        start=match.start,
    )


# --- canonical form ----------------------------------------------------------------------------
def match_to_json(match: Match) -> dict[str, Any]:
    """The stored form. A start is written only when there is one, so a match without a
    start keeps the form it had before starts existed (and old rows read as no start)."""
    out: dict[str, Any] = {
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
                "termination": f.termination,
            }
            for f in match.frames
        ],
        "termination": match.termination,
    }
    if match.start != NO_START:
        out["start"] = {"A": match.start[0], "B": match.start[1]}
    return out


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
                load_termination(raw.get("termination"), f"{where}.termination"),
            )
        )  # fmt: skip
    start = load_scores(data.get("start", {"A": 0, "B": 0}), "match.start")
    refusal = start_refusal(start)
    if refusal is not None:
        raise StateFormatError("match.start", refusal)
    return Match(
        best_of=best_of,
        first_breaker=first,
        frame=FrameState.from_json(data.get("frame")),
        frames=tuple(frames),
        winner=load_player(data.get("winner"), "match.winner", optional=True),
        termination=load_termination(data.get("termination"), "match.termination"),
        start=start,
    )


def load_termination(value: object, path: str) -> Termination | None:
    """Optional: matches stored before terminations were kept have none."""
    if value is None:
        return None
    try:
        return Termination(value)  # type: ignore[arg-type]
    except ValueError:
        raise StateFormatError(path, f"expected a termination, got {value!r}") from None
