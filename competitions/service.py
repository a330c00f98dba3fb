"""The competitions' service: open, enter, withdraw, close, draw; a fixture's decision applied
to the bracket (`CompetitionFixtures.decided`, the fixtures' hook). No sockets and no pages.

A single-elimination knockout (docs/competitions.md): the draw ranks the entrants by club
rating (`rules.seeding.by_rating`), draws the unseeded part from a seed it stores
(`rules.seeding.draw`), and stores the first round's places; the bracket
(`rules.bracket.Bracket`) is those places and the decisions made (`Decision` rows), folded by
`bracket_of`. Each bracket match whose two players are known becomes a fixture of kind
"competition" (`fixtures.service`), its match made through the match service and its window
opened; when it is decided (played out at the table, or by the fixtures' default when its
window closes) the winner goes on, the next round's fixtures are made, a played result is
rated (`ratings.service.rate`, kind "competition") and, after the final, the champion is
recorded.

Locks are taken in the club's one order: the match, the fixture, the competition, the
ratings. Everything that changes a competition holds its row (`select_for_update`), so two
results of one bracket (two semi-finals ending at once) are applied one after the other.
Every function that reads the time takes `now`.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from club.lobby import is_guest
from competitions.models import Competition, Decision, Entrant, Pairing
from fixtures import service as fixtures_service
from fixtures.models import Fixture
from fixtures.service import FixtureError
from game import service as game_service
from game.models import Match
from ratings import service as ratings
from ratings.models import Kind as RatedKind
from ratings.models import Rating
from rules import bracket as rules
from rules import seeding
from rules.errors import IllegalRequest, Refused

FIXTURE_KIND = "competition"  # the competitions' fixtures (fixtures.service.register)
Status = Competition.Status
DEFAULT_PLAY_TIME = timedelta(days=7)  # each match's window, unless the organiser says


class CompetitionError(Refused):
    """A refused action; nothing was changed. `code` is stable (competitions/text.py words
    it)."""


def may_organise(user: object) -> bool:
    """Organisers: the club's staff, or a member given the permission
    `competitions.organise` (in /admin/)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return False
    return user.is_staff or user.has_perm("competitions.organise")


def _organiser(user: User) -> None:
    if not may_organise(user):
        raise CompetitionError("organisers_only", "only an organiser may do this")


def _locked(competition_id: int) -> Competition:
    row = Competition.objects.select_for_update().filter(pk=competition_id).first()
    if row is None:
        raise CompetitionError("not_found", "there is no such competition")
    return row


# --- opening and entry -----------------------------------------------------------------------
def open_competition(
    by: User, name: str, now: datetime, entry_deadline: datetime, *, name_ru: str = "",
    best_of: rules.BestOf | None = None, rated: bool = True, play_time: timedelta | None = None,
) -> Competition:  # fmt: skip
    """An organiser opens a knockout for entry until `entry_deadline`."""
    _organiser(by)
    plan = best_of or rules.BestOf(3)
    if entry_deadline <= now:
        raise CompetitionError("deadline_passed", "entry must close in the future")
    return Competition.objects.create(
        name=name, name_ru=name_ru, best_of=plan.rounds, best_of_semi_finals=plan.semi_finals,
        best_of_final=plan.final, rated=rated, entry_deadline=entry_deadline, organiser=by,
        created=now, play_time=play_time or DEFAULT_PLAY_TIME,
    )  # fmt: skip


def enter(competition_id: int, member: User, now: datetime) -> Entrant:
    """A member enters while entry is open (members only: not a guest)."""
    if not member.is_authenticated or is_guest(member):
        raise CompetitionError("members_only", "only the club's members may enter")
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status != Status.OPEN or now >= row.entry_deadline:
            raise CompetitionError("entry_closed", "entry to this competition is closed")
        entrant, made = Entrant.objects.get_or_create(
            competition=row, member=member, defaults={"entered": now}
        )
        if not made:
            raise CompetitionError("entered_already", "you have entered already")
        return entrant


def withdraw(competition_id: int, member: User, now: datetime) -> None:
    """A member withdraws their entry while entry is open (after the draw, a withdrawal is a
    walkover: still to be built)."""
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status != Status.OPEN or now >= row.entry_deadline:
            raise CompetitionError("entry_closed", "entry to this competition is closed")
        gone, _ = Entrant.objects.filter(competition=row, member=member).delete()
        if not gone:
            raise CompetitionError("not_entered", "you have not entered")


def close_entry(competition_id: int, by: User, now: datetime) -> Competition:
    """An organiser closes entry before the draw."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status != Status.OPEN:
            raise CompetitionError("entry_closed", "entry to this competition is closed")
        row.status = Status.CLOSED
        row.save(update_fields=["status"])
        return row


# --- the draw ----------------------------------------------------------------------------------
def draw(competition_id: int, by: User, now: datetime, seed: int | None = None) -> Competition:
    """An organiser draws the knockout (entry closes if it was open): the entrants ranked by
    club rating, the rest of the draw from a stored seed (`rules.seeding.draw`; a new random
    one unless given, as a test gives it), byes to the top seeds; the first round's fixtures
    are made."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status not in (Status.OPEN, Status.CLOSED):
            raise CompetitionError("drawn_already", "this competition is drawn already")
        entrants = list(Entrant.objects.filter(competition=row).order_by("pk"))
        members = [e.member_id for e in entrants]
        found = Rating.objects.filter(member_id__in=members).values_list("member_id", "rating")
        try:
            ranking = seeding.by_rating(members, dict(found))
            made = seeding.draw(ranking, secrets.randbits(48) if seed is None else seed)
        except IllegalRequest as exc:
            raise CompetitionError(exc.code, exc.detail) from None
        for entrant in entrants:
            entrant.seed = made.seed_of(entrant.member_id)
        Entrant.objects.bulk_update(entrants, ["seed"])
        row.seed, row.seeded, row.slots = made.seed, made.seeded, list(made.slots)
        row.status, row.drawn = Status.IN_PLAY, now
        row.save(update_fields=["seed", "seeded", "slots", "status", "drawn"])
        _go_on(row, bracket_of(row), now)
        return row


def bracket_of(row: Competition) -> rules.Bracket:
    """The competition's bracket: the draw's places and seeds, and the decisions made."""
    if row.slots is None:
        raise CompetitionError("not_drawn", "this competition is not drawn yet")
    seeds = (
        Entrant.objects.filter(competition=row).order_by("seed").values_list("member_id", flat=True)
    )
    shape = rules.single(tuple(row.slots), tuple(seeds))
    decisions = tuple(
        (rules.Key.parse(d.key), rules.Decision(d.winner_id, rules.How(d.how)))
        for d in Decision.objects.filter(competition=row).order_by("pk")
    )
    return replace(shape, decisions=decisions)


def _go_on(row: Competition, bracket: rules.Bracket, now: datetime) -> None:
    """After a change: a fixture for each match now ready that has none; the champion, once
    the final is decided. (The caller holds the competition's row.)"""
    made = set(Pairing.objects.filter(competition=row).values_list("key", flat=True))
    users = {u.pk: u for u in User.objects.filter(pk__in=bracket.seeds)}
    for m in rules.ready(bracket):
        if str(m.key) in made:
            continue
        first, second = m.players
        assert first is not None and second is not None
        _fixture(row, bracket, m.key, users[first], users[second], now)
    if rules.finished(bracket):
        winner = rules.champion(bracket)
        row.champion_id, row.status, row.finished = winner, Status.FINISHED, now
        row.save(update_fields=["champion", "status", "finished"])


def _fixture(
    row: Competition, bracket: rules.Bracket, key: rules.Key, first: User, second: User,
    now: datetime,
) -> Pairing:  # fmt: skip
    """A bracket match to be played: its fixture (the bracket's upper place first), its match
    (best of the round's frames; who breaks off is the match's own draw), its window open
    from now."""
    fixture = fixtures_service.create(FIXTURE_KIND, first, second)
    shot_clock = settings.CLUB["RATED_SHOT_CLOCK"] if row.rated else None
    match = game_service.create_match(
        first, second, rules.best_of(bracket, row.plan(), key), shot_clock=shot_clock,
        rated=row.rated,
    )  # fmt: skip
    fixtures_service.open_window(fixture, match, now + row.play_time)
    return Pairing.objects.create(competition=row, key=str(key), fixture=fixture)


# --- the start time ----------------------------------------------------------------------------
def _ours(fixture_id: int) -> None:
    if not Pairing.objects.filter(fixture_id=fixture_id).exists():
        raise CompetitionError("no_such_match", "there is no such competition match of yours")


def propose_start(fixture_id: int, member: User, at: datetime, now: datetime) -> Fixture:
    """One of a competition match's two players proposes a start time inside its window (the
    fixtures' rule: `fixtures.service.propose_start`)."""
    with transaction.atomic():
        _ours(fixture_id)
        try:
            return fixtures_service.propose_start(fixture_id, member, at, now)
        except FixtureError as exc:
            raise CompetitionError(exc.code, exc.message) from None


def accept_start(fixture_id: int, member: User, at: datetime, now: datetime) -> Fixture:
    """The other player accepts the proposed start time (the one their page showed)."""
    with transaction.atomic():
        _ours(fixture_id)
        try:
            return fixtures_service.accept_start(fixture_id, member, at, now)
        except FixtureError as exc:
            raise CompetitionError(exc.code, exc.message) from None


# --- an organiser's decisions ---------------------------------------------------------------
def award(competition_id: int, key: str, winner: User, by: User, now: datetime) -> Decision:
    """An organiser decides a flagged fixture (not played by its deadline, and the fixtures'
    default gave nobody the match): a walkover to one of its players (the higher seed, say:
    `rules.bracket.higher_seed`). The winner goes on as by any walkover."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        pairing = Pairing.objects.select_related("fixture").filter(competition=row, key=key).first()
        if pairing is None or not (
            pairing.fixture.flagged and pairing.fixture.status == Fixture.Status.DECIDED
        ):
            raise CompetitionError("not_flagged", "this match is not waiting for an organiser")
        bracket = bracket_of(row)
        place = rules.Key.parse(key)
        if rules.match(bracket, place).state is not rules.State.READY:
            raise CompetitionError("not_flagged", "this match is not waiting for an organiser")
        try:
            after = rules.advance(bracket, place, winner.pk, rules.How.WALKOVER)
        except IllegalRequest as exc:
            raise CompetitionError(exc.code, exc.detail) from None
        decision = Decision.objects.create(
            competition=row, key=key, winner=winner, how=rules.How.WALKOVER, at=now
        )
        _go_on(row, after, now)
        return decision


# --- the fixtures' decisions -------------------------------------------------------------------
class CompetitionFixtures:
    """The competitions' side of their fixtures (`fixtures.service.register`,
    competitions/apps.py)."""

    def fallback(self, fixture: Fixture) -> int | None:
        """Both or neither came, neither waited: a competition has no rule of its own; the
        fixture is flagged and an organiser decides (docs/competitions.md)."""
        return None

    def decided(self, fixture: Fixture, match: Match, now: datetime) -> bool:
        """A competition match was decided: played out, its winner goes on and the result
        is rated (a rated competition's); not played out by its deadline, the fixtures'
        default's winner goes on by a walkover, and with no winner the match waits for an
        organiser (flagged). Exactly once: a bracket match is decided once (`Decision`'s
        constraint, and the competition's row held)."""
        pairing = Pairing.objects.filter(fixture=fixture).first()
        if pairing is None:
            return False
        row = _locked(pairing.competition_id)
        bracket = bracket_of(row)
        key = rules.Key.parse(pairing.key)
        if fixture.outcome == Fixture.Outcome.PLAYED:
            winner, how = ratings.winner_id(match), rules.How.PLAYED
        else:
            winner, how = fixture.winner_id, rules.How.WALKOVER
        if winner is None:
            return True  # flagged: an organiser decides
        if rules.match(bracket, key).state is not rules.State.READY:
            return False
        after = rules.advance(bracket, key, winner, how)
        Decision.objects.create(competition=row, key=str(key), winner_id=winner, how=how, at=now)
        _go_on(row, after, now)
        if how is rules.How.PLAYED and row.rated:
            ratings.rate(match, now, RatedKind.COMPETITION)
        return True


OWNER = CompetitionFixtures()
