"""The coach's analysis of a finished match's frames, stored (docs/coach.md): asked for by
one of its players or an organiser, queued, and run stroke by stroke in the computer's pool in
the lane below its strokes and the members' hints (`lanes.background`), by the process that
plays the computer (`ANALYSES`). Each stroke's result is stored as it is done, so the page
shows the progress ("12 of 48 strokes"), and a process that stops mid-frame leaves the rest
to the next pass. Never of a live match: it can never advise a player during play.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.visitors import Visitor
from computer import lanes, thinking
from computer.models import Analysis
from fixtures.models import Fixture
from game import service as game_service
from game.models import Match
from rules import match as rules_match
from rules.commands import Choose, Stroke
from rules.errors import Refused
from rules.match import Match as MatchState
from rules.opponent.analysis import Analysed, strokes_of_frame
from rules.opponent.chances import frame_accuracy
from rules.state import Player

log = logging.getLogger(__name__)


class AnalysisRefused(Refused):
    """An analysis that may not be asked for; nothing was queued."""


def frames_played(state: MatchState) -> int:
    """How many frames of a match ended (the match's are all ended once it is over)."""
    return len(state.frames)


def request(user: Visitor, match_id: int, frame: int) -> Analysis:
    """Queue frame `frame` of a finished match for analysis, or the one already asked for
    (stored once, for every viewer). Only its players and the club's organisers ask."""
    row = Match.objects.filter(pk=match_id).first()
    if row is None:
        raise AnalysisRefused("not_found", "no such match")
    organiser = bool(getattr(user, "is_staff", False))
    if not organiser and game_service.seat_of(row, user) is None:
        raise AnalysisRefused("not_a_player", "only the match's players and organisers ask")
    if row.status != Match.Status.FINISHED:
        raise AnalysisRefused("match_live", "a match is analysed once it is over")
    if not 1 <= frame <= frames_played(rules_match.match_from_json(row.state)):
        raise AnalysisRefused("bad_frame", f"the match has no frame {frame} that was played")
    asker = user if isinstance(user, User) else None
    analysis, _ = Analysis.objects.get_or_create(
        match=row, frame=frame,
        defaults={"requested_by": asker, "requested": timezone.now(),
                  "seed": secrets.token_hex(8)},
    )  # fmt: skip
    return analysis


def stroke_json(found: Analysed) -> dict[str, Any]:
    """One stroke's result as stored and sent to the page."""
    best = found.best
    return {
        "index": found.index, "seat": found.seat, "lost": round(found.lost, 2),
        "best_value": round(found.best_value, 2), "played_value": round(found.played_value, 2),
        "mark": found.mark.value if found.mark else None,
        "reason": found.reason.value if found.reason else None,
        "best_kind": found.best_kind, "played_option": found.played_option,
        "best": None if best is None else {
            "angle": best.angle, "speed": best.speed, "side": best.side, "height": best.height,
            "nominated": best.nominated,
            "cue_ball": list(best.cue_ball) if best.cue_ball is not None else None,
        },
        "best_leave": list(found.best_leave) if found.best_leave is not None else None,
        "chance": round(found.chance, 4), "accuracy": round(found.accuracy, 1),
        "agrees": found.agrees,
    }  # fmt: skip


def accuracy_of(strokes: list[dict[str, Any]]) -> dict[str, float | None]:
    """Each player's accuracy over the strokes stored (rules/opponent/chances.py)."""
    out: dict[str, float | None] = {}
    for seat in ("A", "B"):
        mine = [s["accuracy"] for s in strokes if s["seat"] == seat and "accuracy" in s]
        figure = frame_accuracy(mine)
        out[seat] = None if figure is None else round(figure, 1)
    return out


@dataclass(frozen=True, slots=True)
class Work:
    """A queued analysis taken by this process: what is left of it."""

    analysis: int
    seed: str
    strokes: list[tuple[int, MatchState, Player, Stroke | Choose]]
    done: int


def take_next() -> Work | None:
    """The oldest analysis queued or left running (a process stopped mid-frame), marked
    running; its strokes replayed from the stored commands."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update(skip_locked=True)
            .filter(status__in=(Analysis.Status.QUEUED, Analysis.Status.RUNNING))
            .order_by("id")
            .first()
        )
        if analysis is None:
            return None
        start, commands = game_service.recorded(analysis.match_id)
        strokes = list(strokes_of_frame(start, commands, analysis.frame))
        analysis.status, analysis.total = Analysis.Status.RUNNING, len(strokes)
        analysis.save(update_fields=["status", "total"])
    return Work(analysis.pk, analysis.seed, strokes, len(analysis.strokes))


def store(analysis_id: int, found: Analysed, total: int) -> None:
    """One more stroke done: stored at once (the progress the page shows)."""
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().get(pk=analysis_id)
        if any(s["index"] == found.index for s in analysis.strokes):
            return  # another process got there first (SQLite takes no row locks)
        analysis.strokes = [*analysis.strokes, stroke_json(found)]
        analysis.done = len(analysis.strokes)
        fields = ["strokes", "done"]
        if analysis.done >= total:
            analysis.status, analysis.finished = Analysis.Status.DONE, timezone.now()
            fields += ["status", "finished"]
        analysis.save(update_fields=fields)


async def analyse_waiting() -> int:
    """One pass: every analysis queued, a stroke at a time in the pool's background lane;
    how many strokes were analysed."""
    from channels.db import database_sync_to_async

    from computer.driver import pool

    count = 0
    while (work := await database_sync_to_async(take_next)()) is not None:
        total = len(work.strokes)
        if total == 0:
            await database_sync_to_async(_empty)(work.analysis)
            continue
        for index, before, seat, command in work.strokes[work.done :]:
            found = await lanes.background(
                pool(), thinking.analyse, before, seat, command, index, work.seed
            )
            await database_sync_to_async(store)(work.analysis, found, total)
            count += 1
    return count


def _empty(analysis_id: int) -> None:
    Analysis.objects.filter(pk=analysis_id).update(
        status=Analysis.Status.DONE, finished=timezone.now()
    )


def every() -> float:
    return float(settings.COMPUTER["ANALYSE_EVERY"])


def average_accuracy(member_id: int) -> tuple[float, int] | None:
    """The member's accuracy over their analysed frames, averaged (a frame counts once
    whoever asked for it), and how many frames; None before any (one query)."""
    rows = (
        Analysis.objects.filter(status=Analysis.Status.DONE)
        .filter(Q(match__player_a_id=member_id) | Q(match__player_b_id=member_id))
        .values_list("match__player_a_id", "strokes")
    )
    figures = []
    for player_a, strokes in rows:
        seat = "A" if player_a == member_id else "B"
        figure = accuracy_of(strokes)[seat]
        if figure is not None:
            figures.append(figure)
    if not figures:
        return None
    return sum(figures) / len(figures), len(figures)


def queue_league_match(match: Match) -> int:
    """Every frame of a finished ladder or competition match (a fixture's) queued for
    analysis, when the club analyses them (`COMPUTER["ANALYSE_LEAGUE"]`); how many."""
    if not settings.COMPUTER["ANALYSE_LEAGUE"] or not Fixture.objects.filter(match=match).exists():
        return 0
    frames = frames_played(rules_match.match_from_json(match.state))
    now = timezone.now()
    for frame in range(1, frames + 1):
        Analysis.objects.get_or_create(
            match=match, frame=frame,
            defaults={"requested": now, "seed": secrets.token_hex(8)},
        )  # fmt: skip
    return frames


def match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """`game.signals.match_finished`'s receiver, inside the transaction that ended the match:
    in a savepoint of its own, so that the match ends whatever happens here."""
    try:
        with transaction.atomic():
            queue_league_match(match)
    except Exception:
        log.exception("match %s: its frames were not queued for analysis", match.pk)
