"""Friendlies nobody came to play, or both players left: abandoned (issues 19 and 36).

A match starts when both players are at the table together (`Match.started`,
game/service.py). A friendly still not started `SNOOKER["NO_SHOW_WAIT"]` seconds (ten minutes)
after it was made is abandoned (`rules.presence.abandoned`): status `abandoned`, no winner,
no result, unrated, no figures recorded, gone from the lobby; both players are told on their
notices and on the match's own sockets. A ladder match is never abandoned this way: its
play-by window and the ladder's default decide it (ladder/).

`abandon_due` writes each row only if it is still live and unstarted (a conditional update),
so two processes (or a process and `manage.py abandon_no_shows`) settle each match once, and a
player who arrives at the last moment (`game.presence.connect` starts the match under the
row's lock) is never abandoned after the start. club/jobs.py runs it in every server process.

A started friendly is abandoned the same way once both players have been away for the grace
and the turn has lasted the club's stall time (`SNOOKER["STALL"]`, rules.presence.deserted_from):
nobody is left to claim it. Its write needs the version it was judged at, so a stroke (or a
claim) stored meanwhile keeps it live.

A match against the computer is started when made and has nobody to desert it, so neither
rule ends it: `abandon_idle_computer` abandons one nobody has touched (no event, so no stroke,
no choice, no concession) for `COMPUTER["IDLE"]` seconds (an hour), in the same way, at the
version judged. club/jobs.py's `IDLE_COMPUTER` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import OperationalError
from django.db.models import Exists, F, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from game import presence
from game import service as game_service
from game.models import Match
from game.protocol import server_out as match_out
from rules.challenges import Kind
from rules.presence import abandoned
from rules.state import Player


@dataclass(frozen=True, slots=True)
class Abandoned:
    """A match just abandoned: whom to tell, and what."""

    match: int
    players: tuple[int, int]  # A's and B's user ids
    names: dict[Player, str]  # seat -> name
    best_of: int
    presence: match_out.Presence  # as the match's sockets are told it (`abandoned` set)
    started: bool = False  # started, and left by both (else never started)


def abandon_due(now: datetime | None = None, batch: int | None = None) -> list[Abandoned]:
    """Abandon the friendlies not started within the wait, and the started ones both players
    left (`_deserted`), up to `batch` of each a pass."""
    now = now or timezone.now()
    return _unstarted(now, batch) + _deserted(now, batch)


def _told(row: Match, seen: match_out.Presence) -> Abandoned:
    return Abandoned(
        match=row.pk,
        players=(row.player_a_id, row.player_b_id),
        names=game_service.players(row),
        best_of=row.best_of,
        presence=seen,
        started=row.started is not None,
    )


def _unstarted(now: datetime, batch: int | None) -> list[Abandoned]:
    conf = settings.SNOOKER
    wait = timedelta(seconds=conf["NO_SHOW_WAIT"])
    due = (
        Match.objects.filter(
            status=Match.Status.LIVE, started__isnull=True, created__lte=now - wait
        )
        # Left out by the query too, so that ladder matches never fill a pass's batch.
        .exclude(challenge__kind=Kind.LADDER)
        .annotate(kind=F("challenge__kind"))
        .select_related("player_a", "player_b")
        .order_by("pk")[: batch or conf["NO_SHOW_BATCH"]]
    )
    try:
        rows = list(due)
    except OperationalError:
        return []  # SQLite's other writer holds the lock: the next pass looks again
    done = []
    for row in rows:
        if not abandoned(row.started, row.created, row.kind == Kind.LADDER, wait, now):
            continue
        try:
            # Only if still live and unstarted: the other process, or a player's arrival,
            # may have come first.
            changed = Match.objects.filter(
                pk=row.pk, status=Match.Status.LIVE, started__isnull=True
            ).update(status=Match.Status.ABANDONED, deadline=None)
        except OperationalError:
            continue  # SQLite's other writer holds the lock: the next pass tries again
        if changed:
            done.append(_told(row, presence.presence(row.pk, now)))
    return done


def _deserted(now: datetime, batch: int | None) -> list[Abandoned]:
    """Started friendlies whose turn has lasted the stall time (the only ones that can be
    deserted: read by the query) and which both players have left for the grace."""
    conf = settings.SNOOKER
    stall = timedelta(seconds=conf["STALL"])
    idle = Q(turn_began__lte=now - stall) | Q(turn_began__isnull=True, started__lte=now - stall)
    due = (
        Match.objects.filter(idle, status=Match.Status.LIVE, started__isnull=False, practice=False)
        .exclude(challenge__kind=Kind.LADDER)
        .annotate(kind=F("challenge__kind"))
        .select_related("player_a", "player_b")
        .order_by("pk")[: batch or conf["NO_SHOW_BATCH"]]
    )
    try:
        rows = list(due)
    except OperationalError:
        return []
    done = []
    for row in rows:
        try:
            seen = presence.presence(row.pk, now)
        except OperationalError:
            continue  # SQLite's other writer holds the lock: the next pass looks again
        left = presence.deserted(row, seen.players)
        if not abandoned(row.started, row.created, row.kind == Kind.LADDER, stall, now, left):
            continue
        try:
            # Only at the version judged (a stroke, a choice or a claim stored meanwhile keeps
            # the match) and while no player is back (a player's socket is written first).
            back = presence.players_here(now).filter(match=OuterRef("pk"))
            changed = (
                Match.objects.filter(pk=row.pk, status=Match.Status.LIVE, version=row.version)
                .exclude(Exists(back))
                .update(status=Match.Status.ABANDONED, deadline=None)
            )
        except OperationalError:
            continue
        if changed:
            # Told as judged (both away), abandoned: no read after the write, which SQLite's
            # other writer could refuse once the match is already abandoned.
            done.append(_told(row, seen.model_copy(update={"abandoned": True})))
    return done


def abandon_idle_computer(now: datetime | None = None, batch: int | None = None) -> list[Abandoned]:
    """Abandon the live matches against the computer whose last event (or start) is older
    than `COMPUTER["IDLE"]`, up to `batch` a pass, oldest first. No result, as any abandoned
    match: never rated, never counted."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.COMPUTER["IDLE"])
    computer = Q(player_a__computer__isnull=False) | Q(player_b__computer__isnull=False)
    due = (
        Match.objects.filter(computer, status=Match.Status.LIVE)
        .annotate(touched=Coalesce("turn_began", "started", "created"))
        .filter(touched__lte=since)
        .select_related("player_a", "player_b")
        .order_by("pk")[: batch or settings.SNOOKER["NO_SHOW_BATCH"]]
    )
    try:
        rows = list(due)
    except OperationalError:
        return []  # SQLite's other writer holds the lock: the next pass looks again
    done = []
    for row in rows:
        try:
            # Only at the version judged: a stroke stored meanwhile keeps it.
            changed = Match.objects.filter(
                pk=row.pk, status=Match.Status.LIVE, version=row.version
            ).update(status=Match.Status.ABANDONED, deadline=None)
            seen = presence.presence(row.pk, now) if changed else None
        except OperationalError:
            continue
        if seen is not None:
            done.append(_told(row, seen.model_copy(update={"abandoned": True})))
    return done
