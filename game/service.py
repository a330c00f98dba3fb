"""The match service: check, apply, store; each stored event is broadcast once its transaction
commits (game/broadcast.py's `on_commit`), by the action itself, whoever called it.
Presence (who is at the table) is game/presence.py; the referee's log, game/logs.py.

Each request is applied once: read the match at version N, authorise, apply the command with
the pure rules core (`rules.match.apply`), and store the command, the event built by
`server_out` and the new state as version N + 1 only if the match is still as read
(game/writes.py: for a stroke, one statement on PostgreSQL; a match's end with its results in
one transaction). A repeated client id returns the stored event.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import IntegrityError, OperationalError, transaction

from accounts.visitors import Visitor
from game import clock, positions, presence, turns, writes
from game.broadcast import Stored, publish_on_commit
from game.models import Match, MatchEvent
from game.protocol import client_in, server_out
from game.signals import match_finished, stroke_settled
from rules import commands, setup
from rules import match as rules_match
from rules.challenges import GUIDES
from rules.commands import Command
from rules.errors import IllegalRequest, Refused
from rules.match import Match as MatchState
from rules.match import Outcome, match_from_json, match_to_json
from rules.presence import Refusal
from rules.state import NO_START, PLAYERS, FrameState, Player, is_player


class ServiceError(Refused):
    """A refused request; nothing was changed. `code` is stable for the protocol."""


class _Moved(ServiceError):
    """The match's row changed between its read and the write computed from it."""


@dataclass(frozen=True, slots=True)
class Applied:
    events: tuple[Stored, ...]  # the request's event, then any the server added (the toss)
    duplicate: bool  # the client id had been seen: nothing new was applied

    @property
    def version(self) -> int:
        """The version the request created (or created the first time)."""
        return self.events[0].version


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


def table(match_id: int) -> tuple[Match, server_out.Snapshot, turns.Turn]:
    """The match row (players loaded), its public snapshot and the turn, at its version."""
    row = Match.objects.select_related("player_a", "player_b").get(pk=match_id)
    state = match_from_json(row.state)
    return row, _snapshot(row, state), turns.current(row, state)


def snapshot(match_id: int) -> tuple[Match, server_out.Snapshot]:
    row, snap, _ = table(match_id)
    return row, snap


@dataclass(frozen=True, slots=True)
class Missed:
    texts: list[str]  # the stored events after the version asked for, in order
    version: int  # the match's version when they were read
    turn: turns.Turn  # the turn at that version


def events_after(match_id: int, version: int, limit: int) -> Missed | None:
    """The events after `version` in order, or None if more than `limit` (send a snapshot)."""
    row = Match.objects.get(pk=match_id)
    # Only up to the row's version: the events and the row it is read with are consistent.
    texts = events_between(match_id, version, row.version, limit)
    if texts is None:
        return None
    return Missed(texts, row.version, turns.current(row, match_from_json(row.state)))


def events_between(match_id: int, after: int, upto: int, limit: int) -> list[str] | None:
    """The stored events after `after` up to `upto` in order, or None if more than `limit`.
    A welcome reads them up to the version of the table it read just before: an event stored
    in between is sent after them, as every event is, not turned into a snapshot."""
    between = MatchEvent.objects.filter(match_id=match_id, version__gt=after, version__lte=upto)
    texts = list(between.order_by("version").values_list("payload", flat=True)[: limit + 1])
    return None if len(texts) > limit else texts


# --- writing ---------------------------------------------------------------------------------
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
    guide: str | None = None,
    start: tuple[int, int] = NO_START,
    position: FrameState | None = None,
) -> Match:
    """A new match; the first break goes to a server-side draw, recorded as event 1. Its
    clocks wait until both players have come to the table. A practice table has one member
    on both sides; it is never rated, nor is a match with a guest. `start` is the handicap
    start (A, B) of every frame (RULES.md §10), at most the club's cap; it is in the first
    event's request and on the scoreboard from the first frame. `position`: a best of one
    whose frame is set up there, not racked (rules/setup.py; its striker breaks, and the
    position is in the first event's request, so the match rebuilds from its events)."""
    if (player_a.pk == player_b.pk) != practice:
        if practice:
            raise ServiceError("bad_practice", "a practice table has one member on both sides")
        raise ServiceError("same_player", "a match needs two different players")
    if rated and (guest or practice):
        raise ServiceError("unrated", "a match with a guest, or a practice, is never rated")
    cap = settings.CLUB["HANDICAP_CAP"]
    if max(start) > cap:
        raise ServiceError("bad_start", f"start {start}: the club's cap is {cap} points")
    winner: Player = draw if draw is not None else secrets.choice(PLAYERS)
    try:
        if position is not None:
            if best_of != 1 or start != NO_START:
                raise IllegalRequest("bad_format", "a position is played as one frame, no start")
            position = setup.set_up(position)
            winner = position.striker
            state = rules_match.Match(best_of, winner, position)
        else:
            state = rules_match.new_match(best_of, winner, start)
    except IllegalRequest as exc:
        raise ServiceError(exc.code, exc.detail) from None
    grace = reconnect_grace if reconnect_grace is not None else settings.SNOOKER["RECONNECT_GRACE"]
    guide = guide or settings.SNOOKER["AIM_GUIDE"]
    if guide not in GUIDES:
        raise ServiceError("bad_format", f"{guide!r} is not an aim guide the club offers")
    with transaction.atomic():
        row = Match.objects.create(
            player_a=player_a, player_b=player_b, best_of=best_of, shot_clock=shot_clock,
            reconnect_grace=grace, version=1, state=match_to_json(state),
            rated=rated, guest=guest, practice=practice, guide=guide,
            position=positions.key_of(practice, state),
            # One member on both sides: nobody to wait for.
            started=clock.now() if practice else None,
        )  # fmt: skip
        request = server_out.StartRequest(
            draw=winner, start=server_out.Scores.of(start),
            position=position.to_json() if position is not None else None,
        )  # fmt: skip
        text = server_out.Event.of("start", None, request, None, _snapshot(row, state)).text()
        MatchEvent.objects.create(
            match=row,
            version=1,
            kind="start",
            command=request.model_dump(),
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
    """Write version N + 1 if the match is still as it was read at N; raise `_Moved` if not."""
    read = writes.as_read(row)
    # The frame the event belongs to: the one it ended, else the one still being played.
    frame = len(state.frames) if outcome.frame_end is not None else state.frame_number
    row.version += 1
    row.state = match_to_json(state)
    row.status = Match.Status.FINISHED if state.over else Match.Status.LIVE
    now = clock.now()
    row.deadline = turns.deadline(row, state, turns.still_in(outcome, state), now)
    row.turn_began = now
    row.position = positions.key_of(row.practice, state)  # the live positions' index
    kind = commands.kind(command)
    event = server_out.Event.of(
        kind,  # type: ignore[arg-type]  # commands.kind names one of Event's kinds
        seat,
        server_out.request_of(command),
        outcome,
        _snapshot(row, state),
    )
    text = event.text()
    stored = MatchEvent(
        match=row, version=row.version, kind=kind, actor_id=actor.pk if actor else None,
        client_id=client_id,
        seat=seat or "", command=commands.to_json(command), payload=text, frame=frame,
    )  # fmt: skip
    if not writes.advance(row, read, stored):
        raise _Moved("conflict", "another request changed the match first; try again")
    if state.over:
        # The members' figures, the ladder's result and the ratings (game/signals.py).
        match_finished.send(Match, match=row)
    told = Stored(row.version, text, turns.current(row, state))
    publish_on_commit(row.pk, told)
    return told


def _apply(
    row: Match,
    state: MatchState,
    seat: Player | None,
    command: Command,
    actor: Visitor = None,
    client_id: str | None = None,
) -> list[Stored]:
    """Apply and store a command, then the server's draw if it made one due (§7). A stroke
    that is one event is one write; one that ends the match (its results) or makes a draw due
    is stored in one transaction, the caller's if it has one."""
    new, outcome = rules_match.apply(state, seat, command)
    toss = commands.Toss(secrets.choice(PLAYERS)) if rules_match.toss_due(new) else None
    # A practice table's stroke may be a drill's: its run is kept in the stroke's transaction.
    heard = row.practice and isinstance(command, commands.Stroke)
    together = transaction.atomic(savepoint=False) if new.over or toss or heard else nullcontext()
    with together:
        stored = [_store(row, seat, command, new, outcome, actor, client_id)]
        now = new
        if toss is not None:
            now, tossed = rules_match.apply(new, None, toss)
            stored.append(_store(row, None, toss, now, tossed))
        if heard:
            stored += _after_stroke(row, now, seat, outcome)
    return stored


def _after_stroke(
    row: Match, state: MatchState, seat: Player | None, outcome: Outcome
) -> list[Stored]:
    """The one place a practice table's stroke is heard by what keeps score around it (a
    drill, club/drills.py: `stroke_settled`, given the stroke's `outcome` and the match as it
    now stands); a command it answers with is stored here."""
    stored: list[Stored] = []
    answers = stroke_settled.send(Match, match=row, state=state, outcome=outcome, seat=seat)
    for _, then in answers:
        if isinstance(then, commands.Concede | commands.Claim) and not state.over:
            state, done = rules_match.apply(state, seat, then)
            stored.append(_store(row, seat, then, state, done))
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
    Refusal.BEFORE_START: "the agreed start time has not come yet",
    Refusal.CLAIMANT_AWAY: "a claim needs the claimant at the table",
    Refusal.OPPONENT_HERE: "the opponent is at the table",
    Refusal.GRACE: "the opponent has not been away for the whole grace",
    Refusal.STALLING: "the opponent, to play, has not yet had the whole stall time",
}


def _check(row: Match, seat: Player, message: PlayerRequest) -> None:
    """What the rules core cannot know: whether the match is still on, the table the player
    saw, the presence a claim needs."""
    if row.status == Match.Status.ABANDONED:
        if row.started is not None:
            raise ServiceError("deserted", "the match was abandoned: both players had left it")
        raise ServiceError("abandoned", "the match was abandoned: it never started")
    if isinstance(message, client_in.Stroke | client_in.Choose) and row.started is None:
        # Play begins when both players are at the table together (game/presence.py): a
        # stroke before it would start a match that may never start, and its clocks with it.
        raise ServiceError("not_started", "the match has not started: wait for your opponent")
    if isinstance(message, client_in.Stroke | client_in.Choose) and message.version != row.version:
        raise ServiceError("stale_version", f"the table changed (now version {row.version})")
    if isinstance(message, client_in.Claim):
        refusal = presence.why_not_claim(row, seat)
        if refusal is not None:
            raise ServiceError("not_claimable", _REFUSED_CLAIMS[refusal])


def submit(match_id: int, user: Visitor, message: PlayerRequest) -> Applied:
    """Apply a player's request (stroke, choice, concession, claim) exactly once.

    A stroke or a choice is computed from the row as read, unlocked, and stored only if the
    row is still so (`writes.advance`): the fewest round trips for the players' busiest
    requests. If another writer came between, it is taken again under the row's lock, as a
    concession and a claim always are (a claim's presence is read under it)."""
    command = _command(message)
    if user is None or not user.is_authenticated:
        raise ServiceError("not_a_player", "spectators cannot play")
    try:
        if isinstance(message, client_in.Stroke | client_in.Choose):
            try:
                return _submit(match_id, user, message, command, locked=False)
            except _Moved:
                pass
        return _submit(match_id, user, message, command, locked=True)
    except OperationalError:
        # SQLite refuses a second writer while one holds the lock: nothing was written.
        raise ServiceError("busy", "the table is busy; try again") from None
    except IntegrityError:
        # The client id was stored already: a repeat still allowed (a concession), or one that
        # raced in through another process. Answer with what the first one stored.
        seen = _seen(match_id, user, message.client_id)
        if seen is None:
            raise ServiceError("conflict", "another request changed the match first") from None
        return _again(Match.objects.get(pk=match_id), seen, command)


def _submit(
    match_id: int, user: AbstractBaseUser, message: PlayerRequest, command: Command, locked: bool
) -> Applied:
    with transaction.atomic() if locked else nullcontext():
        row = (Match.objects.select_for_update() if locked else Match.objects).get(pk=match_id)
        try:
            stored = _play(row, user, message, command)
        except ServiceError as refused:
            if isinstance(refused, _Moved) and not locked:
                raise  # taken again under the lock (`submit`)
            # A repeat of a request applied earlier (its answer lost with a connection) is
            # refused as stale or out of turn: answer it with what it stored. Only a refusal
            # looks, so a new request costs no read for it; a repeat that is still allowed
            # fails on the unique client id (`submit`).
            seen = _seen(match_id, user, message.client_id)
            if seen is None:
                raise
            return _again(row, seen, command)
    return Applied(tuple(stored), duplicate=False)


def _play(
    row: Match, user: AbstractBaseUser, message: PlayerRequest, command: Command
) -> list[Stored]:
    """Authorise the request against the row as read, apply it and store what it made."""
    seat = seat_of(row, user)
    if seat is None:
        raise ServiceError("not_a_player", "only the two players may play")
    _check(row, seat, message)
    try:
        return _apply(row, match_from_json(row.state), seat, command, user, message.client_id)
    except IllegalRequest as exc:
        raise ServiceError(exc.code, exc.detail) from None


def _seen(match_id: int, user: AbstractBaseUser, client_id: str) -> MatchEvent | None:
    """The event a request with this client id made earlier, if any."""
    found = MatchEvent.objects.filter(match_id=match_id, actor_id=user.pk, client_id=client_id)
    return found.first()


def _again(row: Match, seen: MatchEvent, command: Command) -> Applied:
    """The answer to a repeated request: its stored event, broadcast again (the first attempt
    may have died with its process before telling anyone; sockets that have it ignore it).
    The same client id with another request is refused: the browser must not reuse ids."""
    if seen.kind != commands.kind(command) or seen.command != commands.to_json(command):
        raise ServiceError("client_id_reused", "this client id was used for another request")
    turn = (
        turns.current(row, match_from_json(row.state))
        if seen.version == row.version
        else turns.NO_TURN
    )
    stored = Stored(seen.version, seen.payload, turn)
    publish_on_commit(row.pk, stored)
    return Applied((stored,), duplicate=True)


def expire_shot_clock(match_id: int, version: int, now: datetime | None = None) -> list[Stored]:
    """The striker's time ran out at `version`: settle the time foul once (RULES.md §4)."""
    with transaction.atomic():
        row = Match.objects.select_for_update().get(pk=match_id)
        if row.version != version or row.deadline is None or (now or clock.now()) < row.deadline:
            return []
        if row.status != Match.Status.LIVE:
            return []
        state = match_from_json(row.state)
        return _apply(row, state, state.frame.striker, commands.ShotClockExpired())


# --- rebuilding ------------------------------------------------------------------------------
def rebuild(match_id: int) -> MatchState:
    """Replay the stored commands through the rules core: the state they must give.

    Physics and referee are deterministic and the server's draws are stored, so this equals
    the stored state; a test holds the service to it.
    """
    match, commands = recorded(match_id)
    for seat, command in commands:
        match, _ = rules_match.apply(match, seat, command)
    return match


def position_before(match_id: int, version: int) -> FrameState:
    """The frame as it stood before the event at `version` (a replay's step): the stored
    commands folded up to it. `ServiceError("no_stroke_here")` if no stroke was due there (a
    choice pending, the frame over, the draw, or no such event)."""
    match, commands = recorded(match_id)
    if not 2 <= version <= len(commands) + 1:
        raise ServiceError("no_stroke_here", f"the match has no event {version}")
    for seat, command in commands[: version - 2]:
        match, _ = rules_match.apply(match, seat, command)
    frame = match.frame
    if match.over or frame.frame_over or frame.pending is not None:
        raise ServiceError("no_stroke_here", "no stroke was due there")
    return frame


def recorded(match_id: int) -> tuple[MatchState, list[tuple[Player | None, Command]]]:
    """The match as it began (its best-of, the draw, the handicap start) and every command
    stored since, in order: what the replay, the analysis and any rebuild fold."""
    row = Match.objects.get(pk=match_id)
    events = MatchEvent.objects.filter(match=row).order_by("version")
    stored = iter(events.values_list("kind", "seat", "command"))
    _, _, first = next(stored)
    start = server_out.StartRequest.model_validate(first)
    if start.position is not None:
        begun = rules_match.Match(row.best_of, start.draw, FrameState.from_json(start.position))
    else:
        begun = rules_match.new_match(row.best_of, start.draw, start.points)
    return begun, list(_commands(stored))


def _commands(
    stored: Iterator[tuple[str, str, object]],
) -> Iterator[tuple[Player | None, Command]]:
    for kind, seat, data in stored:
        yield (seat if is_player(seat) else None), commands.from_json(kind, data)
