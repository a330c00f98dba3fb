"""A finished match as its page shows it, from what was stored: the frames (scores, how each
ended, the final position, the breaks of 50 or more) and the referee's log, event by event;
and, for a replay, one frame's events step by step.

Everything comes from the stored events and the stored state; nothing is simulated again. A
match's archive is read once and kept in the cache under its version (a finished match no
longer changes), so a page view costs a query for the match and, the first time, one for its
events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from game import words
from game.models import Match, MatchEvent
from game.protocol import server_out
from members.figures import acts_of, parse
from rules import stats
from rules.match import match_from_json
from rules.state import PLAYERS, Player

CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Entry:
    """One event in the referee's log: what was done, what the referee ruled, the score."""

    version: int
    frame: int
    kind: str  # stroke, choice, toss, concede, claim, shot_clock
    seat: Player | None
    option: str  # a choice's option ("" otherwise)
    scope: str  # what a concession or a claim was for ("" otherwise)
    toss: Player | None  # the draw's winner
    nominated: str | None
    first_contact: tuple[str, ...]
    potted: tuple[str, ...]  # object balls potted
    in_off: bool  # the cue ball went down
    points: int
    foul: bool
    penalty: int
    fouls: tuple[str, ...]  # the fouls' clauses
    miss: bool
    warning: bool  # a third miss would lose the frame
    free_ball: bool
    touching: str | None  # the ball the cue ball touches after it, if any
    respotted_black: bool
    scores: tuple[int, int]  # the frame's score after it
    frame_over: bool
    winner: Player | None  # the frame's, when it ended it
    # The entry as the live log carries it: the record and the replay word it as the table
    # does (game/words.py, from static/js/lang/), in the page's language (the archive is
    # cached in none).
    log: server_out.LogEntry


@dataclass(frozen=True)
class BreakOut:
    seat: Player
    points: int


@dataclass(frozen=True)
class Frame:
    number: int
    breaker: Player
    winner: Player
    scores: tuple[int, int]
    termination: str  # "" if stored before reasons were kept
    first: int  # the version whose snapshot shows this frame racked
    last: int  # the version that ended it
    strokes: int
    high_breaks: tuple[BreakOut, ...]  # 50 or more, in order
    final: dict[str, tuple[float, float]]  # where the balls were when it ended
    log: tuple[Entry, ...]


@dataclass(frozen=True)
class Archive:
    version: int
    frames: tuple[Frame, ...]
    figures: stats.MatchFigures

    def frame(self, number: int) -> Frame | None:
        return self.frames[number - 1] if 1 <= number <= len(self.frames) else None


def _entry(event: server_out.Event, frame: int, log: server_out.LogEntry) -> Entry:
    ruling, shot, request = event.ruling, event.shot, event.request
    record = event.snapshot.frames[-1] if ruling and ruling.frame_over else None
    board = record.scores if record is not None else event.snapshot.scoreboard.scores
    potted = tuple(b for b in shot.potted if b != "white") if shot else ()
    return Entry(
        version=event.version, frame=frame, kind=event.kind, seat=event.seat,
        option=request.option if isinstance(request, server_out.ChoiceRequest) else "",
        scope=request.scope if isinstance(request, server_out.ScopeRequest) else "",
        toss=request.winner if isinstance(request, server_out.TossRequest) else None,
        nominated=ruling.nominated if ruling else None,
        first_contact=tuple(shot.first_contact) if shot else (),
        potted=potted, in_off=bool(shot and "white" in shot.potted),
        points=ruling.points if ruling else 0,
        foul=bool(ruling and ruling.foul), penalty=ruling.penalty if ruling else 0,
        fouls=tuple(f.clause for f in ruling.fouls) if ruling else (),
        miss=bool(ruling and ruling.miss), warning=bool(ruling and ruling.warning),
        free_ball=bool(ruling and ruling.free_ball), touching=ruling.touching if ruling else None,
        respotted_black=bool(ruling and ruling.respotted_black),
        scores=(board.A, board.B),
        frame_over=record is not None, winner=record.winner if record else None, log=log,
    )  # fmt: skip


def build(row: Match, payloads: list[str]) -> Archive:
    """The archive of a match from its stored state and events (in version order)."""
    events = parse(payloads)
    state = match_from_json(row.state)
    acts = acts_of(events)
    figures = stats.figures(acts, state.start)
    breaks: dict[int, list[BreakOut]] = {}
    for seat in PLAYERS:
        for b in figures.of(seat).high_breaks:
            breaks.setdefault(b.frame, []).append(BreakOut(seat, b.points))
    frames: list[Frame] = []
    log: list[Entry] = []
    first = events[0].version
    strokes = 0
    # The live log's entries (game/logs.py `frame_log`), each with the break before it.
    stored = [server_out.StoredEvent.read(text) for text in payloads]
    break_before = stored[0].snapshot.scoreboard.brk
    for event, act, read in zip(events[1:], acts, stored[1:], strict=True):
        log.append(_entry(event, act.frame, server_out.LogEntry.of(read, break_before)))
        break_before = read.snapshot.scoreboard.brk
        strokes += 1 if event.kind == "stroke" else 0
        if act.frame_winner is None or act.frame > len(state.frames):
            continue
        record = state.frames[act.frame - 1]
        frames.append(
            Frame(
                number=record.number, breaker=record.breaker, winner=record.winner,
                scores=record.scores, termination=str(record.termination or ""),
                first=first, last=event.version, strokes=strokes,
                high_breaks=tuple(breaks.get(record.number, ())),
                final=dict(record.final.balls), log=tuple(log),
            )
        )  # fmt: skip
        first, strokes, log = event.version, 0, []
    return Archive(row.version, tuple(frames), figures)


def archive(row: Match) -> Archive:
    """The archive of a finished match, from the cache or its stored events."""
    # v2: entries carry their LogEntry (an archive cached before lacks it).
    key = f"members:archive:v2:{row.pk}:{row.version}"
    found = cache.get(key)
    if isinstance(found, Archive):
        return found
    payloads = list(
        MatchEvent.objects.filter(match=row).order_by("version").values_list("payload", flat=True)
    )
    made = build(row, payloads)
    cache.set(key, made, CACHE_SECONDS)
    return made


# --- a replay --------------------------------------------------------------------------------
def replay_steps(row: Match, frame: Frame) -> dict[str, Any]:
    """What the replay page animates: the frame as it was racked, then each event's stroke (its
    stored trajectories), calls (in the active language) and the position and score it left.
    The event that ended the frame leaves the frame's final position (its own snapshot already
    shows the next rack)."""
    texts = MatchEvent.objects.filter(
        match=row, version__gte=frame.first, version__lte=frame.last
    ).order_by("version")
    events = parse(texts.values_list("payload", flat=True))
    start = events[0].snapshot
    steps: list[dict[str, Any]] = []
    brk = 0
    for event in events[1:]:
        snap = event.snapshot
        ended = event.version == frame.last
        scores = frame.scores if ended else (snap.scoreboard.scores.A, snap.scoreboard.scores.B)
        # The striker's break: the scoreboard's, except that the frame's last stroke leaves
        # the next rack's board (the break then is the one before it plus what it scored).
        points = event.ruling.points if event.ruling and not event.ruling.foul else 0
        brk = (brk + points if points else 0) if ended else snap.scoreboard.brk
        request = event.request
        steps.append(
            {
                "version": event.version,
                "kind": event.kind,
                "seat": event.seat,
                "cue_ball": request.cue_ball
                if isinstance(request, server_out.StrokeRequest)
                else None,
                "shot": event.shot.model_dump(include={"constants", "trajectories"})
                if event.shot
                else None,
                # The referee's words in the page's language, the table's (the stored ones
                # are English).
                "calls": words.calls(event.ruling),
                "balls": frame.final if ended else snap.frame.balls,
                "scores": {"A": scores[0], "B": scores[1]},
                "break": brk,
            }
        )
    return {
        "frame": frame.number,
        "start": {
            "balls": start.frame.balls,
            "scores": {"A": 0, "B": 0},
            "break": 0,
        },
        "steps": steps,
    }
