"""The ladder's service: join, challenge, settle; the organisers' move, removal and void. A
ladder match's result is rated through the club's ratings (`ratings.service.rate`).
No sockets and no pages here.

Each action is one transaction. The rules are pure (`rules/ladder.py`, `rules/fixtures.py`);
this module loads the rows, asks them, and writes. Everything that moves positions holds the
ladder's row lock and its rungs' (`select_for_update`), so the positions of one ladder change
one action at a time, on every process; every settlement is also a conditional write (a
challenge is settled only if it is still in the state it was read in), which is what holds on
SQLite, where the write lock serialises whole transactions instead.

Locks are always taken in the same order, so that two actions never wait for each other:
the match (a finishing match: `game.service`), the club's challenge, the fixture, the ladder
challenge, the ladder, its rungs, the ratings (ratings/service.py).

Ladder challenges are the club's challenges of kind "ladder" (notices, the answer, the match),
with a `LadderChallenge` beside each, and the match to be played is its fixture (the club's
fixtures: fixtures/service.py keeps the window, the agreed start, who came and the default).
An answer reaches the ladder through `club.signals.challenge_answered`, inside the transaction
that stored it; a fixture's decision (its match played out, or the default when its window
closed) through the fixtures' hook (`LadderFixtures.decided`), inside the transaction that
decided it: a result is applied at once and exactly once. Deadlines are settled by
`settle_due` (ladder/jobs.py runs it in every server process, and `manage.py settle_ladders`
from cron), which settles the unanswered challenges and runs the fixtures' pass; it takes
each due row with `skip_locked`, so several processes share the work and none settles a
challenge twice.

Every function that reads the time takes `now`, so that tests run a controlled clock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from club import friendlies
from club import service as club_service
from club.lobby import is_guest
from club.models import Challenge
from club.service import ClubError, News
from club.signals import ladder_changed
from fixtures import service as fixtures_service
from fixtures.models import Fixture
from fixtures.service import FixtureError, busy
from game.models import Match
from ladder.models import HistoryEntry, Ladder, LadderChallenge, Rung
from ratings import service as ratings
from ratings.models import Kind as RatedKind
from rules import fixtures
from rules import ladder as rules
from rules.challenges import Format, Kind, Status
from rules.errors import IllegalRequest, Refused
from rules.ladder import DefaultRule

log = logging.getLogger(__name__)

Outcome = LadderChallenge.Outcome
Kinds = HistoryEntry.Kind
PLACES_APART = 1_000_000  # positions are rewritten through this offset (one member a place)
FIXTURE_KIND = "ladder"  # the ladder's fixtures (fixtures.service.register)


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
def _changed(ladder_id: int) -> None:
    """Pages showing this ladder are told once the transaction commits (club/signals.py)."""
    transaction.on_commit(lambda: ladder_changed.send(sender=Ladder, ladder=ladder_id))


def _locked(ladder_id: int) -> tuple[Ladder, list[Rung]]:
    """The ladder and its rungs, top first, locked until the transaction ends: taken to
    change them, so the ladder's pages are told of it after the commit (`_changed`)."""
    _changed(ladder_id)
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
        ratings.newcomer(member)
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
                challenger,
                defender,
                fmt,
                expires=now + ladder.answer_time,
                handicap=ladder.handicap,
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
            fixture = fixtures_service.create(FIXTURE_KIND, challenger, defender)
            row = LadderChallenge.objects.create(
                ladder=ladder, challenge=made.challenge, fixture=fixture, challenger=challenger,
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


def on_answered(
    challenge: Challenge, answer: str, match: Match | None, now: datetime, later: bool = False
) -> None:
    """The club stored an answer to a ladder challenge (inside its transaction, the club's
    row locked): accepted, the match is to be played by the ladder's deadline (`later`: the
    one who accepted chose to agree a time, so the match does not start before one is agreed,
    `game.presence.schedule`); declined, the ladder's rule settles it; withdrawn, it is
    settled with no change."""
    if challenge.kind != Kind.LADDER:
        return
    row = _held(challenge=challenge, status=LadderChallenge.Status.WAITING)
    if row is None:
        return
    if answer == "accept":
        assert match is not None
        LadderChallenge.objects.filter(pk=row.pk, status=row.status).update(
            status=LadderChallenge.Status.ACCEPTED
        )
        _changed(row.ladder_id)
        # The fixture's window opens. "Agree a time" (`later`): being at the table starts
        # nothing until a time is agreed; never agreed, the match never starts.
        fixtures_service.open_window(row.fixture, match, now + row.ladder.play_time, later)
    elif answer == "decline":
        winner = rules.declined_winner(row.ladder.decline_counts_as_loss, row.challenger_id)
        _settle(row, Outcome.DECLINED, winner, now)
    else:
        _settle(row, Outcome.WITHDRAWN, None, now, record=False)


def _held(**lookup: Any) -> LadderChallenge | None:
    """The ladder challenge found by `lookup` (None if none), its fixture's row and then its
    own locked, in the club's order."""
    fixture_id = LadderChallenge.objects.filter(**lookup).values_list("fixture", flat=True).first()
    if fixture_id is None:
        return None
    Fixture.objects.select_for_update().filter(pk=fixture_id).first()
    return (
        LadderChallenge.objects.select_for_update(of=("self",))
        .select_related("ladder", "fixture")
        .filter(fixture_id=fixture_id, **lookup)
        .first()
    )


# --- the start time ------------------------------------------------------------------------------
def _fixture_of(pk: int) -> int:
    """The fixture of the ladder challenge `pk` (the fixtures' service finds whose it is)."""
    fixture_id = LadderChallenge.objects.filter(pk=pk).values_list("fixture", flat=True).first()
    if fixture_id is None:
        raise LadderError("no_such_match", "there is no such ladder match of yours")
    return int(fixture_id)


def propose_start(
    pk: int, member: User, at: datetime, now: datetime | None = None
) -> LadderChallenge:
    """One of the two players proposes a start time for their ladder match, inside its
    window; the other accepts it or proposes another (`fixtures.service.propose_start`)."""
    now = now or timezone.now()
    with transaction.atomic():
        try:
            fixtures_service.propose_start(_fixture_of(pk), member, at, now)
        except FixtureError as exc:
            raise LadderError(exc.code, exc.message) from None
        _changed(LadderChallenge.objects.values_list("ladder_id", flat=True).get(pk=pk))
    return LadderChallenge.objects.select_related("fixture").get(pk=pk)


def accept_start(
    pk: int, member: User, at: datetime, now: datetime | None = None
) -> LadderChallenge:
    """The other player accepts the proposed start time `at` (the one their page showed:
    `fixtures.service.accept_start`)."""
    now = now or timezone.now()
    with transaction.atomic():
        try:
            fixtures_service.accept_start(_fixture_of(pk), member, at, now)
        except FixtureError as exc:
            raise LadderError(exc.code, exc.message) from None
        _changed(LadderChallenge.objects.values_list("ladder_id", flat=True).get(pk=pk))
    return LadderChallenge.objects.select_related("fixture").get(pk=pk)


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
    positions by the rules, both parties are free again, its fixture is off if still to be
    played (a decided one stays decided), and the history says so (`absent`, `flagged`: a
    match not played out, `rules.fixtures.unplayed`). Returns the entry, or None if it was
    settled already (elsewhere, first). The caller holds the fixture's row, then this one's."""
    updated = LadderChallenge.objects.filter(pk=row.pk, status=row.status).update(
        status=LadderChallenge.Status.SETTLED, outcome=outcome, winner_id=winner, settled=now,
        absent=absent, flagged=flagged,
    )  # fmt: skip
    if not updated:
        return None
    fixtures_service.call_off(row.fixture_id)
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
        match_id=match.pk if match is not None else row.fixture.match_id, flagged=flagged,
    )  # fmt: skip


# --- the fixtures' decisions --------------------------------------------------------------------
_OUTCOMES = {
    fixtures.How.BY_STATE: Outcome.UNFINISHED,
    fixtures.How.LEVEL: Outcome.UNFINISHED,
    fixtures.How.NO_SHOW: Outcome.NO_SHOW,
    fixtures.How.MISSED: Outcome.UNPLAYED,
    fixtures.How.FALLBACK: Outcome.UNPLAYED,
}


def _absent(fixture: Fixture) -> str:
    """Who did not come, in the history's words (the challenger is the fixture's first)."""
    gone = rules.in_ladder_words(fixtures.Absent(fixture.absent) if fixture.absent else None)
    return gone.value if gone is not None else ""


class LadderFixtures:
    """The ladder's side of its fixtures (`fixtures.service.register`, ladder/apps.py)."""

    def fallback(self, fixture: Fixture) -> int | None:
        """Both or neither came, neither waited: the ladder's default rule."""
        row = LadderChallenge.objects.select_related("ladder").get(fixture=fixture)
        rule = DefaultRule(row.ladder.default_result)
        return rules.default_winner(rule, row.challenger_id, row.defender_id)

    def decided(self, fixture: Fixture, match: Match, now: datetime) -> bool:
        """A ladder match was decided: played out, its result applied to the ladder and
        rated (`ratings.service.rate`); not played out by its deadline, settled by the
        fixture's default. Exactly once: the ladder challenge is settled only if still to be
        played, and a match has at most one rated result. (A ladder match settled before it
        ended, by a deadline or an organiser, counts for nothing; a rated friendly is the
        club's to rate, club/friendlies.py.)"""
        row = (
            LadderChallenge.objects.select_for_update(of=("self",))
            .select_related("ladder", "fixture")
            .filter(fixture=fixture, status=LadderChallenge.Status.ACCEPTED)
            .first()
        )
        if row is None:
            return False
        if fixture.outcome == Fixture.Outcome.PLAYED:
            _settle(row, Outcome.PLAYED, ratings.winner_id(match), now, match=match)
            ratings.rate(match, now, RatedKind.LADDER)
            return True
        entry = _settle(
            row, _OUTCOMES[fixtures.How(fixture.outcome)], fixture.winner_id, now, match=match,
            absent=_absent(fixture), flagged=fixture.flagged,
        )  # fmt: skip
        return entry is not None


OWNER = LadderFixtures()


def challenge_answered(
    sender: Any, challenge: Challenge, answer: str, match: Match | None, now: datetime,
    later: bool, **kwargs: Any,
) -> None:  # fmt: skip
    """`club.signals.challenge_answered`'s receiver (a failure undoes the answer)."""
    on_answered(challenge, answer, match, now, later)


# --- deadlines -----------------------------------------------------------------------------------
def settle_due(now: datetime | None = None, limit: int = 100) -> Settled:
    """Settle what is due: challenges not answered in time (the ladder's default rule), the
    fixtures' pass (`fixtures.service.settle_due`: matches not played by their deadline, a
    ladder match finished but not settled; reminders; who came), and a rated friendly its
    end did not rate. Each row in a transaction of its own, taken with `skip_locked`
    (PostgreSQL) and written only if still in the state read (everywhere): run by several
    processes at once, each thing is settled once."""
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
    done = fixtures_service.settle_due(now, limit)
    ours = dict(
        LadderChallenge.objects.filter(
            fixture__in={*done.decided, *done.reminders, *done.waited}
        ).values_list("fixture", "pk")
    )
    settled += [ours[f] for f in done.decided if f in ours]
    rated = friendlies.rate_missed(now, limit)
    return Settled(
        tuple(settled), rated, News(tuple(challenges)),
        tuple(ours[f] for f in done.reminders if f in ours),
        tuple(ours[f] for f in done.waited if f in ours),
    )  # fmt: skip


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
            row = _held(pk=pk, status=LadderChallenge.Status.WAITING, answer_by__lte=now)
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

    return busy(run)


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
    row = _held(pk=pk)
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
            ratings.void_match(entry.match_id, by, note)
    return voiding


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
