"""A finished match's figures, from its stored events, written once (members.models).

`record_finished` hears `game.signals.match_finished`, sent when the match service has stored a
match's final event, inside that transaction: the figures land with the result, or (should
anything here fail) the match still ends and `manage.py record_figures` writes them later. The
events are read as the server sent them (`server_out.Event`); the statistics are `rules.stats`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.db import transaction
from pydantic import ValidationError

from game.models import Match, MatchEvent
from game.protocol import server_out
from members.models import HighBreak, MatchFigures
from rules import commands, stats
from rules.commands import Command
from rules.match import new_match
from rules.outcome import Termination
from rules.state import NO_START, PLAYERS, Player, is_player, opponent

log = logging.getLogger(__name__)


# --- reading the stored events ---------------------------------------------------------------
def parse(payloads: Iterable[str]) -> list[server_out.Event]:
    """Stored events as the server sent them; `ValidationError` for one that does not parse
    (events stored before the protocol settled)."""
    return [server_out.Event.model_validate_json(text) for text in payloads]


def act_of(event: server_out.Event, before: server_out.Snapshot) -> stats.Act:
    """The statistics' reading of one event, given the snapshot it was played on."""
    ruling, shot = event.ruling, event.shot
    frame_winner: Player | None = None
    if ruling is not None and ruling.frame_over:
        frame_winner = ruling.winner
    match_winner: Player | None = None
    if event.match_end is not None:
        match_winner = event.match_end.winner
    elif event.snapshot.status == "finished" and before.status != "finished":
        match_winner = event.snapshot.winner
    return stats.Act(
        kind=event.kind, seat=event.seat, frame=before.scoreboard.frame_number,
        scores=(before.scoreboard.scores.A, before.scoreboard.scores.B),
        opening=shot is not None and before.frame.opening,
        foul=ruling.foul if ruling else False, penalty=ruling.penalty if ruling else 0,
        points=ruling.points if ruling else 0,
        aimed=shot is not None and stats.aimed_at_pocket(shot.first_contact, shot.trajectories),
        respotted_black=ruling.respotted_black if ruling else False,
        frame_winner=frame_winner,
        frame_ended=event.frame_end.termination if event.frame_end else None,
        match_winner=match_winner,
    )  # fmt: skip


def acts_of(events: Sequence[server_out.Event]) -> list[stats.Act]:
    """Every event after the start (event 1, the draw), read against the one before it."""
    return [act_of(event, before.snapshot) for before, event in pairwise(events)]


def _commands(
    stored: Iterable[tuple[str, str, object]],
) -> Iterator[tuple[Player | None, Command]]:
    for kind, seat, data in stored:
        yield (seat if is_player(seat) else None), commands.from_json(kind, data)


def _acts_from_commands(row: Match) -> list[stats.Act]:
    """For events stored before the protocol settled: fold the stored commands through the
    rules core again (deterministic, so the same strokes give the same figures)."""
    stored = MatchEvent.objects.filter(match=row).order_by("version")
    rows = iter(stored.values_list("kind", "seat", "command"))
    _, _, start = next(rows)
    draw = start["draw"] if isinstance(start, dict) else None
    if not is_player(draw):
        raise ValueError(f"match {row.pk}: the start event has no draw")
    points = server_out.StartRequest.model_validate(start).points  # the handicap start
    _, acts = stats.played(new_match(row.best_of, draw, points), _commands(rows))
    return acts


# --- writing the figures ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Finished:
    """What a finished match's rows are made of."""

    figures: stats.MatchFigures
    termination: str  # how the match ended ("" if stored before reasons were kept)
    at: datetime  # when its last event was stored


def finished(row: Match) -> Finished:
    """The figures of a finished match, from its stored events."""
    events = MatchEvent.objects.filter(match=row).order_by("version")
    stored = list(events.values_list("payload", "created"))
    try:
        parsed = parse(text for text, _ in stored)
        acts = acts_of(parsed)
        result = parsed[-1].snapshot.result
        termination = result.termination if result is not None else None
    except ValidationError:
        log.warning("match %s: old events; figures from its stored commands", row.pk)
        acts = _acts_from_commands(row)
        termination = None
    return Finished(
        stats.figures(acts, start_of(row)),
        str(termination or _termination(row)),
        stored[-1][1],
    )


def start_of(row: Match) -> tuple[int, int]:
    """The match's handicap start (A, B) as `rules.match.match_to_json` keeps it; none for a
    state stored before starts were kept."""
    start = row.state.get("start") if isinstance(row.state, dict) else None
    if isinstance(start, dict):
        a, b = start.get("A", 0), start.get("B", 0)
        if type(a) is int and type(b) is int:
            return (a, b)
    return NO_START


def _termination(row: Match) -> str:
    value = row.state.get("termination") if isinstance(row.state, dict) else None
    return value if isinstance(value, str) and value in set(Termination) else ""


def record(row: Match) -> None:
    """Write (or write again) the figures of a finished match: one row per player, one per
    break of 50 or more. A practice table's match has none, by design: one member plays both
    sides, so its wins, losses and breaks are nobody's against anybody (and the two seats'
    rows would be one member's twice, which `figures_once_per_player` refuses)."""
    if row.status != Match.Status.FINISHED:
        raise ValueError(f"match {row.pk} is not finished")
    if row.practice:
        return
    done = finished(row)
    users: dict[Player, int] = {"A": row.player_a_id, "B": row.player_b_id}
    with transaction.atomic():
        MatchFigures.objects.filter(match=row).delete()
        HighBreak.objects.filter(match=row).delete()
        MatchFigures.objects.bulk_create(_figures_row(row, seat, users, done) for seat in PLAYERS)
        HighBreak.objects.bulk_create(
            HighBreak(match=row, player_id=users[seat], frame=b.frame, points=b.points)
            for seat in PLAYERS
            for b in done.figures.of(seat).high_breaks
        )


def _figures_row(
    row: Match, seat: Player, users: dict[Player, int], done: Finished
) -> MatchFigures:
    mine = done.figures.of(seat)
    return MatchFigures(
        match=row, player_id=users[seat], opponent_id=users[opponent(seat)], seat=seat,
        finished=done.at, best_of=row.best_of, termination=done.termination, won=mine.won,
        frames_won=mine.frames_won, frames_lost=mine.frames_lost,
        highest_break=mine.highest_break, centuries=mine.centuries,
        fifties=len(mine.high_breaks), breaks=len(mine.breaks),
        break_points=mine.break_points, pots=mine.pots, attempts=mine.attempts,
        fouls=mine.fouls, foul_points=mine.foul_points, won_on_black=mine.won_on_black,
        won_with_start=mine.won_with_start,
    )  # fmt: skip


def record_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """`game.signals.match_finished`'s receiver (members/apps.py): once a match's final event
    is stored, in its transaction. The figures are derived data: if they cannot be written, the
    match still ends, the failure is logged, and `manage.py record_figures` writes them later."""
    try:
        with transaction.atomic():
            record(match)
    except Exception:
        log.exception("match %s: figures not written (manage.py record_figures)", match.pk)
