"""The match service: check, apply, store. No sockets here; the consumer broadcasts after commit.

Each request is applied in one transaction: load the match at version N, authorise, apply the
command with the pure rules core (`rules.match.apply`), store the command, the event built by
`server_out` and the new state as version N + 1 only if the match is still at N, commit. A
repeated client id returns the stored event.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.cache import cache
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from pydantic import ValidationError

from game.models import Absence, Connection, Match, MatchEvent
from game.protocol import client_in, server_out
from game.protocol.constants import FRAME_HOLD
from game.signals import match_finished
from rules import commands
from rules import match as rules_match
from rules.commands import Command
from rules.errors import IllegalRequest
from rules.match import Match as MatchState
from rules.match import Outcome, match_from_json, match_to_json
from rules.presence import Refusal, claim_from, claim_refusal
from rules.state import PLAYERS, Player, is_player, opponent

# Whoever sent a request: a member, or a visitor who is not signed in.
Visitor = AbstractBaseUser | AnonymousUser | None


class ServiceError(Exception):
    """A refused request; nothing was changed. `code` is stable for the protocol."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Turn:
    """What a match's sockets need between events without reading the database."""

    deadline: datetime | None  # when the shot clock runs out, if it runs
    aimer: Player | None  # who may aim: the striker, when a stroke is due
    in_hand: bool  # the cue ball is in hand (an aim may place it)


NO_TURN = Turn(None, None, False)


@dataclass(frozen=True, slots=True)
class Stored:
    """One stored event, ready to broadcast."""

    version: int
    text: str  # the event as sent to browsers (JSON)
    turn: Turn  # the turn after it


@dataclass(frozen=True, slots=True)
class Applied:
    events: tuple[Stored, ...]  # the request's event, then any the server added (the toss)
    duplicate: bool  # the client id had been seen: nothing new was applied

    @property
    def version(self) -> int:
        """The version the request created (or created the first time)."""
        return self.events[0].version


@dataclass(frozen=True, slots=True)
class ClockStart:
    """The shot clock started when the match did: both players at the table (no event made)."""

    version: int
    deadline: datetime


# --- reading ---------------------------------------------------------------------------------
def seat_of(match: Match, user: Visitor) -> Player | None:
    """The user's seat; at a practice table, where one member sits on both sides, the seat
    that acts now (the holder of a decision, else the striker)."""
    if user is None or not user.is_authenticated:
        return None
    if match.practice:
        if user.pk != match.player_a_id:
            return None
        frame = match_from_json(match.state).frame
        return frame.to_act or frame.striker
    if user.pk == match.player_a_id:
        return "A"
    if user.pk == match.player_b_id:
        return "B"
    return None


def players(row: Match) -> dict[Player, str]:
    return {"A": row.player_a.get_username(), "B": row.player_b.get_username()}


def _snapshot(row: Match, state: MatchState) -> server_out.Snapshot:
    return server_out.Snapshot.of(row.version, state, row.shot_clock, row.deadline)


def _stroke_due(state: MatchState) -> bool:
    """The striker is to play (no decision or draw awaited, the match goes on)."""
    return not state.over and state.frame.pending is None and not state.frame.frame_over


def _turn(row: Match, state: MatchState) -> Turn:
    aimer = state.frame.striker if _stroke_due(state) else None
    return Turn(row.deadline, aimer, state.frame.in_hand)


def table(match_id: int) -> tuple[Match, server_out.Snapshot, Turn]:
    """The match row (players loaded), its public snapshot and the turn, at its version."""
    row = Match.objects.select_related("player_a", "player_b").get(pk=match_id)
    state = match_from_json(row.state)
    return row, _snapshot(row, state), _turn(row, state)


def snapshot(match_id: int) -> tuple[Match, server_out.Snapshot]:
    row, snap, _ = table(match_id)
    return row, snap


@dataclass(frozen=True, slots=True)
class Missed:
    texts: list[str]  # the stored events after the version asked for, in order
    version: int  # the match's version when they were read
    turn: Turn  # the turn at that version


def events_after(match_id: int, version: int, limit: int) -> Missed | None:
    """The events after `version` in order, or None if more than `limit` (send a snapshot)."""
    row = Match.objects.get(pk=match_id)
    # Only up to the row's version: the events and the row it is read with are consistent.
    after = MatchEvent.objects.filter(
        match_id=match_id, version__gt=version, version__lte=row.version
    )
    texts = list(after.order_by("version").values_list("payload", flat=True)[: limit + 1])
    if len(texts) > limit:
        return None
    return Missed(texts, row.version, _turn(row, match_from_json(row.state)))


# --- the referee's log ------------------------------------------------------------------------
LOG_ENTRIES = 200  # a frame's log sends at most its last 200 events (a frame rarely has 100)
LOG_CACHE_SECONDS = 3600


def frame_log(match_id: int, number: int, upto: int, breaker: Player, final: bool) -> str:
    """The `log` message (as text) of frame `number` up to version `upto`, from the frame's
    own stored events only (indexed by frame). Kept in the cache: a finished frame's log for
    good (`final`), the frame being played under its version, so a crowd arriving at one
    version makes one read per process."""
    key = f"game:log:{match_id}:{number}:{'final' if final else upto}"
    found = cache.get(key)
    if isinstance(found, str):
        return found
    events = MatchEvent.objects.filter(match_id=match_id, frame=number, version__lte=upto)
    texts = list(events.order_by("-version").values_list("payload", flat=True)[: LOG_ENTRIES + 1])
    texts.reverse()
    # Over the cap, the event before the first one kept is read only for the break it left.
    earlier, kept = texts[: len(texts) - LOG_ENTRIES], texts[-LOG_ENTRIES:]
    omitted = events.count() - LOG_ENTRIES if earlier else 0
    break_before = 0
    for text in earlier:
        read = _read(text)
        break_before = read.snapshot.scoreboard.brk if read else 0
    entries: list[server_out.LogEntry] = []
    for text in kept:
        stored = _read(text)
        if stored is None:
            omitted += 1
            continue
        entries.append(server_out.LogEntry.of(stored, break_before))
        break_before = stored.snapshot.scoreboard.brk
    made = server_out.Log(frame=number, breaker=breaker, entries=entries, omitted=omitted).text()
    cache.set(key, made, LOG_CACHE_SECONDS)
    return made


def _read(text: str) -> server_out.StoredEvent | None:
    """A stored event as the log reads it, or None for a shape from before the log."""
    try:
        return server_out.StoredEvent.read(text)
    except ValidationError:
        return None


def current_log(row: Match) -> str:
    """The log of the frame being played (the last frame, once the match is over), up to
    the row's version."""
    state = match_from_json(row.state)
    number = max(1, state.frame_number)
    breaker = rules_match.breaker_of(state.first_breaker, number)
    return frame_log(row.pk, number, row.version, breaker, final=False)


def requested_log(match_id: int, number: int) -> str:
    """A browser asked for frame `number`'s log: any frame played so far."""
    row = Match.objects.only("version", "state").get(pk=match_id)
    state = match_from_json(row.state)
    if number > max(1, state.frame_number):
        raise ServiceError("no_such_frame", f"frame {number} has not been played")
    breaker = rules_match.breaker_of(state.first_breaker, number)
    final = number < state.frame_number or state.over
    return frame_log(match_id, number, row.version, breaker, final)


# --- writing ---------------------------------------------------------------------------------
def _deadline(
    row: Match, state: MatchState, still_in: float = 0.0, now: datetime | None = None
) -> datetime | None:
    """When the striker's time runs out, if the match has a shot clock, has started (both
    players at the table together; at a practice table, once the member came) and a stroke
    is due. The time starts when the table is still: `still_in` seconds from now (the last
    stroke's balls rolling, a finished frame's last position held before the next rack),
    which the striker cannot use."""
    if row.shot_clock is None or row.status != Match.Status.LIVE:
        return None
    if row.started is None or row.arrived_a is None or row.arrived_b is None:
        return None
    if not _stroke_due(state):
        return None
    return (now or timezone.now()) + timedelta(seconds=still_in + row.shot_clock)


def _still_in(outcome: Outcome, state: MatchState) -> float:
    """Seconds until the table is still after `outcome`, as every browser shows it."""
    rolling = outcome.shot.duration if outcome.shot is not None else 0.0
    held = FRAME_HOLD if outcome.frame_end is not None and not state.over else 0.0
    return rolling + held


def create_match(
    player_a: User,
    player_b: User,
    best_of: int,
    *,
    shot_clock: int | None = None,
    reconnect_grace: int | None = None,
    draw: Player | None = None,
    rated: bool = False,
    guest: bool = False,
    practice: bool = False,
) -> Match:
    """A new match; the first break goes to a server-side draw, recorded as event 1. Its
    clocks wait until both players have come to the table. A practice table has one member
    on both sides; it is never rated, nor is a match with a guest."""
    if (player_a.pk == player_b.pk) != practice:
        if practice:
            raise ServiceError("bad_practice", "a practice table has one member on both sides")
        raise ServiceError("same_player", "a match needs two different players")
    if rated and (guest or practice):
        raise ServiceError("unrated", "a match with a guest, or a practice, is never rated")
    winner: Player = draw if draw is not None else secrets.choice(PLAYERS)
    try:
        state = rules_match.new_match(best_of, winner)
    except IllegalRequest as exc:
        raise ServiceError(exc.code, exc.detail) from None
    grace = reconnect_grace if reconnect_grace is not None else settings.SNOOKER["RECONNECT_GRACE"]
    with transaction.atomic():
        row = Match.objects.create(
            player_a=player_a, player_b=player_b, best_of=best_of, shot_clock=shot_clock,
            reconnect_grace=grace, version=1, state=match_to_json(state),
            rated=rated, guest=guest, practice=practice,
            # One member on both sides: nobody to wait for.
            started=timezone.now() if practice else None,
        )  # fmt: skip
        start = server_out.StartRequest(draw=winner)
        text = server_out.Event.of("start", None, start, None, _snapshot(row, state)).text()
        MatchEvent.objects.create(
            match=row,
            version=1,
            kind="start",
            command=start.model_dump(),
            payload=text,
            frame=1,
        )
    return row


def _store(
    row: Match,
    seat: Player | None,
    command: Command,
    state: MatchState,
    outcome: Outcome,
    actor: Visitor = None,
    client_id: str | None = None,
) -> Stored:
    """Write version N + 1 if the match is still at N; raise a conflict otherwise."""
    # The frame the event belongs to: the one it ended, else the one still being played.
    frame = len(state.frames) if outcome.frame_end is not None else state.frame_number
    seen = row.version
    row.version = seen + 1
    row.state = match_to_json(state)
    row.status = Match.Status.FINISHED if state.over else Match.Status.LIVE
    row.deadline = _deadline(row, state, _still_in(outcome, state))
    updated = Match.objects.filter(pk=row.pk, version=seen).update(
        version=row.version, state=row.state, status=row.status, deadline=row.deadline
    )
    if not updated:
        raise ServiceError("conflict", "another request changed the match first; try again")
    kind = commands.kind(command)
    event = server_out.Event.of(
        kind,  # type: ignore[arg-type]  # commands.kind names one of Event's kinds
        seat,
        server_out.request_of(command),
        outcome,
        _snapshot(row, state),
    )
    text = event.text()
    MatchEvent.objects.create(
        match=row, version=row.version, kind=kind, actor_id=actor.pk if actor else None,
        client_id=client_id,
        seat=seat or "", command=commands.to_json(command), payload=text, frame=frame,
    )  # fmt: skip
    if state.over:
        # The members' figures, the ladder's result and the ratings (game/signals.py).
        match_finished.send(Match, match=row)
    return Stored(row.version, text, _turn(row, state))


def _apply(
    row: Match,
    state: MatchState,
    seat: Player | None,
    command: Command,
    actor: Visitor = None,
    client_id: str | None = None,
) -> list[Stored]:
    """Apply and store a command, then the server's draw if it made one due (§7)."""
    new, outcome = rules_match.apply(state, seat, command)
    stored = [_store(row, seat, command, new, outcome, actor, client_id)]
    if rules_match.toss_due(new):
        toss = commands.Toss(secrets.choice(PLAYERS))
        tossed, outcome = rules_match.apply(new, None, toss)
        stored.append(_store(row, None, toss, tossed, outcome))
    return stored


PlayerRequest = client_in.Stroke | client_in.Choose | client_in.Concede | client_in.Claim


def _command(message: PlayerRequest) -> Command:
    """The rules' command for a player's request."""
    if isinstance(message, client_in.Stroke):
        return commands.Stroke(
            angle=message.angle, speed=message.speed, side=message.side, height=message.height,
            nominated=message.nominated, cue_ball=message.cue_ball,
        )  # fmt: skip
    if isinstance(message, client_in.Choose):
        return commands.Choose(message.option)
    if isinstance(message, client_in.Concede):
        return commands.Concede(message.scope)
    return commands.Claim(message.scope)


_REFUSED_CLAIMS: dict[Refusal, str] = {
    Refusal.NOT_STARTED: "the match has not started: the two players were never here together",
    Refusal.CLAIMANT_AWAY: "a claim needs the claimant at the table",
    Refusal.OPPONENT_HERE: "the opponent is at the table",
    Refusal.GRACE: "the opponent has not been away for the whole grace",
}


def _check(row: Match, seat: Player, message: PlayerRequest) -> None:
    """What the rules core cannot know: whether the match is still on, the table the player
    saw, the presence a claim needs."""
    if row.status == Match.Status.ABANDONED:
        raise ServiceError("abandoned", "the match was abandoned: it never started")
    if isinstance(message, client_in.Stroke | client_in.Choose) and message.version != row.version:
        raise ServiceError("stale_version", f"the table changed (now version {row.version})")
    if isinstance(message, client_in.Claim):
        refusal = why_not_claim(row, seat)
        if refusal is not None:
            raise ServiceError("not_claimable", _REFUSED_CLAIMS[refusal])


def submit(match_id: int, user: Visitor, message: PlayerRequest) -> Applied:
    """Apply a player's request (stroke, choice, concession, claim) exactly once."""
    client_id = message.client_id
    command = _command(message)
    if user is None or not user.is_authenticated:
        raise ServiceError("not_a_player", "spectators cannot play")
    try:
        with transaction.atomic():
            row = Match.objects.select_for_update().get(pk=match_id)
            seen = _seen(match_id, user, client_id)
            if seen is not None:
                return _again(row, seen, command)
            seat = seat_of(row, user)
            if seat is None:
                raise ServiceError("not_a_player", "only the two players may play")
            _check(row, seat, message)
            try:
                stored = _apply(row, match_from_json(row.state), seat, command, user, client_id)
            except IllegalRequest as exc:
                raise ServiceError(exc.code, exc.detail) from None
    except OperationalError:
        # SQLite refuses a second writer while one holds the lock: nothing was written.
        raise ServiceError("busy", "the table is busy; try again") from None
    except IntegrityError:
        # The same client id raced in through another process: answer with what was stored.
        seen = _seen(match_id, user, client_id)
        if seen is None:
            raise ServiceError("conflict", "another request changed the match first") from None
        return _again(Match.objects.get(pk=match_id), seen, command)
    return Applied(tuple(stored), duplicate=False)


def _seen(match_id: int, user: AbstractBaseUser, client_id: str) -> MatchEvent | None:
    """The event a request with this client id made earlier, if any."""
    found = MatchEvent.objects.filter(match_id=match_id, actor_id=user.pk, client_id=client_id)
    return found.first()


def _again(row: Match, seen: MatchEvent, command: Command) -> Applied:
    """The answer to a repeated request: its stored event, broadcast again by the caller. The
    same client id with another request is refused: the browser must not reuse ids."""
    if seen.kind != commands.kind(command) or seen.command != commands.to_json(command):
        raise ServiceError("client_id_reused", "this client id was used for another request")
    turn = _turn(row, match_from_json(row.state)) if seen.version == row.version else NO_TURN
    return Applied((Stored(seen.version, seen.payload, turn),), duplicate=True)


def expire_shot_clock(match_id: int, version: int) -> list[Stored]:
    """The striker's time ran out at `version`: settle the time foul once (RULES.md §4)."""
    with transaction.atomic():
        row = Match.objects.select_for_update().get(pk=match_id)
        if row.version != version or row.deadline is None or timezone.now() < row.deadline:
            return []
        if row.status != Match.Status.LIVE:
            return []
        state = match_from_json(row.state)
        return _apply(row, state, state.frame.striker, commands.ShotClockExpired())


# --- presence --------------------------------------------------------------------------------
def _stale_before(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(seconds=settings.SNOOKER["CONNECTION_STALE"])


def connect(
    match_id: int, channel_name: str, seat: Player, now: datetime | None = None
) -> ClockStart | None:
    """A player's socket came. Their first coming is their arrival (at a practice table, both
    seats'); if the opponent has a live socket too, the match starts now (`Match.started`,
    once). The start starts the shot clock, if the match has one: that start is returned, for
    the consumer to tell everyone. (Spectators' sockets are written in batches:
    `spectators`.)"""
    now = now or timezone.now()
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
            row.deadline = _deadline(row, match_from_json(row.state), now=now)
            if row.deadline is not None:
                fields.append("deadline")
        if not fields:
            return None
        row.save(update_fields=fields)
    if "deadline" not in fields or row.deadline is None:
        return None
    return ClockStart(row.version, row.deadline)


def spectators(arrived: dict[str, int], left: list[str]) -> None:
    """The spectators' sockets that came (channel name -> match id) and went since a process
    last wrote them, in one transaction: a crowd's comings and goings cost a write or two a
    beat, not one each."""
    if not arrived and not left:
        return
    now = timezone.now()
    with transaction.atomic():
        Connection.objects.bulk_create(
            [Connection(channel_name=c, match_id=m, seat="", last_seen=now)
             for c, m in arrived.items()],
            ignore_conflicts=True,  # written before, by an attempt that failed later
        )  # fmt: skip
        for i in range(0, len(left), 500):  # within any database's limit on parameters
            Connection.objects.filter(channel_name__in=left[i : i + 500]).delete()


def beat(channel_names: list[str]) -> dict[int, int]:
    """A process's heartbeat: refresh its sockets' rows, sweep the rows of dead processes
    (a seated player's becomes an absence from its last sign of life), and say the version of
    each match it serves."""
    now = timezone.now()
    Connection.objects.filter(channel_name__in=channel_names).update(last_seen=now)
    stale = list(
        Connection.objects.filter(last_seen__lt=_stale_before()).values_list(
            "pk", "match_id", "seat", "last_seen"
        )
    )
    for _, match_id, seat, seen in stale:
        if seat and not _live(match_id, seat).exists():
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
            match_id=match_id, seat=seat, defaults={"since": now or timezone.now()}
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
    now = now or timezone.now()
    seats = presence(row.pk, now).players
    return claim_refusal(
        row.started, seats[claimant].online, seats[opponent(claimant)].away_since,
        timedelta(seconds=row.reconnect_grace), now,
    )  # fmt: skip


# --- rebuilding ------------------------------------------------------------------------------
def rebuild(match_id: int) -> MatchState:
    """Replay the stored commands through the rules core: the state they must give.

    Physics and referee are deterministic and the server's draws are stored, so this equals
    the stored state; a test holds the service to it.
    """
    row = Match.objects.get(pk=match_id)
    events = MatchEvent.objects.filter(match=row).order_by("version")
    stored = iter(events.values_list("kind", "seat", "command"))
    _, _, start = next(stored)
    draw = start["draw"]
    assert is_player(draw)
    return rules_match.replay(row.best_of, draw, _commands(stored))


def _commands(
    stored: Iterator[tuple[str, str, object]],
) -> Iterator[tuple[Player | None, Command]]:
    for kind, seat, data in stored:
        yield (seat if is_player(seat) else None), commands.from_json(kind, data)
