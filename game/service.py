"""The match service: check, apply, store. No sockets here; the consumer broadcasts after commit.

Each request is applied in one transaction: load the match at version N, authorise, compute the
new state with the pure rules core (physics + referee), store the event and the state as version
N + 1 only if the match is still at N, commit. A repeated client id returns the stored event.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from game.models import Absence, Connection, Match, MatchEvent
from game.protocol import client_in
from rules import match as rules_match
from rules import referee
from rules.errors import IllegalRequest
from rules.match import Match as MatchState
from rules.match import match_from_json, match_to_json
from rules.referee import Ruling
from rules.state import FrameState, Player, opponent
from rules.stroke import StrokeRequest, play_stroke

User = AbstractBaseUser | AnonymousUser


class ServiceError(Exception):
    """A refused request; nothing was changed. `code` is stable for the protocol."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Change:
    """A new match state and what made it: the body of one event."""

    state: MatchState
    kind: str
    seat: Player | None
    request: dict[str, Any]
    ruling: Ruling | None = None
    shot: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Stored:
    """One stored event, ready to broadcast."""

    version: int
    text: str  # the event as sent to browsers (JSON)
    deadline: str | None  # the shot clock's deadline after it, for the sockets' timers


@dataclass(frozen=True, slots=True)
class Applied:
    events: tuple[Stored, ...]  # the request's event, then any the server added (the toss)
    duplicate: bool  # the client id had been seen: nothing new was applied

    @property
    def version(self) -> int:
        """The version the request created (or created the first time)."""
        return self.events[0].version


# --- reading ---------------------------------------------------------------------------------
def seat_of(match: Match, user: User) -> Player | None:
    if not user.is_authenticated:
        return None
    if user.pk == match.player_a_id:
        return "A"
    if user.pk == match.player_b_id:
        return "B"
    return None


def _frame_json(frame: FrameState) -> dict[str, Any]:
    data = frame.to_json()
    if data["pending"] is not None:
        data["pending"] = {k: v for k, v in data["pending"].items() if k != "restore"}
    return data


def public_snapshot(row: Match, state: MatchState) -> dict[str, Any]:
    """Everything a browser shows, at `row.version` (no private fields: there are none)."""
    board = rules_match.scoreboard(state)
    deadline = clock_deadline(row, state)
    return {
        "version": row.version,
        "status": row.status,
        "best_of": state.best_of,
        "first_breaker": state.first_breaker,
        "winner": state.winner,
        "frames": [
            {
                "number": f.number,
                "breaker": f.breaker,
                "winner": f.winner,
                "scores": {"A": f.scores[0], "B": f.scores[1]},
            }
            for f in state.frames
        ],
        "frame": _frame_json(state.frame),
        "scoreboard": {
            "scores": {"A": board.scores[0], "B": board.scores[1]},
            "frames": {"A": board.frames[0], "B": board.frames[1]},
            "frame_number": board.frame_number,
            "striker": board.striker,
            "to_act": board.to_act,
            "on": board.on,
            "break": board.current_break,
            "points_remaining": board.points_remaining,
            "snookers_required": {"A": board.snookers_required[0], "B": board.snookers_required[1]},
        },
        "shot_clock": {
            "seconds": row.shot_clock,
            "deadline": deadline.isoformat() if deadline else None,
        },
    }


def clock_deadline(row: Match, state: MatchState) -> datetime | None:
    """When the striker's time runs out, if the match has a shot clock and a stroke is due."""
    frame = state.frame
    if row.shot_clock is None or state.over or frame.pending is not None or frame.frame_over:
        return None
    return row.turn_started + timedelta(seconds=row.shot_clock)


def snapshot(match_id: int) -> tuple[Match, dict[str, Any]]:
    row = Match.objects.select_related("player_a", "player_b").get(pk=match_id)
    return row, public_snapshot(row, match_from_json(row.state))


def events_after(match_id: int, version: int, limit: int) -> list[str] | None:
    """The events after `version` in order, or None if more than `limit` (send a snapshot)."""
    rows = list(
        MatchEvent.objects.filter(match_id=match_id, version__gt=version)
        .order_by("version")
        .values_list("payload", flat=True)[: limit + 1]
    )
    return None if len(rows) > limit else rows


def ruling_json(ruling: Ruling) -> dict[str, Any]:
    return {
        "foul": ruling.foul,
        "fouls": [{"kind": f.name.lower(), "clause": f.value} for f in ruling.fouls],
        "penalty": ruling.penalty,
        "miss": ruling.miss,
        "points": ruling.points,
        "nominated": ruling.nominated,
        "respotted": {b: [p[0], p[1]] for b, p in ruling.respotted},
        "choices": list(ruling.choices),
        "free_ball": ruling.free_ball,
        "touching": ruling.touching,
        "warning": ruling.warning,
        "frame_over": ruling.frame_over,
        "winner": ruling.winner,
        "respotted_black": ruling.respotted_black,
        "calls": list(ruling.calls),
    }


# --- writing ---------------------------------------------------------------------------------
def create_match(
    player_a: AbstractBaseUser,
    player_b: AbstractBaseUser,
    best_of: int,
    *,
    shot_clock: int | None = None,
    reconnect_grace: int | None = None,
    draw: Player | None = None,
) -> Match:
    """A new match; the first break goes to a server-side draw, recorded as event 1."""
    if player_a.pk == player_b.pk:
        raise ServiceError("same_player", "a match needs two different players")
    winner: Player = draw or secrets.choice(("A", "B"))
    try:
        state = rules_match.new_match(best_of, winner)
    except IllegalRequest as exc:
        raise ServiceError(exc.code, exc.detail) from None
    grace = reconnect_grace if reconnect_grace is not None else settings.SNOOKER["RECONNECT_GRACE"]
    with transaction.atomic():
        row = Match.objects.create(
            player_a=player_a, player_b=player_b, best_of=best_of, shot_clock=shot_clock,
            reconnect_grace=grace, version=1, state=match_to_json(state),
            turn_started=timezone.now(),
        )  # fmt: skip
        text = _dumps(_event(row, Change(state, "start", None, {"draw": winner})))
        MatchEvent.objects.create(match=row, version=1, kind="start", payload=text)
    return row


def _event(row: Match, change: Change) -> dict[str, Any]:
    return {
        "type": "event",
        "version": row.version,
        "kind": change.kind,
        "seat": change.seat,
        "request": change.request,
        "ruling": ruling_json(change.ruling) if change.ruling else None,
        "shot": change.shot,
        "snapshot": public_snapshot(row, change.state),
    }


def _compute(
    row: Match, state: MatchState, seat: Player, message: client_in.ClientMessage
) -> Change:
    """The new match state for a request (pure rules; raises IllegalRequest)."""
    request = message.model_dump(exclude={"type", "client_id"})
    if isinstance(message, client_in.Stroke):
        if message.version != row.version:
            raise IllegalRequest("stale_version", f"the table changed (now version {row.version})")
        stroke = StrokeRequest(
            angle=message.angle, speed=message.speed, side=message.side, height=message.height,
            nominated=message.nominated, cue_ball=message.cue_ball,
        )  # fmt: skip
        rules_match.check_live(state)
        frame, ruling, result = play_stroke(state.frame, seat, stroke)
        new = rules_match.advance(state, frame)
        return Change(new, "stroke", seat, request, ruling, result.to_json())
    if isinstance(message, client_in.Choose):
        if message.version != row.version:
            raise IllegalRequest("stale_version", f"the table changed (now version {row.version})")
        new, ruling = rules_match.choose(state, seat, message.option)
        return Change(new, "choice", seat, request, ruling)
    if isinstance(message, client_in.Concede):
        if message.scope == "match":
            new, ruling = rules_match.concede_match(state, seat)
        else:
            new, ruling = rules_match.concede_frame(state, seat)
        return Change(new, "concede", seat, request, ruling)
    if isinstance(message, client_in.Claim):
        absent = opponent(seat)
        if not claimable(row, absent):
            raise IllegalRequest("not_claimable", f"player {absent} is present or within grace")
        if message.scope == "match":
            new, ruling = rules_match.concede_match(state, absent)
        else:
            new, ruling = rules_match.concede_frame(state, absent)
        return Change(new, "claim", seat, request, ruling)
    raise IllegalRequest("bad_request", f"{message.type} changes nothing")


def _store(
    row: Match, change: Change, actor: User | None = None, client_id: str | None = None
) -> Stored:
    """Write version N + 1 if the match is still at N; raise a conflict otherwise."""
    before = row.version
    row.version = before + 1
    row.state = match_to_json(change.state)
    row.status = Match.Status.FINISHED if change.state.over else Match.Status.LIVE
    row.turn_started = timezone.now()
    updated = Match.objects.filter(pk=row.pk, version=before).update(
        version=row.version, state=row.state, status=row.status, turn_started=row.turn_started
    )
    if not updated:
        raise ServiceError("conflict", "another request changed the match first; try again")
    text = _dumps(_event(row, change))
    MatchEvent.objects.create(
        match=row, version=row.version, kind=change.kind, actor=actor, client_id=client_id,
        request=change.request, payload=text,
    )  # fmt: skip
    deadline = clock_deadline(row, change.state)
    return Stored(row.version, text, deadline.isoformat() if deadline else None)


def _toss_if_due(row: Match, state: MatchState) -> list[Stored]:
    """§7: the draw for the re-spotted black is the server's, recorded as its own event."""
    frame = state.frame
    if state.over or frame.pending is None or frame.pending.holder is not None:
        return []
    winner: Player = secrets.choice(("A", "B"))
    new, ruling = rules_match.toss(state, winner)
    return [_store(row, Change(new, "toss", None, {"winner": winner}, ruling))]


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


def submit(match_id: int, user: User, message: client_in.ClientMessage) -> Applied:
    """Apply a player's request (stroke, choice, concession, claim) exactly once."""
    client_id = getattr(message, "client_id", None)
    assert client_id is not None
    if not user.is_authenticated:
        raise ServiceError("not_a_player", "spectators cannot play")
    try:
        with transaction.atomic():
            row = Match.objects.select_for_update().get(pk=match_id)
            seen = MatchEvent.objects.filter(match=row, actor=user, client_id=client_id).first()
            if seen is not None:
                return _again(seen)
            seat = seat_of(row, user)
            if seat is None:
                raise ServiceError("not_a_player", "only the two players may play")
            state = match_from_json(row.state)
            try:
                change = _compute(row, state, seat, message)
            except IllegalRequest as exc:
                raise ServiceError(exc.code, exc.detail) from None
            stored = _store(row, change, user, client_id)
            extra = _toss_if_due(row, change.state)
    except OperationalError:
        # SQLite refuses a second writer while one holds the lock: nothing was written.
        raise ServiceError("busy", "the table is busy; try again") from None
    except IntegrityError:
        # The same client id raced in through another process: answer with what was stored.
        seen = MatchEvent.objects.filter(match_id=match_id, actor=user, client_id=client_id).first()
        if seen is None:
            raise ServiceError("conflict", "another request changed the match first") from None
        return _again(seen)
    return Applied((stored, *extra), duplicate=False)


def _again(seen: MatchEvent) -> Applied:
    """The answer to a repeated request: its stored event, broadcast again by the caller."""
    deadline = json.loads(seen.payload)["snapshot"]["shot_clock"]["deadline"]
    return Applied((Stored(seen.version, seen.payload, deadline),), duplicate=True)


def expire_shot_clock(match_id: int, version: int) -> list[Stored]:
    """The striker's time ran out at `version`: settle the time foul once (RULES.md §4)."""
    with transaction.atomic():
        row = Match.objects.select_for_update().get(pk=match_id)
        if row.version != version:
            return []
        state = match_from_json(row.state)
        deadline = clock_deadline(row, state)
        if deadline is None or timezone.now() < deadline:
            return []
        striker = state.frame.striker
        frame, ruling = referee.time_foul(state.frame, striker)
        new = rules_match.advance(state, frame)
        stored = _store(row, Change(new, "shot_clock", striker, {}, ruling))
        return [stored, *_toss_if_due(row, new)]


# --- presence --------------------------------------------------------------------------------
def _stale_before() -> datetime:
    return timezone.now() - timedelta(seconds=settings.SNOOKER["CONNECTION_STALE"])


def connect(match_id: int, channel_name: str, seat: Player | None) -> None:
    now = timezone.now()
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"match_id": match_id, "seat": seat or "", "last_seen": now},
    )
    if seat:
        Absence.objects.filter(match_id=match_id, seat=seat).delete()


def heartbeat(channel_names: list[str]) -> None:
    Connection.objects.filter(channel_name__in=channel_names).update(last_seen=timezone.now())


def disconnect(match_id: int, channel_name: str, seat: Player | None) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()
    live = Connection.objects.filter(match_id=match_id, seat=seat, last_seen__gte=_stale_before())
    if seat and not live.exists():
        Absence.objects.update_or_create(
            match_id=match_id, seat=seat, defaults={"since": timezone.now()}
        )


def presences(match_ids: list[int]) -> list[dict[str, Any]]:
    """Who is at the table in each match: three queries however many matches."""
    stale = _stale_before()
    rows = {
        m.pk: m for m in Match.objects.filter(pk__in=match_ids).only("created", "reconnect_grace")
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
        players: dict[str, dict[str, Any]] = {}
        for seat in ("A", "B"):
            since = _away_since(
                row, [t for s, t in mine if s == seat], gone.get((match_id, seat)), stale
            )
            claim = since + timedelta(seconds=row.reconnect_grace) if since else None
            players[seat] = {
                "online": since is None,
                "away_since": since.isoformat() if since else None,
                "claim_from": claim.isoformat() if claim else None,
            }
        spectators = sum(1 for s, t in mine if s == "" and t >= stale)
        out.append({"players": players, "spectators": spectators})
    return out


def presence(match_id: int) -> dict[str, Any]:
    return presences([match_id])[0]


def _away_since(
    row: Match, seen: list[datetime], absent: datetime | None, stale: datetime
) -> datetime | None:
    """None if the player has a live socket; else since when they have been away: the last
    socket closed, the last sign of life of a dead process's socket, or the match's start."""
    if any(t >= stale for t in seen):
        return None
    return max([row.created, *seen, *([absent] if absent else [])])


def claimable(row: Match, seat: Player) -> bool:
    """The player has been away longer than the match's reconnect grace."""
    since = presence(row.pk)["players"][seat]["claim_from"]
    return since is not None and timezone.now() >= datetime.fromisoformat(since)


# --- rebuilding ------------------------------------------------------------------------------
def rebuild(match_id: int) -> MatchState:
    """Replay the stored requests through the rules core: the state they must give.

    Physics and referee are deterministic and the server's draws are stored, so this equals
    the stored state; a test holds the service to it.
    """
    row = Match.objects.get(pk=match_id)
    state: MatchState | None = None
    for event in MatchEvent.objects.filter(match=row).order_by("version"):
        request, seat = event.request, json.loads(event.payload)["seat"]
        if event.kind == "start":
            state = rules_match.new_match(row.best_of, json.loads(event.payload)["request"]["draw"])
            continue
        assert state is not None
        if event.kind == "stroke":
            cue = request.get("cue_ball")
            stroke = StrokeRequest(
                angle=request["angle"], speed=request["speed"], side=request["side"],
                height=request["height"], nominated=request.get("nominated"),
                cue_ball=tuple(cue) if cue else None,  # type: ignore[arg-type]
            )  # fmt: skip
            frame, _, _ = play_stroke(state.frame, seat, stroke)
            state = rules_match.advance(state, frame)
        elif event.kind == "choice":
            state, _ = rules_match.choose(state, seat, request["option"])
        elif event.kind == "toss":
            state, _ = rules_match.toss(state, request["winner"])
        elif event.kind == "shot_clock":
            frame, _ = referee.time_foul(state.frame, seat)
            state = rules_match.advance(state, frame)
        elif event.kind in ("concede", "claim"):
            loser = seat if event.kind == "concede" else opponent(seat)
            if request["scope"] == "match":
                state, _ = rules_match.concede_match(state, loser)
            else:
                state, _ = rules_match.concede_frame(state, loser)
    assert state is not None
    return state
