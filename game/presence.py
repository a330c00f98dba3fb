"""Who is at a match's table: each socket's row (`Connection`), a player's arrival and absence,
the match's start when both players are here together, and what the presence rules
(rules/presence.py) make of them. No sockets here: the process's heartbeat
(game/heartbeats.py) writes and reads these in batches, and broadcasts what changed.

Every function that reads the time takes `now` (default: the wall clock), so that a test sets
the time instead of waiting for it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet

from game import clock, turns
from game.broadcast import ClockStart, start_clock_on_commit
from game.models import Absence, Connection, Match
from game.protocol import server_out
from rules.match import match_from_json
from rules.presence import Refusal, claim_from, claim_refusal
from rules.state import PLAYERS, Player, opponent


def _stale_before(now: datetime | None = None) -> datetime:
    return (now or clock.now()) - timedelta(seconds=settings.SNOOKER["CONNECTION_STALE"])


def connect(
    match_id: int, channel_name: str, seat: Player, now: datetime | None = None
) -> ClockStart | None:
    """A player's socket came. Their first coming is their arrival (at a practice table, both
    seats'); if the opponent has a live socket too, the match starts now (`Match.started`,
    once). The start starts the shot clock, if the match has one: everyone is told once it
    is stored, and the start is returned. (Spectators' sockets are written in batches:
    `spectators`.)"""
    now = now or clock.now()
    # Written (committed) before the opponent's socket is looked for: of two players coming
    # at once on two processes, the later look sees the other's row, so the match starts.
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"match_id": match_id, "seat": seat, "last_seen": now},
    )
    Absence.objects.filter(match_id=match_id, seat=seat).delete()
    with transaction.atomic():
        row = Match.objects.select_for_update().get(pk=match_id)
        first = [
            s for s in (PLAYERS if row.practice else (seat,))
            if getattr(row, f"arrived_{s.lower()}") is None
        ]  # fmt: skip
        fields = [f"arrived_{s.lower()}" for s in first]
        for s in first:
            setattr(row, f"arrived_{s.lower()}", now)
        if (
            row.started is None
            and row.status == Match.Status.LIVE
            and _live(match_id, opponent(seat), now).exists()
        ):
            row.started = now
            fields.append("started")
        if row.deadline is None and row.shot_clock is not None:
            row.deadline = turns.deadline(row, match_from_json(row.state), now=now)
            if row.deadline is not None:
                fields.append("deadline")
        if not fields:
            return None
        row.save(update_fields=fields)
        if "deadline" not in fields or row.deadline is None:
            return None
        start = ClockStart(row.version, row.deadline)
        start_clock_on_commit(match_id, start)
    return start


def spectators(arrived: dict[str, int], left: list[str], now: datetime | None = None) -> None:
    """The spectators' sockets that came (channel name -> match id) and went since a process
    last wrote them, in one transaction: a crowd's comings and goings cost a write or two a
    beat, not one each."""
    if not arrived and not left:
        return
    now = now or clock.now()
    with transaction.atomic():
        Connection.objects.bulk_create(
            [Connection(channel_name=c, match_id=m, seat="", last_seen=now)
             for c, m in arrived.items()],
            ignore_conflicts=True,  # written before, by an attempt that failed later
        )  # fmt: skip
        for i in range(0, len(left), 500):  # within any database's limit on parameters
            Connection.objects.filter(channel_name__in=left[i : i + 500]).delete()


def beat(channel_names: list[str], now: datetime | None = None) -> dict[int, int]:
    """A process's heartbeat: refresh its sockets' rows, sweep the rows of dead processes
    (a seated player's becomes an absence from its last sign of life), and say the version of
    each match it serves."""
    now = now or clock.now()
    Connection.objects.filter(channel_name__in=channel_names).update(last_seen=now)
    stale = list(
        Connection.objects.filter(last_seen__lt=_stale_before(now)).values_list(
            "pk", "match_id", "seat", "last_seen"
        )
    )
    for _, match_id, seat, seen in stale:
        if seat and not _live(match_id, seat, now).exists():
            Absence.objects.get_or_create(match_id=match_id, seat=seat, defaults={"since": seen})
    Connection.objects.filter(pk__in=[pk for pk, *_ in stale]).delete()
    served = Connection.objects.filter(channel_name__in=channel_names).values("match_id")
    return dict(Match.objects.filter(pk__in=served).values_list("pk", "version"))


def _live(match_id: int, seat: str, now: datetime | None = None) -> QuerySet[Connection]:
    return Connection.objects.filter(
        match_id=match_id, seat=seat, last_seen__gte=_stale_before(now)
    )


def disconnect(match_id: int, channel_name: str, seat: Player, now: datetime | None = None) -> None:
    """A player's socket went: if it was their last, they are away from now."""
    Connection.objects.filter(channel_name=channel_name).delete()
    if not _live(match_id, seat, now).exists():
        Absence.objects.update_or_create(
            match_id=match_id, seat=seat, defaults={"since": now or clock.now()}
        )


def presences(match_ids: list[int], now: datetime | None = None) -> list[server_out.Presence]:
    """Who is at the table in each match, since when each absent player is away and when
    the other may claim (rules/presence.py): three queries however many matches."""
    stale = _stale_before(now)
    rows = {
        m.pk: m
        for m in Match.objects.filter(pk__in=match_ids).only(
            "reconnect_grace", "arrived_a", "arrived_b", "practice", "started", "status"
        )
    }
    sockets: dict[int, list[tuple[str, datetime]]] = {m: [] for m in match_ids}
    for match_id, seat, seen in Connection.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "seat", "last_seen"
    ):
        sockets[match_id].append((seat, seen))
    gone = {
        (match_id, seat): since
        for match_id, seat, since in Absence.objects.filter(match_id__in=match_ids).values_list(
            "match_id", "seat", "since"
        )
    }
    out = []
    for match_id in match_ids:
        row, mine = rows[match_id], sockets[match_id]
        arrived: dict[Player, datetime | None] = {"A": row.arrived_a, "B": row.arrived_b}
        away: dict[Player, datetime | None] = {}
        for seat in PLAYERS:
            # At a practice table the one member's sockets sit in seat A for both sides.
            held = "A" if row.practice else seat
            away[seat] = _away_since(
                arrived[seat], [t for s, t in mine if s == held], gone.get((match_id, held)),
                stale,
            )  # fmt: skip
        online = {s: away[s] is None and arrived[s] is not None for s in PLAYERS}
        grace = timedelta(seconds=row.reconnect_grace)
        seats = {
            seat: server_out.SeatPresence(
                arrived=arrived[seat] is not None,
                online=online[seat],
                away_since=away[seat],
                claim_from=claim_from(row.started, online[opponent(seat)], away[seat], grace),
            )
            for seat in PLAYERS
        }
        spectators = sum(1 for s, t in mine if s == "" and t >= stale)
        out.append(
            server_out.Presence(
                players=seats,
                spectators=spectators,
                started=row.started,
                abandoned=row.status == Match.Status.ABANDONED,
            )
        )
    return out


def presence(match_id: int, now: datetime | None = None) -> server_out.Presence:
    return presences([match_id], now)[0]


def _away_since(
    arrived: datetime | None, seen: list[datetime], absent: datetime | None, stale: datetime
) -> datetime | None:
    """None if the player has a live socket or never came (nobody is away from a table they
    never reached); else since when they have been away: the last socket closed, or the last
    sign of life of a dead process's socket."""
    if arrived is None or any(t >= stale for t in seen):
        return None
    return max([arrived, *seen, *([absent] if absent else [])])


def why_not_claim(row: Match, claimant: Player, now: datetime | None = None) -> Refusal | None:
    """Why `claimant` may not claim against the other player now (rules/presence.py), or None
    if they may: the match has started, they are at the table, and the other has been away
    for the whole grace."""
    now = now or clock.now()
    seats = presence(row.pk, now).players
    return claim_refusal(
        row.started, seats[claimant].online, seats[opponent(claimant)].away_since,
        timedelta(seconds=row.reconnect_grace), now,
    )  # fmt: skip
