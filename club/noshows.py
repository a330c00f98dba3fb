"""Friendlies nobody came to play: abandoned once the club's wait has passed (issue 19).

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
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import OperationalError
from django.db.models import F
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


def abandon_due(now: datetime | None = None, batch: int | None = None) -> list[Abandoned]:
    """Abandon the friendlies not started within the wait, up to `batch` a pass."""
    now = now or timezone.now()
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
            done.append(
                Abandoned(
                    match=row.pk,
                    players=(row.player_a_id, row.player_b_id),
                    names=game_service.players(row),
                    best_of=row.best_of,
                    presence=presence.presence(row.pk, now),
                )
            )
    return done
