"""Who is at a match's table: each socket's row (`Connection`), a player's arrival and absence,
the match's start when both players are here together, and what the presence rules
(rules/presence.py) make of them. No sockets here: the process's heartbeat
(game/heartbeats.py) writes and reads these in batches, and broadcasts what changed.

Every function that reads the time takes `now` (default: the wall clock), so that a test sets
the time instead of waiting for it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet

from game import clock, turns
from game.broadcast import ClockStart, start_clock_on_commit
from game.models import Absence, Connection, Match, MatchEvent
from game.protocol import server_out
from game.signals import match_started
from rules import commands
from rules.match import match_from_json
from rules.presence import (
    Refusal,
    claim_from,
    claim_refusal,
    deserted_from,
    may_start,
    stalled_from,
)
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
            and may_start(row.not_before, now)
            and _live(match_id, opponent(seat), now).exists()
        ):
            row.started = now
            fields.append("started")
        return _store(row, fields, now)


def _store(row: Match, fields: list[str], now: datetime) -> ClockStart | None:
    """Store the fields changed, and the shot clock's first deadline once the match has
    started (everyone is told once it is stored; the start is returned)."""
    if row.deadline is None and row.shot_clock is not None:
        row.deadline = turns.deadline(row, match_from_json(row.state), now=now)
        if row.deadline is not None:
            fields.append("deadline")
    if not fields:
        return None
    row.save(update_fields=fields)
    if "started" in fields:
        match_id = row.pk
        transaction.on_commit(lambda: match_started.send(sender=Match, match_id=match_id))
    if "deadline" not in fields or row.deadline is None:
        return None
    start = ClockStart(row.version, row.deadline)
    start_clock_on_commit(row.pk, start)
    return start


def start_due(match_ids: list[int], now: datetime | None = None) -> list[int]:
    """Start the matches among these whose agreed start time has come with both players
    already at the table (nobody connects then, so `connect` does not see it): the
    heartbeat asks this for the matches it serves. Returns those started."""
    now = now or clock.now()
    due = Match.objects.filter(
        pk__in=match_ids, started=None, status=Match.Status.LIVE, not_before__lte=now
    ).values_list("pk", flat=True)
    begun = []
    for match_id in due:
        if not all(_live(match_id, seat, now).exists() for seat in PLAYERS):
            continue
        with transaction.atomic():
            row = Match.objects.select_for_update().get(pk=match_id)
            if row.started is not None or row.status != Match.Status.LIVE:
                continue
            row.started = now
            _store(row, ["started"], now)
            begun.append(match_id)
    return begun


def schedule(match_id: int, at: datetime) -> None:
    """The match is to start at `at` (a fixture's agreed start, or the end of its window
    while a time is still to be agreed), inside the caller's transaction. A match already
    started with no stroke played yet (both players looked in together) starts again at `at`:
    nothing was played, and who comes then is what counts. One with strokes played keeps its
    start (it resumes): nobody may claim before `at` all the same."""
    row = Match.objects.select_for_update().get(pk=match_id)
    row.not_before = at
    fields = ["not_before"]
    played = MatchEvent.objects.filter(match_id=match_id, kind=commands.KINDS[commands.Stroke])
    if row.started is not None and not row.practice and not played.exists():
        row.started, row.deadline = None, None
        fields += ["started", "deadline"]
    row.save(update_fields=fields)


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


def beat(sockets: dict[str, tuple[int, str]], now: datetime | None = None) -> dict[int, int]:
    """A process's heartbeat for its sockets (channel name -> match id, seat or "" for a
    spectator): refresh their rows, re-create any another process swept away meanwhile (this
    process could not write them for a while: a database outage, a stalled loop; the sockets
    are still here, so their players are too), sweep the rows of dead processes, start a match it
    serves whose agreed start time has come with both players here (`start_due`), and say the
    version of each match it serves.

    A swept player is away since the row's last sign of life (told at once: no reload is that
    slow), but a claim counts their absence from the sweep (`Absence.found`): a row goes stale
    whenever its process cannot write, and a process cut off from the database for longer
    than the grace must not come back to find its players claimed against (issue 37). A
    process that is alive re-creates its rows within half a beat of the database coming back;
    one that is dead never does, and its players (if they do not come back elsewhere) can be
    claimed against a grace after the sweep, two beats later than from the last sign of
    life."""
    now = now or clock.now()
    names = list(sockets)
    refreshed = Connection.objects.filter(channel_name__in=names).update(last_seen=now)
    if refreshed < len(names):
        _recreate(sockets, now)
    stale = list(
        Connection.objects.filter(last_seen__lt=_stale_before(now)).values_list(
            "pk", "match_id", "seat", "last_seen"
        )
    )
    for _, match_id, seat, seen in stale:
        if seat and not _live(match_id, seat, now).exists():
            # One left from before this row's last write (a sweep that raced the player's
            # coming back) is no absence of theirs any more: this one is (issue 37).
            absence, made = Absence.objects.get_or_create(
                match_id=match_id, seat=seat, defaults={"since": seen, "found": now}
            )
            if not made and absence.since < seen:
                Absence.objects.filter(pk=absence.pk).update(since=seen, found=now)
    Connection.objects.filter(pk__in=[pk for pk, *_ in stale]).delete()
    served = Connection.objects.filter(channel_name__in=names).values("match_id")
    versions = dict(Match.objects.filter(pk__in=served).values_list("pk", "version"))
    start_due(sorted(versions), now)  # an agreed start time came with both here already
    return versions


def _recreate(sockets: dict[str, tuple[int, str]], now: datetime) -> None:
    """Write again the rows of this process's sockets that are missing (swept as stale by
    another process), and end their players' absences: they never left."""
    present = set(
        Connection.objects.filter(channel_name__in=list(sockets)).values_list(
            "channel_name", flat=True
        )
    )
    missing = {c: s for c, s in sockets.items() if c not in present}
    matches = set(
        Match.objects.filter(pk__in={m for m, _ in missing.values()}).values_list("pk", flat=True)
    )
    missing = {c: (m, seat) for c, (m, seat) in missing.items() if m in matches}
    with transaction.atomic():
        Connection.objects.bulk_create(
            [Connection(channel_name=c, match_id=m, seat=seat, last_seen=now)
             for c, (m, seat) in missing.items()],
            ignore_conflicts=True,  # written meanwhile by a late flush of this process
        )  # fmt: skip
        for m, seat in {(m, seat) for m, seat in missing.values() if seat}:
            Absence.objects.filter(match_id=m, seat=seat).delete()


def _live(match_id: int, seat: str, now: datetime | None = None) -> QuerySet[Connection]:
    return Connection.objects.filter(
        match_id=match_id, seat=seat, last_seen__gte=_stale_before(now)
    )


def players_here(now: datetime | None = None) -> QuerySet[Connection]:
    """The players' live sockets, of every match (filter by `match`): a write that must not
    happen while a player is at the table asks that none of these exist, in its condition."""
    return Connection.objects.exclude(seat="").filter(last_seen__gte=_stale_before(now))


def disconnect(match_id: int, channel_name: str, seat: Player, now: datetime | None = None) -> None:
    """A player's socket went: if it was their last, they are away from now, and their
    absence counts from now. An absence found earlier (its `found`: a sweep of a row that
    raced their coming back, or of this socket's row while its process could not write) is
    not theirs: this socket was here until now. Kept, it let a claim land a second after a
    connected player's socket dropped (issue 37).

    The row goes and the absence comes in one transaction: a claim read between the two saw
    the player with no socket and no absence, away since they first arrived, and landed at
    once against a player whose socket had dropped that instant (the fault test, Redis
    killed). A disconnect that fails half-way leaves the row, for a sweep to find."""
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        if not _live(match_id, seat, now).exists():
            Absence.objects.update_or_create(
                match_id=match_id, seat=seat, defaults={"since": now or clock.now(), "found": None}
            )


def presences(match_ids: list[int], now: datetime | None = None) -> list[server_out.Presence]:
    """Who is at the table in each match, since when each absent player is away and when
    the other may claim (rules/presence.py), for an absence or a stall: three queries however
    many matches (a fourth reads whose turn it is where a stall can count)."""
    return [told for told, _ in _read(match_ids, now)]


_Counted = dict[Player, datetime | None]  # since when each seat's absence counts for a claim


def _read(
    match_ids: list[int], now: datetime | None = None
) -> list[tuple[server_out.Presence, _Counted]]:
    now = now or clock.now()
    stale = _stale_before(now)
    rows = {
        m.pk: m
        for m in Match.objects.filter(pk__in=match_ids).only(
            "reconnect_grace", "arrived_a", "arrived_b", "practice", "started", "status",
            "not_before", "deadline", "turn_began",
        )
    }  # fmt: skip
    # Whose turn it is, only where a stall can count (most rated matches' clocks run): the
    # state is the row's largest column, and the heartbeat asks this of every match served.
    states = dict(
        Match.objects.filter(pk__in=[m for m, row in rows.items() if _may_stall(row)])
        .values_list("pk", "state")
    )  # fmt: skip
    sockets: dict[int, list[tuple[str, datetime]]] = {m: [] for m in match_ids}
    for match_id, seat, seen in Connection.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "seat", "last_seen"
    ):
        sockets[match_id].append((seat, seen))
    gone = {
        (match_id, seat): (since, found)
        for match_id, seat, since, found in Absence.objects.filter(
            match_id__in=match_ids
        ).values_list("match_id", "seat", "since", "found")
    }
    out = []
    for match_id in match_ids:
        row, mine = rows[match_id], sockets[match_id]
        arrived: dict[Player, datetime | None] = {"A": row.arrived_a, "B": row.arrived_b}
        away: dict[Player, datetime | None] = {}
        counted: dict[Player, datetime | None] = {}
        for seat in PLAYERS:
            # At a practice table the one member's sockets sit in seat A for both sides.
            held = "A" if row.practice else seat
            away[seat], counted[seat] = _away_since(
                arrived[seat], [t for s, t in mine if s == held], gone.get((match_id, held)),
                stale, now,
            )  # fmt: skip
        online = {s: away[s] is None and arrived[s] is not None for s in PLAYERS}
        grace = timedelta(seconds=row.reconnect_grace)
        stalled = _stalled(row, states.get(match_id))
        seats = {
            seat: server_out.SeatPresence(
                arrived=arrived[seat] is not None,
                online=online[seat],
                away_since=away[seat],
                claim_from=claim_from(
                    row.started,
                    online[opponent(seat)],
                    counted[seat],
                    grace,
                    row.not_before,
                    stalled.get(seat),
                ),
            )
            for seat in PLAYERS
        }
        spectators = sum(1 for s, t in mine if s == "" and t >= stale)
        told = server_out.Presence(
            players=seats,
            spectators=spectators,
            started=row.started,
            abandoned=row.status == Match.Status.ABANDONED,
        )
        out.append((told, counted))
    return out


def presence(match_id: int, now: datetime | None = None) -> server_out.Presence:
    return presences([match_id], now)[0]


def _stall() -> timedelta:
    return timedelta(seconds=settings.SNOOKER["STALL"])


def _may_stall(row: Match) -> bool:
    """A live two-player match, started, with no shot clock running for the turn."""
    return (
        not row.practice and row.status == Match.Status.LIVE and row.started is not None
        and row.deadline is None
    )  # fmt: skip


def _stalled(row: Match, state: dict[str, Any] | None) -> dict[Player, datetime]:
    """The player to act and when they will have stalled (rules.presence.stalled_from), if a
    stall can count (`_may_stall`); `state` is the row's (read only then)."""
    if not _may_stall(row) or state is None:
        return {}
    # A turn that began before an agreed start time counts from that time (Match.not_before).
    began = max((t for t in (row.turn_began, row.not_before) if t is not None), default=None)
    when = stalled_from(row.started, began, row.deadline is not None, _stall())
    seat = match_from_json(state).frame.to_act
    return {} if when is None or seat is None else {seat: when}


def deserted(row: Match, seats: dict[Player, server_out.SeatPresence]) -> datetime | None:
    """When a started match both players have left is deserted (rules.presence.deserted_from),
    from its presence (`presences`): None while either is here."""
    return deserted_from(
        row.started, row.turn_began, (seats["A"].away_since, seats["B"].away_since),
        timedelta(seconds=row.reconnect_grace), _stall(),
    )  # fmt: skip


def _away_since(
    arrived: datetime | None,
    seen: list[datetime],
    absent: tuple[datetime, datetime | None] | None,
    stale: datetime,
    now: datetime,
) -> tuple[datetime | None, datetime | None]:
    """(None, None) if the player has a live socket or never came (nobody is away from a
    table they never reached); else since when they have been away (the last socket closed,
    or the last sign of life of a socket whose process stopped writing it), and since when
    that absence counts toward a claim. The two differ for a row whose process stopped
    writing it: that process may only have been cut off from the database, so its absence
    counts from when it was found (the sweep, `Absence.found`), or from now while it is
    stale and not swept yet: never from the last write (issue 37)."""
    if arrived is None or any(t >= stale for t in seen):
        return None, None
    since, found = absent if absent is not None else (arrived, None)
    shown = max([arrived, since, *seen])
    if seen:
        return shown, now
    return shown, max(arrived, found or since)


def why_not_claim(row: Match, claimant: Player, now: datetime | None = None) -> Refusal | None:
    """Why `claimant` may not claim against the other player now (rules/presence.py), or None
    if they may: the match has started, they are at the table, and the other has been away
    for the whole grace or, to act, has not played for the stall time since their turn
    began."""
    now = now or clock.now()
    [(told, counted)] = _read([row.pk], now)
    other = opponent(claimant)
    return claim_refusal(
        row.started, told.players[claimant].online, counted[other],
        timedelta(seconds=row.reconnect_grace), now, row.not_before,
        _stalled(row, row.state).get(other),
    )  # fmt: skip
