"""The ladder's service: join, challenge, settle, rate; the organisers' move, removal and void.
No sockets and no pages here.

Each action is one transaction. The rules are pure (`rules/ladder.py`, `rules/ratings.py`);
this module loads the rows, asks them, and writes. Everything that moves positions holds the
ladder's row lock and its rungs' (`select_for_update`), so the positions of one ladder change
one action at a time, on every process; every settlement is also a conditional write (a
challenge is settled only if it is still in the state it was read in), which is what holds on
SQLite, where the write lock serialises whole transactions instead.

Locks are always taken in the same order, so that two actions never wait for each other:
the match (a finishing match: `game.service`), the club's challenge, the ladder challenge,
the ladder, its rungs, the ratings.

Ladder challenges are the club's challenges of kind "ladder" (notices, the answer, the match),
with a `LadderChallenge` beside each. An answer reaches the ladder through
`club.signals.challenge_answered` and the end of a match through `game.signals.match_finished`,
both inside the transaction that stored them: a result is applied at once and exactly once.
Deadlines are settled by `settle_due` (ladder/jobs.py runs it in every server process, and
`manage.py settle_ladders` from cron); it takes each due row with `skip_locked`, so several
processes share the work and none settles a challenge twice.

Every function that reads the time takes `now`, so that tests run a controlled clock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone
from psycopg.errors import DeadlockDetected

from club import service as club_service
from club.lobby import is_guest
from club.models import Challenge
from club.service import ClubError, News
from game import presence as game_presence
from game.models import Match, MatchEvent
from ladder.models import (
    HistoryEntry,
    Ladder,
    LadderChallenge,
    RatedResult,
    Rating,
    RatingChange,
    Rung,
)
from rules import commands, ratings
from rules import ladder as rules
from rules.challenges import Format, Kind, Status
from rules.errors import IllegalRequest, Refused
from rules.ladder import DefaultRule
from rules.match import match_from_json

log = logging.getLogger(__name__)

Outcome = LadderChallenge.Outcome
Kinds = HistoryEntry.Kind
PLACES_APART = 1_000_000  # positions are rewritten through this offset (one member a place)


class LadderError(Refused):
    """A refused action; nothing was changed. `code` is stable: the pages word it
    (ladder/text.py)."""


@dataclass(frozen=True, slots=True)
class Done:
    challenge: LadderChallenge | None = None
    news: News = field(default_factory=News)  # the club's challenges to announce


@dataclass(frozen=True, slots=True)
class Settled:
    """What one pass of `settle_due` did."""

    challenges: tuple[int, ...] = ()  # ladder challenges settled (or whose result it applied)
    rated: tuple[int, ...] = ()  # rated friendlies it rated (missed at their end)
    news: News = field(default_factory=News)
    reminders: tuple[int, ...] = ()  # ladder challenges whose agreed start is near: tell both
    waited: tuple[int, ...] = ()  # ladder challenges where it saw a player waiting at the start

    def __bool__(self) -> bool:
        return bool(self.challenges or self.rated)


def _refused(exc: IllegalRequest) -> LadderError:
    return LadderError(exc.code, exc.detail)


def main_ladder() -> Ladder | None:
    return Ladder.objects.order_by("-main", "pk").first()


# --- positions -----------------------------------------------------------------------------------
def _locked(ladder_id: int) -> tuple[Ladder, list[Rung]]:
    """The ladder and its rungs, top first, locked until the transaction ends."""
    ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
    rungs = list(Rung.objects.select_for_update().filter(ladder_id=ladder_id).order_by("position"))
    return ladder, rungs


def _order(rungs: Iterable[Rung]) -> rules.Order:
    return tuple(r.member_id for r in rungs)


def _write(rungs: list[Rung], order: rules.Order) -> None:
    """Store `order` in the rungs (the same members). Two updates, through positions no rung
    holds, so that one member a place holds at every row written."""
    by_member = {r.member_id: r for r in rungs}
    changed = [(by_member[m], i + 1) for i, m in enumerate(order) if by_member[m].position != i + 1]
    if not changed:
        return
    for rung, to in changed:
        rung.position = PLACES_APART + to
    Rung.objects.bulk_update([r for r, _ in changed], ["position"])
    for rung, to in changed:
        rung.position = to
    Rung.objects.bulk_update([r for r, _ in changed], ["position"])


def _place(order: rules.Order, member: int | None) -> int | None:
    return order.index(member) + 1 if member in order else None


# --- joining -------------------------------------------------------------------------------------
def join(ladder_id: int, member: User, now: datetime | None = None, by: User | None = None) -> Rung:
    """`member` joins at the bottom (by themselves if the ladder is open, or put there by an
    organiser, `by`)."""
    now = now or timezone.now()
    if is_guest(member) or not member.is_active:
        raise LadderError("members_only", "only members play on the ladders")
    with transaction.atomic():
        ladder, rungs = _locked(ladder_id)
        if by is None and not ladder.open:
            raise LadderError("closed", "an organiser puts members on this ladder")
        try:
            order = rules.join(_order(rungs), member.pk)
        except IllegalRequest as exc:
            raise _refused(exc) from None
        rung = Rung.objects.create(
            ladder=ladder, member=member, position=len(order), joined=now, last_active=now
        )
        HistoryEntry.objects.create(
            ladder=ladder, kind=Kinds.JOINED, at=now, member=member, member_to=len(order), by=by
        )
        Rating.objects.get_or_create(member=member)
    return rung


# --- challenging ---------------------------------------------------------------------------------
def challenge(
    ladder_id: int, challenger: User, defender: User, now: datetime | None = None
) -> Done:
    """`challenger` challenges `defender` on this ladder: the club's challenge (kind "ladder",
    the ladder's format, rated, answered within the ladder's time) and the ladder's row, both
    parties engaged until it is settled. The club's limits on challenges apply."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            ladder = Ladder.objects.get(pk=ladder_id)
            fmt = Format(ladder.best_of, ladder.shot_clock, rated=True)
            # The club's row first (it locks the challenger's user row and counts their
            # challenges), then the ladder's lock: the order every action here keeps.
            made = club_service.ladder_challenge(
                challenger, defender, fmt, expires=now + ladder.answer_time
            )
            assert made.challenge is not None
            ladder, rungs = _locked(ladder_id)
            order = _order(rungs)
            busy = {r.member_id for r in rungs if r.engaged_id is not None}
            cooling = cooling_down(ladder, challenger.pk, now)
            try:
                rules.check_challenge(
                    order, challenger.pk, defender.pk, busy, ladder.places_above, cooling
                )
            except IllegalRequest as exc:
                raise _refused(exc) from None
            row = LadderChallenge.objects.create(
                ladder=ladder, challenge=made.challenge, challenger=challenger,
                defender=defender, challenger_position=rules.position(order, challenger.pk),
                defender_position=rules.position(order, defender.pk), created=now,
                answer_by=made.challenge.expires,
            )  # fmt: skip
            engaged = Rung.objects.filter(
                ladder=ladder, member_id__in=(challenger.pk, defender.pk), engaged__isnull=True
            ).update(engaged=row)
            if engaged != 2:
                raise LadderError("busy", "a ladder challenge was made meanwhile")
    except ClubError as exc:
        raise LadderError(exc.code, exc.message) from None
    except OperationalError:
        raise LadderError("busy", "the club is busy; try again") from None
    return Done(row, made.news)


def cooling_down(ladder: Ladder, member: int, now: datetime) -> dict[int, datetime]:
    """The members in a cool-down with `member` on this ladder, and until when
    (`rules.ladder.cooling`): their latest challenge between the two was settled by a result
    (played or by default), a decline or a withdrawal less than `cooldown` ago. One query."""
    if ladder.cooldown <= timedelta(0):
        return {}
    met = (
        LadderChallenge.objects.filter(
            Q(challenger_id=member) | Q(defender_id=member),
            ladder=ladder, status=LadderChallenge.Status.SETTLED,
            settled__gt=now - ladder.cooldown,
        )
        .exclude(outcome=Outcome.CANCELLED)  # an organiser's removal is nobody's meeting
        .values_list("challenger_id", "defender_id", "settled")
    )  # fmt: skip
    last: dict[int, datetime] = {}
    for a, b, at in met:
        other = b if a == member else a
        if at is not None and (other not in last or at > last[other]):
            last[other] = at
    return rules.cooling(last, now, ladder.cooldown)


def on_answered(challenge: Challenge, answer: str, match: Match | None, now: datetime) -> None:
    """The club stored an answer to a ladder challenge (inside its transaction, the club's
    row locked): accepted, the match is to be played by the ladder's deadline; declined, the
    ladder's rule settles it; withdrawn, it is settled with no change."""
    if challenge.kind != Kind.LADDER:
        return
    row = (
        LadderChallenge.objects.select_for_update(of=("self",))  # the ladder's row: later
        .select_related("ladder")
        .filter(challenge=challenge, status=LadderChallenge.Status.WAITING)
        .first()
    )
    if row is None:
        return
    if answer == "accept":
        assert match is not None
        LadderChallenge.objects.filter(pk=row.pk, status=row.status).update(
            status=LadderChallenge.Status.ACCEPTED, match=match,
            play_by=now + row.ladder.play_time,
        )  # fmt: skip
    elif answer == "decline":
        winner = rules.declined_winner(row.ladder.decline_counts_as_loss, row.challenger_id)
        _settle(row, Outcome.DECLINED, winner, now)
    else:
        _settle(row, Outcome.WITHDRAWN, None, now, record=False)


# --- the start time ------------------------------------------------------------------------------
def _to_play(pk: int, member: User) -> LadderChallenge:
    """The ladder match `pk` of `member`, its row locked; others' are not found (nobody
    learns from a refusal what another pair arranged)."""
    row = (
        LadderChallenge.objects.select_for_update(of=("self",))
        .select_related("match")
        .filter(pk=pk)
        .first()
    )
    if row is None or member.pk not in (row.challenger_id, row.defender_id):
        raise LadderError("no_such_match", "there is no such ladder match of yours")
    if (
        row.status != LadderChallenge.Status.ACCEPTED
        or row.play_by is None
        or row.match is None
        or row.match.status != Match.Status.LIVE
    ):
        raise LadderError("not_to_be_played", "this ladder match is not waiting to be played")
    return row


def propose_start(
    pk: int, member: User, at: datetime, now: datetime | None = None
) -> LadderChallenge:
    """One of the two players proposes a start time inside the play-by window
    (`rules.ladder.check_start`); the other accepts it or proposes another. The agreed time,
    if any, stands until a new one is accepted. Proposing the very time the other proposed
    agrees to it."""
    now = now or timezone.now()
    with transaction.atomic():
        row = _to_play(pk, member)
        assert row.play_by is not None
        try:
            rules.check_start(at, now, row.play_by)
        except IllegalRequest as exc:
            raise _refused(exc) from None
        if row.proposed_start == at and row.proposed_by_id not in (None, member.pk):
            return _agree(row, at)
        row.proposed_start, row.proposed_by = at, member
        row.save(update_fields=["proposed_start", "proposed_by"])
    return row


def accept_start(
    pk: int, member: User, at: datetime, now: datetime | None = None
) -> LadderChallenge:
    """The other player accepts the proposed start time `at` (the one their page showed: a
    proposal changed meanwhile is refused, `proposal_changed`)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = _to_play(pk, member)
        assert row.play_by is not None
        if row.proposed_start is None:
            raise LadderError("no_proposal", "no start time is proposed")
        if row.proposed_by_id == member.pk:
            raise LadderError("own_proposal", "the other player accepts a proposal")
        if row.proposed_start != at:
            raise LadderError("proposal_changed", "the proposal changed meanwhile")
        try:
            rules.check_start(at, now, row.play_by)
        except IllegalRequest as exc:
            raise _refused(exc) from None
        return _agree(row, at)


def _agree(row: LadderChallenge, at: datetime) -> LadderChallenge:
    """Both agreed on `at`: the start time from now on (who waited at an earlier one no longer
    counts; the reminder is due again)."""
    row.start_at, row.proposed_start, row.proposed_by = at, None, None
    row.reminded = row.challenger_waited = row.defender_waited = False
    row.save(
        update_fields=[
            "start_at", "proposed_start", "proposed_by", "reminded", "challenger_waited",
            "defender_waited",
        ]
    )  # fmt: skip
    return row


def _settle(
    row: LadderChallenge,
    outcome: str,
    winner: int | None,
    now: datetime,
    match: Match | None = None,
    record: bool = True,
    absent: str = "",
    flagged: bool = False,
) -> HistoryEntry | None:
    """Settle a ladder challenge once (the caller holds its row): the result moves the
    positions by the rules, both parties are free again, and the history says so (`absent`,
    `flagged`: an unplayed match's no-show, `rules.ladder.unplayed`). Returns the entry, or
    None if it was settled already (elsewhere, first)."""
    updated = LadderChallenge.objects.filter(pk=row.pk, status=row.status).update(
        status=LadderChallenge.Status.SETTLED, outcome=outcome, winner_id=winner, settled=now,
        absent=absent, flagged=flagged,
    )  # fmt: skip
    if not updated:
        return None
    ladder, rungs = _locked(row.ladder_id)
    Rung.objects.filter(engaged=row).update(engaged=None)
    if not record:
        return None
    order = _order(rungs)
    loser = None
    if winner is not None:
        loser = row.defender_id if winner == row.challenger_id else row.challenger_id
    first, second = (winner, loser) if winner is not None else (row.challenger_id, row.defender_id)
    before = order
    if winner is not None and loser is not None and winner in order and loser in order:
        order = rules.result(order, winner, loser)
        _write(rungs, order)
        for rung in rungs:
            if rung.member_id in (winner, loser):
                letter = "W" if rung.member_id == winner else "L"
                rung.form = (letter + rung.form)[: rules.FORM_LENGTH]
                rung.last_active = now
                rung.save(update_fields=["form", "last_active"])
    return HistoryEntry.objects.create(
        ladder=ladder, kind=Kinds.RESULT if winner is not None else Kinds.SETTLED, at=now,
        member_id=first, other_id=second, member_from=_place(before, first),
        member_to=_place(order, first), other_from=_place(before, second),
        other_to=_place(order, second), how=outcome, challenge=row,
        match=match or row.match, flagged=flagged,
    )  # fmt: skip


# --- the end of a match --------------------------------------------------------------------------
def _winner_id(match: Match) -> int | None:
    winner = match_from_json(match.state).winner
    if winner is None:
        return None
    return int(match.player_a_id if winner == "A" else match.player_b_id)


def on_match_finished(match: Match, now: datetime | None = None) -> None:
    """A match ended (inside the transaction that stored its last event, the match's row
    locked): a ladder match's result is applied to its ladder, and a rated match rates both
    players. Each exactly once: the ladder challenge is settled only if still to be played,
    and a match has at most one rated result."""
    now = now or timezone.now()
    row = (
        LadderChallenge.objects.select_for_update()
        .filter(match=match, status=LadderChallenge.Status.ACCEPTED)
        .first()
    )
    if row is not None:
        _settle(row, Outcome.PLAYED, _winner_id(match), now, match=match)
        rate(match, now, ladder_id=row.ladder_id)
    elif match.rated and not LadderChallenge.objects.filter(match=match).exists():
        # A rated friendly. (A ladder match settled before it ended, by a deadline or an
        # organiser, counts for nothing.)
        rate(match, now)


def stroke_events() -> QuerySet[MatchEvent]:
    """The stored events that are strokes (not choices, concessions, claims or a shot clock
    running out): what counts as play."""
    return MatchEvent.objects.filter(kind=commands.KINDS[commands.Stroke])


def strokes_of(match: Match) -> tuple[int, int]:
    """The strokes each player (A, B) played in a match, from its stored events."""
    counts = dict(
        stroke_events()
        .filter(match=match)
        .order_by()
        .values("seat")
        .annotate(n=Count("pk"))
        .values_list("seat", "n")
    )
    return counts.get("A", 0), counts.get("B", 0)


def pair_results(a: int, b: int, since: datetime) -> QuerySet[RatedResult]:
    """The rated results between two members since then that changed the ratings (not
    voided, not unrated)."""
    return RatedResult.objects.filter(
        Q(player_a_id=a, player_b_id=b) | Q(player_a_id=b, player_b_id=a),
        at__gt=since, voided=False, unrated=ratings.Effect.RATED,
    )  # fmt: skip


def rate(match: Match, now: datetime, ladder_id: int | None = None) -> RatedResult | None:
    """Rate a finished match once: both players' Glicko-2 ratings from the ratings they had
    before it (rules/ratings.py) — unless the rules say this result changes no rating
    (`ratings.rated_effect`: a player never played a stroke, or the pair's rated results of
    the window are used up); then it is recorded as unrated, with why, and nothing else
    changes. (On a ladder the position result stands either way: `_settle`.)"""
    winner = _winner_id(match)
    if winner is None or RatedResult.objects.filter(match=match).exists():
        return None
    a, b = match.player_a_id, match.player_b_id
    for member in sorted((a, b)):
        Rating.objects.get_or_create(member_id=member)
    held = {
        r.member_id: r
        for r in Rating.objects.select_for_update().filter(member_id__in=(a, b)).order_by("pk")
    }
    # Decided under both ratings' locks, so that two results of one pair at once count each
    # other.
    strokes_a, strokes_b = strokes_of(match)
    window = timedelta(days=settings.RATINGS["PAIR_WINDOW_DAYS"])
    recent = pair_results(a, b, now - window).count()
    effect = ratings.rated_effect(strokes_a, strokes_b, recent, settings.RATINGS["PAIR_CAP"])
    score = 1.0 if winner == a else 0.0
    result = RatedResult.objects.create(
        match=match, player_a_id=a, player_b_id=b, score_a=score, at=now, ladder_id=ladder_id,
        unrated=effect, strokes_a=strokes_a, strokes_b=strokes_b,
    )  # fmt: skip
    if effect != ratings.Effect.RATED:
        return result
    new_a, new_b = ratings.rate_match(held[a].value(), held[b].value(), score)
    for member, new in ((a, new_a), (b, new_b)):
        old = held[member]
        RatingChange.objects.create(
            result=result, player_id=member, at=now, before=old.rating, before_rd=old.rd,
            after=new.rating, after_rd=new.rd, after_volatility=new.volatility,
        )  # fmt: skip
        old.rating, old.rd, old.volatility = new.rating, new.rd, new.volatility
        old.played += 1
        old.updated = now
        old.save()
    return result


def match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """`game.signals.match_finished`'s receiver. In a savepoint: should anything here fail,
    the match still ends, and the next `settle_due` applies the result (it finds the ladder
    match finished but not settled, or the rated friendly not rated)."""
    try:
        with transaction.atomic():
            on_match_finished(match)
    except Exception:
        log.exception("match %s: the ladder and ratings will be settled later", match.pk)


def challenge_answered(
    sender: Any, challenge: Challenge, answer: str, match: Match | None, now: datetime,
    **kwargs: Any,
) -> None:  # fmt: skip
    """`club.signals.challenge_answered`'s receiver (a failure undoes the answer)."""
    on_answered(challenge, answer, match, now)


# --- deadlines -----------------------------------------------------------------------------------
def settle_due(now: datetime | None = None, limit: int = 100) -> Settled:
    """Settle what is due: challenges not answered in time and matches not played by their
    deadline (the ladder's default rule), and what a match's end should have settled but did
    not (a ladder match finished, a rated friendly not rated). Each row in a transaction of
    its own, taken with `skip_locked` (PostgreSQL) and written only if still in the state read
    (everywhere): run by several processes at once, each thing is settled once."""
    if connection.vendor != "sqlite":
        return _settle_due(now or timezone.now(), limit)
    with _SQLITE_PASS:
        return _settle_due(now or timezone.now(), limit)


# On SQLite, one pass at a time in a process. Its write lock is the whole database's, and in
# the shared cache of an in-memory database (the tests') a reader meeting another thread's
# write is refused at once ("database table is locked") rather than made to wait, so two
# passes at once (the server's job and `manage.py settle_ladders` run from the same process, or
# two threads) would fail the second. Between processes the file's busy timeout makes the
# second wait instead, and its rows are found settled by the first (the conditional writes).
_SQLITE_PASS = threading.Lock()


def _settle_due(now: datetime, limit: int) -> Settled:
    settled: list[int] = []
    challenges: list[int] = []
    waiting = LadderChallenge.objects.filter(
        status=LadderChallenge.Status.WAITING, answer_by__lte=now
    ).order_by("answer_by", "pk")
    for pk, challenge_id in waiting.values_list("pk", "challenge_id")[:limit]:
        if _settle_unanswered(pk, challenge_id, now):
            settled.append(pk)
            challenges.append(challenge_id)
    accepted = LadderChallenge.objects.filter(status=LadderChallenge.Status.ACCEPTED).filter(
        Q(play_by__lte=now) | Q(match__status=Match.Status.FINISHED)
    )
    for pk, match_id in accepted.order_by("play_by", "pk").values_list("pk", "match_id")[:limit]:
        if _settle_accepted(pk, match_id, now):
            settled.append(pk)
    friendlies = Match.objects.filter(
        rated=True, status=Match.Status.FINISHED, rated_result__isnull=True,
        ladder_challenge__isnull=True,
    ).order_by("created", "pk")  # fmt: skip
    rated = [m for m in friendlies.values_list("pk", flat=True)[:limit] if _rate_missed(m, now)]
    return Settled(
        tuple(settled), tuple(rated), News(tuple(challenges)), _remind(now, limit),
        _watch(now, limit),
    )  # fmt: skip


def _remind(now: datetime, limit: int) -> tuple[int, ...]:
    """The ladder matches whose agreed start is `REMIND_BEFORE` away or less (and not past),
    each marked reminded once (a conditional write: one process tells them)."""
    near = LadderChallenge.objects.filter(
        status=LadderChallenge.Status.ACCEPTED, reminded=False,
        start_at__gt=now, start_at__lte=now + rules.REMIND_BEFORE,
    ).order_by("start_at", "pk")  # fmt: skip

    def mark(pk: int, start: datetime) -> int:
        return LadderChallenge.objects.filter(
            pk=pk, status=LadderChallenge.Status.ACCEPTED, start_at=start, reminded=False
        ).update(reminded=True)

    return tuple(
        pk for pk, start in near.values_list("pk", "start_at")[:limit] if _busy(mark, pk, start)
    )


def _watch(now: datetime, limit: int) -> tuple[int, ...]:
    """Who is at the table in the agreed start's waiting window (`rules.ladder.waiting_window`):
    each pass looks at the match's presence and records a player it sees there as having
    waited (a flag that is only ever set; every process may write it)."""
    watched = LadderChallenge.objects.filter(
        status=LadderChallenge.Status.ACCEPTED, start_at__lte=now,
        start_at__gte=now - rules.WAIT_AT_START, match__status=Match.Status.LIVE,
    ).order_by("start_at", "pk")  # fmt: skip
    rows = list(
        watched.values_list(
            "pk", "match_id", "match__player_a_id", "challenger_id", "start_at",
            "challenger_waited", "defender_waited",
        )[:limit]
    )  # fmt: skip
    if not rows:
        return ()
    seen = []
    presences = game_presence.presences([r[1] for r in rows])
    for row, presence in zip(rows, presences, strict=True):
        pk, _, player_a, challenger, start, *waited = row
        online = {seat: p.online for seat, p in presence.players.items()}
        by_role = (online["A"], online["B"])
        if player_a != challenger:
            by_role = by_role[::-1]
        roles = zip(("challenger", "defender"), by_role, waited, strict=True)
        fields = {f"{role}_waited": True for role, there, already in roles if there and not already}
        if fields and _busy(_record_waiting, pk, start, fields):
            seen.append(pk)
    return tuple(seen)


def _record_waiting(pk: int, start: datetime, fields: dict[str, bool]) -> int:
    """Record who was seen waiting, if the agreed time is still the one they waited for."""
    return LadderChallenge.objects.filter(
        pk=pk, status=LadderChallenge.Status.ACCEPTED, start_at=start
    ).update(**fields)


DEADLOCK_RETRIES = 3


def _busy(call: Any, *args: Any) -> bool:
    """Run one settlement. Two processes settling two challenges of one ladder at once can
    deadlock in PostgreSQL (the loser is rolled back): it is tried again at once, a few
    times. A database busy elsewhere (SQLite's lock) is left for the next pass."""
    for attempt in range(DEADLOCK_RETRIES + 1):
        try:
            return bool(call(*args))
        except OperationalError as exc:
            if isinstance(exc.__cause__, DeadlockDetected) and attempt < DEADLOCK_RETRIES:
                continue
            log.warning("ladder: %s%s left for the next pass (%s)", call, args, exc)
            return False
    raise AssertionError("unreachable")


def _settle_unanswered(pk: int, challenge_id: int, now: datetime) -> bool:
    def run() -> bool:
        with transaction.atomic():
            # The club's row first, as its answer takes them: whoever holds it settles it.
            # (Skipping each of the two rows when locked would let two processes take one
            # each, and both give up.)
            club_row = (
                Challenge.objects.select_for_update(skip_locked=True)
                .filter(pk=challenge_id)
                .first()
            )
            if club_row is None:
                return False  # being answered or settled elsewhere right now
            row = (
                LadderChallenge.objects.select_for_update(of=("self",))
                .select_related("ladder")
                .filter(pk=pk, status=LadderChallenge.Status.WAITING, answer_by__lte=now)
                .first()
            )
            if row is None:
                return False  # settled already
            if club_row.status not in (Status.OPEN, Status.EXPIRED):
                return False  # answered in time: its answer settles it
            Challenge.objects.filter(pk=challenge_id, status=Status.OPEN).update(
                status=Status.EXPIRED, version=F("version") + 1, answered=now
            )
            rule = DefaultRule(row.ladder.default_result)
            winner = rules.default_winner(rule, row.challenger_id, row.defender_id)
            if _settle(row, Outcome.UNANSWERED, winner, now) is None:
                return False
            club_service.announce_on_commit(News((challenge_id,)))  # both parties are told
            return True

    return _busy(run)


def _settle_accepted(pk: int, match_id: int, now: datetime) -> bool:
    def run() -> bool:
        with transaction.atomic():
            # The match's row first, as its last stroke takes them (`on_match_finished`).
            match = Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).first()
            if match is None:
                return False  # the match is being played this instant, or settled elsewhere
            row = (
                LadderChallenge.objects.select_for_update(of=("self",))
                .select_related("ladder")
                .filter(pk=pk, status=LadderChallenge.Status.ACCEPTED)
                .first()
            )
            if row is None:
                return False  # settled already
            if match.status == Match.Status.FINISHED:
                _settle(row, Outcome.PLAYED, _winner_id(match), now, match=match)
                rate(match, now, ladder_id=row.ladder_id)
                return True
            if row.play_by is None or row.play_by > now:
                return False
            decided = _unplayed(row, match)
            outcome = Outcome.UNPLAYED if decided.flagged else Outcome.NO_SHOW
            entry = _settle(
                row, outcome, decided.winner, now, match=match, absent=decided.absent.value,
                flagged=decided.flagged,
            )  # fmt: skip
            return entry is not None

    return _busy(run)


def _unplayed(row: LadderChallenge, match: Match) -> rules.Unplayed:
    """How an unplayed match is settled (`rules.ladder.unplayed`): who came, at the agreed
    start (seen by the settling passes, or arrived in its waiting window) or, without one,
    at all (`Match.arrived_a`, `arrived_b`)."""
    arrived_c, arrived_d = match.arrived_a, match.arrived_b
    if match.player_a_id != row.challenger_id:
        arrived_c, arrived_d = arrived_d, arrived_c
    start = row.start_at
    return rules.unplayed(
        DefaultRule(row.ladder.default_result), row.challenger_id, row.defender_id,
        rules.came(start, row.challenger_waited, arrived_c),
        rules.came(start, row.defender_waited, arrived_d),
    )  # fmt: skip


def _rate_missed(match_id: int, now: datetime) -> bool:
    def run() -> bool:
        with transaction.atomic():
            match = Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).first()
            if match is None or match.status != Match.Status.FINISHED or not match.rated:
                return False
            return rate(match, now) is not None

    try:
        return _busy(run)
    except IntegrityError:
        return False  # rated meanwhile by another process


# --- organisers ----------------------------------------------------------------------------------
def move(
    ladder_id: int, member: User, to: int, by: User, note: str = "", now: datetime | None = None
) -> HistoryEntry:
    """An organiser puts `member` at position `to`; everyone between shifts by one. Recorded."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder, rungs = _locked(ladder_id)
        before = _order(rungs)
        try:
            order = rules.move(before, member.pk, to)
        except IllegalRequest as exc:
            raise _refused(exc) from None
        _write(rungs, order)
        return HistoryEntry.objects.create(
            ladder=ladder, kind=Kinds.MOVED, at=now, member=member,
            member_from=_place(before, member.pk), member_to=_place(order, member.pk),
            by=by, note=note[:200],
        )  # fmt: skip


def remove(
    ladder_id: int, member: User, by: User, note: str = "", now: datetime | None = None
) -> HistoryEntry:
    """An organiser removes `member` (an inactive one, say): a challenge or match of theirs on
    this ladder is cancelled (nobody moves for it), everyone below moves up one. Recorded."""
    now = now or timezone.now()
    with transaction.atomic():
        engaged = (
            Rung.objects.filter(ladder_id=ladder_id, member=member)
            .values_list("engaged", flat=True)
            .first()
        )
        if engaged is not None:
            _cancel(engaged, now)
        ladder, rungs = _locked(ladder_id)
        before = _order(rungs)
        try:
            order = rules.remove(before, member.pk)
        except IllegalRequest as exc:
            raise _refused(exc) from None
        Rung.objects.filter(ladder=ladder, member=member).delete()
        rungs = [r for r in rungs if r.member_id != member.pk]
        _write(rungs, order)
        return HistoryEntry.objects.create(
            ladder=ladder, kind=Kinds.REMOVED, at=now, member=member,
            member_from=_place(before, member.pk), by=by, note=note[:200],
        )  # fmt: skip


def _cancel(pk: int, now: datetime) -> None:
    """Cancel a ladder challenge (its member is being removed): a waiting one is withdrawn at
    the club too; a match being played goes on as a friendly that counts for nothing."""
    club_id = LadderChallenge.objects.filter(pk=pk).values_list("challenge_id", flat=True).get()
    Challenge.objects.select_for_update().filter(pk=club_id).first()
    row = LadderChallenge.objects.select_for_update().filter(pk=pk).first()
    if row is None or row.status == LadderChallenge.Status.SETTLED:
        return
    if row.status == LadderChallenge.Status.WAITING:
        Challenge.objects.filter(pk=club_id, status=Status.OPEN).update(
            status=Status.WITHDRAWN, version=F("version") + 1, answered=now
        )
    _settle(row, Outcome.CANCELLED, None, now)
    club_service.announce_on_commit(News((club_id,)))  # both parties are told


def void(entry_id: int, by: User, note: str = "", now: datetime | None = None) -> HistoryEntry:
    """An organiser voids a result: the positions (and forms) are those the history gives
    without it, and a played match's ratings are those every other rated match gives, as if
    it never happened. The void is an entry of the history too."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder_id = HistoryEntry.objects.values_list("ladder_id", flat=True).get(pk=entry_id)
        ladder, rungs = _locked(ladder_id)
        entry = HistoryEntry.objects.select_for_update().get(pk=entry_id)
        if entry.kind != Kinds.RESULT:
            raise LadderError("not_a_result", "only a result is voided")
        if entry.voided:
            raise LadderError("voided", "this result was voided already")
        entry.voided = True
        entry.save(update_fields=["voided"])
        before = _order(rungs)
        order = _replay(ladder, rungs)
        voiding = HistoryEntry.objects.create(
            ladder=ladder, kind=Kinds.VOIDED, at=now, member_id=entry.member_id,
            other_id=entry.other_id, member_from=_place(before, entry.member_id),
            member_to=_place(order, entry.member_id), other_from=_place(before, entry.other_id),
            other_to=_place(order, entry.other_id), how=entry.how, challenge=entry.challenge,
            match=entry.match, by=by, note=note[:200], voids=entry,
        )  # fmt: skip
        if entry.match_id is not None:
            RatedResult.objects.filter(match_id=entry.match_id, voided=False).update(
                voided=True, voided_by=by, void_note=note[:200]
            )
            recompute_ratings()
    return voiding


def void_rating(result_id: int, by: User, note: str = "") -> None:
    """An organiser voids a rated friendly's result: every rating as if it never happened."""
    with transaction.atomic():
        updated = RatedResult.objects.filter(pk=result_id, voided=False).update(
            voided=True, voided_by=by, void_note=note[:200]
        )
        if not updated:
            raise LadderError("voided", "this result was voided already")
        recompute_ratings()


def _standing(ladder: Ladder) -> list[HistoryEntry]:
    return list(
        HistoryEntry.objects.filter(
            ladder=ladder, voided=False,
            kind__in=(Kinds.JOINED, Kinds.RESULT, Kinds.MOVED, Kinds.REMOVED),
        ).order_by("at", "pk")
    )  # fmt: skip


def _entry(row: HistoryEntry) -> rules.Entry:
    if row.kind == Kinds.JOINED:
        return rules.Joined(row.member_id)
    if row.kind == Kinds.RESULT:
        assert row.other_id is not None
        return rules.Result(row.member_id, row.other_id)
    if row.kind == Kinds.MOVED:
        assert row.member_to is not None
        return rules.Moved(row.member_id, row.member_to)
    return rules.Removed(row.member_id)


def _replay(ladder: Ladder, rungs: list[Rung]) -> rules.Order:
    """Rewrite the positions and forms from the entries that stand (the caller holds the
    ladder's lock)."""
    standing = [_entry(e) for e in _standing(ladder)]
    order = rules.replay(standing)
    if set(order) != {r.member_id for r in rungs}:
        raise LadderError("history", f"the history of {ladder} does not give its members")
    _write(rungs, order)
    results = [e for e in standing if isinstance(e, rules.Result)]
    for rung in rungs:
        form = rules.form(results, rung.member_id)
        if form != rung.form:
            rung.form = form
            rung.save(update_fields=["form"])
    return order


def recompute_ratings() -> None:
    """Every rating from every rated result that stands, in order, from newcomers' ratings
    (each rating change rewritten; a voided result's changes are left as they were, marked by
    their result)."""
    held = {r.member_id: r for r in Rating.objects.select_for_update().order_by("pk")}
    now_rated: dict[int, ratings.Rating] = {}
    played: dict[int, int] = {}
    changes = {
        (c.result_id, c.player_id): c
        for c in RatingChange.objects.filter(result__voided=False).select_related("result")
    }
    changed: list[RatingChange] = []
    standing = RatedResult.objects.filter(voided=False, unrated=ratings.Effect.RATED)
    for result in standing.order_by("at", "pk"):
        a, b = result.player_a_id, result.player_b_id
        old_a, old_b = now_rated.get(a, ratings.NEW), now_rated.get(b, ratings.NEW)
        new_a, new_b = ratings.rate_match(old_a, old_b, result.score_a)
        for member, old, new in ((a, old_a, new_a), (b, old_b, new_b)):
            now_rated[member] = new
            played[member] = played.get(member, 0) + 1
            change = changes.get((result.pk, member))
            if change is None:
                continue
            change.before, change.before_rd = old.rating, old.rd
            change.after, change.after_rd = new.rating, new.rd
            change.after_volatility = new.volatility
            changed.append(change)
    RatingChange.objects.bulk_update(
        changed, ["before", "before_rd", "after", "after_rd", "after_volatility"]
    )
    for member, row in held.items():
        value = now_rated.get(member, ratings.NEW)
        row.rating, row.rd, row.volatility = value.rating, value.rd, value.volatility
        row.played = played.get(member, 0)
    Rating.objects.bulk_update(list(held.values()), ["rating", "rd", "volatility", "played"])
