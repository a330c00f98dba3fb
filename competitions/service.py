"""The competitions' service: open, enter, withdraw, close, draw; a fixture's decision applied
to the bracket (`CompetitionFixtures.decided`, the fixtures' hook). No sockets and no pages:
what changed is told after the commit (`_changed`: the pages; competitions/notices.py: the
players' news).

A knockout, single or double elimination (docs/competitions.md): the draw ranks the entrants
by the competition's seeding (`_ranking`, `rules.seeding.rank`: by club rating, by ladder
position or by an organiser's hand, `set_seeding`), draws the unseeded part from a seed it stores
(`rules.seeding.draw`), and stores the first round's places; the bracket
(`rules.bracket.Bracket`: `single`, with the third-place match if chosen, or `double`, with
the grand final's reset if chosen) is those places, the decisions made (`Decision` rows) and
the entrants withdrawn, folded by `bracket_of`. Each bracket match whose two players are known
becomes a fixture of kind "competition" (`fixtures.service`), its match made through the match
service and its window opened; when it is decided (played out at the table, or by the
fixtures' default when its window closes) the winner goes on (and in double elimination the
loser drops to the losers' bracket), the matches whose players are now known get their
fixtures, a played result is rated (`ratings.service.rate`, kind "competition") and, once the
bracket is finished, the champion is recorded. A member who withdraws or is disqualified keeps
the results they played; their match to be played now and each one to come are walkovers to
the opponent (`rules.bracket.withdraw`).

A round robin (docs/competitions.md, "Round robins in the club"): the draw ranks the entrants by
the competition's seeding (`_ranking`), draws each pot of the ranking from the stored seed and
deals the groups by the snake (`rules.roundrobin.drawn`, `groups`); every group's fixtures,
every round, are made at once by the circle method (`rules.roundrobin.schedule`), round n's
window closing n windows after the draw. Each decided fixture is a `Decision` with its frames
and breaks; the tables are those rows folded (`tables_of`, `rules.standings`). When every
fixture is decided the top of a single group is the champion. A member who withdraws after the
draw keeps the results they played; their remaining fixtures are walkovers to their opponents
(`withdraw`).

Locks are taken in the club's one order: the match, the fixture, the competition, the
ratings. Everything that changes a competition holds its row (`select_for_update`), so two
results of one bracket (two semi-finals ending at once) are applied one after the other.
Every function that reads the time takes `now`.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from club.lobby import is_guest
from club.signals import competition_changed
from competitions import notices
from competitions.models import Action, Competition, Decision, Entrant, Pairing
from fixtures import service as fixtures_service
from fixtures.models import Fixture
from fixtures.service import FixtureError
from game import service as game_service
from game.models import Match
from ladder.models import Rung
from members.figures import finished as figures_of
from ratings import handicaps
from ratings import service as ratings
from ratings.models import Kind as RatedKind
from ratings.models import Rating
from rules import bracket as rules
from rules import roundrobin, seeding, standings
from rules.errors import IllegalRequest, Refused
from rules.match import frames_to_win, match_from_json
from rules.state import NO_START, Player, opponent

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


def _log(
    row: Competition, kind: str, by: User, now: datetime, *, member: int | None = None,
    key: str = "", note: str = "",
) -> Action:  # fmt: skip
    """The audit log's line for an organiser's action, written in the action's transaction."""
    return Action.objects.create(
        competition=row, kind=kind, by=by, at=now, member_id=member, key=key, note=note[:200]
    )


def _locked(competition_id: int) -> Competition:
    """The competition's row, held until the transaction ends. Everything that changes a
    competition holds it, so its pages are told here, once the change commits (nothing is
    told of one refused: its transaction rolls back)."""
    row = Competition.objects.select_for_update().filter(pk=competition_id).first()
    if row is None:
        raise CompetitionError("not_found", "there is no such competition")
    _changed(row.pk)
    return row


def _changed(competition_id: int) -> None:
    """The pages showing this competition are told once the transaction commits
    (club/signals.py)."""
    transaction.on_commit(
        lambda: competition_changed.send(sender=Competition, competition=competition_id)
    )


# --- opening and entry -----------------------------------------------------------------------
def _seeding(method: str, seeding_ladder_id: int | None, ladder_id: int | None) -> int | None:
    """A seeding checked: a known method, and by ladder position a ladder to read (the one
    chosen, or the competition's own). The ladder chosen for seeding, kept only for that."""
    if method not in Competition.Seeding.values:
        raise CompetitionError("bad_seeding", f"no seeding {method!r}")
    if method != Competition.Seeding.LADDER:
        return None
    if seeding_ladder_id is None and ladder_id is None:
        raise CompetitionError("no_seeding_ladder", "seeding by ladder position needs a ladder")
    return seeding_ladder_id


def open_competition(
    by: User, name: str, now: datetime, entry_deadline: datetime, *, name_ru: str = "",
    best_of: rules.BestOf | None = None, rated: bool = True, play_time: timedelta | None = None,
    format: str = Competition.Format.KNOCKOUT, groups: int = 1, cycles: int = 1,
    advance: int = 2, handicap: bool = False, third_place: bool = False, reset: bool = True,
    max_entrants: int | None = None, ladder_id: int | None = None,
    seeding: str = Competition.Seeding.RATING, seeding_ladder_id: int | None = None,
) -> Competition:  # fmt: skip
    """An organiser opens a knockout (with a third-place match if `third_place`), a double
    elimination (with the grand final's reset if `reset`), a round robin of `groups` groups
    played `cycles` times round (each match the best of `best_of.rounds`), or such groups
    followed by a knockout of the top `advance` of each (played by `best_of`, with a
    third-place match if `third_place`), for entry until `entry_deadline`: by at most
    `max_entrants` (none: no limit), only the members of the ladder `ladder_id` if given;
    the draw seeded by `seeding` (by ladder position: `seeding_ladder_id`'s, or else
    `ladder_id`'s: `_seeding`)."""
    _organiser(by)
    seeding_ladder_id = _seeding(seeding, seeding_ladder_id, ladder_id)
    plan = best_of or rules.BestOf(3)
    if entry_deadline <= now:
        raise CompetitionError("deadline_passed", "entry must close in the future")
    if max_entrants is not None and max_entrants < 2:
        raise CompetitionError("too_few_entrants", "a competition needs two entrants or more")
    if format not in Competition.Format.values:
        raise CompetitionError("bad_format", f"no format {format!r}")
    if format in (Competition.Format.ROUND_ROBIN, Competition.Format.GROUPS):
        if groups < 1:
            raise CompetitionError("bad_groups", "a round robin has at least one group")
        if cycles not in (1, 2):
            raise CompetitionError("bad_cycles", "a round robin is played once or twice round")
        if format == Competition.Format.GROUPS and (advance < 1 or groups * advance < 2):
            raise CompetitionError("bad_advance", "the knockout needs two players or more")
    else:
        groups, cycles = 1, 1
    if format == Competition.Format.ROUND_ROBIN:
        plan = rules.BestOf(plan.rounds)  # every match of a group alike
    # Each option only where its format has it: a single elimination's third-place match (a
    # double elimination's third is its losers' final's loser: rules.bracket.placings), a
    # double elimination's reset (elsewhere the field's default).
    if format not in (Competition.Format.KNOCKOUT, Competition.Format.GROUPS):
        third_place = False
    if format != Competition.Format.DOUBLE:
        reset = True
    with transaction.atomic():
        row = Competition.objects.create(
            name=name, name_ru=name_ru, format=format, best_of=plan.rounds,
            best_of_semi_finals=plan.semi_finals, best_of_final=plan.final, rated=rated,
            handicap=handicap, third_place=third_place, reset=reset, groups=groups,
            cycles=cycles, advance=advance, entry_deadline=entry_deadline, organiser=by,
            created=now, play_time=play_time or DEFAULT_PLAY_TIME, max_entrants=max_entrants,
            ladder_id=ladder_id, seeding=seeding, seeding_ladder_id=seeding_ladder_id,
        )  # fmt: skip
        _log(row, Action.Kind.OPEN, by, now)
        return row


def enter(competition_id: int, member: User, now: datetime) -> Entrant:
    """A member enters while entry is open (members only: not a guest), if there is room and,
    in a ladder's competition, they have a place on that ladder (`_admit`)."""
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status != Status.OPEN or now >= row.entry_deadline:
            raise CompetitionError("entry_closed", "entry to this competition is closed")
        return _admit(row, member, now)


def _admit(row: Competition, member: User, now: datetime) -> Entrant:
    """`member` entered, by themselves or by an organiser, by the same rules: a member (not a
    guest), once, while there is room (`max_entrants`), of the competition's ladder if it has
    one. (The caller holds the competition's row, so two entries cannot both take the last
    place.)"""
    if not member.is_authenticated or is_guest(member):
        raise CompetitionError("members_only", "only the club's members may enter")
    if (
        row.ladder_id is not None
        and not Rung.objects.filter(ladder_id=row.ladder_id, member=member).exists()
    ):
        raise CompetitionError("ladder_only", "only the ladder's members may enter")
    entrants = Entrant.objects.filter(competition=row)
    if entrants.filter(member=member).exists():
        raise CompetitionError("entered_already", "entered already")
    if row.max_entrants is not None and entrants.count() >= row.max_entrants:
        raise CompetitionError("full", f"at most {row.max_entrants} may enter")
    return Entrant.objects.create(competition=row, member=member, entered=now)


def add_entrant(competition_id: int, member: User, by: User, now: datetime,
                note: str = "") -> Entrant:  # fmt: skip
    """An organiser enters a member before the draw (entry open or closed, the deadline
    passed or not), by the entry's rules (`_admit`)."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status not in (Status.OPEN, Status.CLOSED):
            raise CompetitionError("drawn_already", "this competition is drawn already")
        entrant = _admit(row, member, now)
        _log(row, Action.Kind.ADD, by, now, member=member.pk, note=note)
        return entrant


def remove_entrant(competition_id: int, member: User, by: User, now: datetime,
                   note: str = "") -> None:  # fmt: skip
    """An organiser takes an entrant out before the draw (after it, a withdrawal or a
    disqualification: `withdraw`)."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status not in (Status.OPEN, Status.CLOSED):
            raise CompetitionError("drawn_already", "this competition is drawn already")
        gone, _ = Entrant.objects.filter(competition=row, member=member).delete()
        if not gone:
            raise CompetitionError("not_entrant", "that member has not entered")
        _log(row, Action.Kind.REMOVE, by, now, member=member.pk, note=note)


def withdraw(competition_id: int, member: User, now: datetime, by: User | None = None,
             note: str = "") -> None:  # fmt: skip
    """A member withdraws their entry while entry is open; once the competition is in play,
    they withdraw from it, or an organiser (`by`) withdraws or disqualifies them
    (`_withdraw_from_play`; the audit log says so, with the organiser's `note`)."""
    organiser = by if by is not None and by.pk != member.pk else None
    if organiser is not None:
        _organiser(organiser)
    row = Competition.objects.filter(pk=competition_id).first()
    if row is not None and row.status == Status.IN_PLAY:
        _withdraw_from_play(row.pk, member, now, organiser, note)
        return
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status != Status.OPEN or now >= row.entry_deadline:
            raise CompetitionError("entry_closed", "entry to this competition is closed")
        gone, _ = Entrant.objects.filter(competition=row, member=member).delete()
        if not gone:
            raise CompetitionError("not_entered", "you have not entered")
        if organiser is not None:  # an organiser took their entry out: as `remove_entrant`
            _log(row, Action.Kind.REMOVE, organiser, now, member=member.pk, note=note)


def close_entry(competition_id: int, by: User, now: datetime, note: str = "") -> Competition:
    """An organiser closes entry before the draw."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status != Status.OPEN:
            raise CompetitionError("entry_closed", "entry to this competition is closed")
        row.status = Status.CLOSED
        row.save(update_fields=["status"])
        _log(row, Action.Kind.CLOSE, by, now, note=note)
        return row


def set_seeding(
    competition_id: int, by: User, now: datetime, method: str, *, ladder_id: int | None = None,
    numbers: Mapping[int, int | None] | None = None, note: str = "",
) -> Competition:  # fmt: skip
    """An organiser chooses, before the draw, how it seeds the entrants (`method`): by club
    rating, by position on a ladder (`ladder_id`, or else the competition's own) or by hand,
    each entrant's number in `numbers` (member id -> number, 1 the top; each number once; an
    entrant without one is ranked after the numbered, by rating; a member not entered is
    passed over). Numbers given are kept whatever the method (an organiser may number, then
    choose). In the audit log."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status not in (Status.OPEN, Status.CLOSED):
            raise CompetitionError("drawn_already", "this competition is drawn already")
        row.seeding_ladder_id = _seeding(method, ladder_id, row.ladder_id)
        row.seeding = method
        row.save(update_fields=["seeding", "seeding_ladder"])
        if numbers is not None:
            entrants = list(Entrant.objects.filter(competition=row))
            entered = {e.member_id for e in entrants}
            # A number for a member no longer entered (withdrawn while the organiser typed)
            # is passed over.
            given = {m: n for m, n in numbers.items() if n is not None and m in entered}
            try:
                seeding.by_numbers(given)
            except IllegalRequest as exc:
                raise CompetitionError(exc.code, exc.detail) from None
            for e in entrants:
                e.hand_seed = given.get(e.member_id)
            Entrant.objects.bulk_update(entrants, ["hand_seed"])
        _log_seeding(row, Action.Kind.SEEDING, by, now, note)
        return row


def _log_seeding(row: Competition, kind: str, by: User, now: datetime, note: str) -> Action:
    """The audit log's line for the seeding chosen, or the draw: it says how the entrants are
    ranked (and by which ladder)."""
    ladder = row.ranking_ladder_id if row.seeding == Competition.Seeding.LADDER else None
    return Action.objects.create(
        competition=row, kind=kind, by=by, at=now, note=note[:200], seeding=row.seeding,
        ladder_id=ladder,
    )  # fmt: skip


def _ranking(row: Competition, entrants: Sequence[Entrant]) -> tuple[int, ...]:
    """The entrants ranked for the draw by the competition's seeding (`rules.seeding.rank`):
    by club rating; by position on its ladder; by the organiser's numbers. Either of the last
    two puts those the ladder or the organiser left out after, by rating."""
    members = [e.member_id for e in entrants]
    found = Rating.objects.filter(member_id__in=members).values_list("member_id", "rating")
    order: Sequence[int] = ()
    ladder = row.ranking_ladder_id
    if row.seeding == Competition.Seeding.LADDER and ladder is not None:
        rungs = Rung.objects.filter(ladder_id=ladder, member_id__in=members)
        order = list(rungs.order_by("position").values_list("member_id", flat=True))
    elif row.seeding == Competition.Seeding.HAND:
        order = seeding.by_numbers(
            {e.member_id: e.hand_seed for e in entrants if e.hand_seed is not None}
        )
    return seeding.rank(seeding.Method(row.seeding), members, dict(found), order)


# --- the draw ----------------------------------------------------------------------------------
def draw(
    competition_id: int, by: User, now: datetime, seed: int | None = None, note: str = ""
) -> Competition:
    """An organiser draws the competition (entry closes if it was open). A knockout or a
    double elimination: the entrants ranked by the competition's seeding (`_ranking`; the
    audit log's line says which), the rest of the draw from a stored
    seed (`rules.seeding.draw`; a new random one unless given, as a test gives it), byes to
    the top seeds; the first round's fixtures are made. A round robin: `_draw_groups`."""
    _organiser(by)
    with transaction.atomic():
        row = _locked(competition_id)
        if row.status not in (Status.OPEN, Status.CLOSED):
            raise CompetitionError("drawn_already", "this competition is drawn already")
        _log_seeding(row, Action.Kind.DRAW, by, now, note)
        if row.round_robin:
            _draw_groups(row, secrets.randbits(48) if seed is None else seed, now)
            return row
        entrants = list(Entrant.objects.filter(competition=row).order_by("pk"))
        try:
            ranking = _ranking(row, entrants)
            made = seeding.draw(ranking, secrets.randbits(48) if seed is None else seed)
        except IllegalRequest as exc:
            raise CompetitionError(exc.code, exc.detail) from None
        for entrant in entrants:
            entrant.seed = made.seed_of(entrant.member_id)
        Entrant.objects.bulk_update(entrants, ["seed"])
        row.seed, row.seeded, row.slots = made.seed, made.seeded, list(made.slots)
        row.status, row.drawn = Status.IN_PLAY, now
        row.save(update_fields=["seed", "seeded", "slots", "status", "drawn"])
        for entrant in entrants:
            notices.tell(row, entrant.member_id, "drawn")
        _go_on(row, bracket_of(row), now)
        return row


def shape_of(row: Competition, seeds: Sequence[int] | None = None) -> rules.Bracket:
    """The competition's bracket as drawn, nothing decided: a single elimination (with the
    third-place match if chosen) or a double one (with the grand final's reset if chosen) of
    the draw's places (`seeds`: the entrants by seed number, for walkovers to the higher
    seed)."""
    if row.slots is None:
        raise CompetitionError("not_drawn", "this competition is not drawn yet")
    slots = tuple(row.slots)
    if row.double:
        return rules.double(slots, seeds, reset=row.reset)
    return rules.single(slots, seeds, third_place=row.third_place)


def bracket_of(row: Competition) -> rules.Bracket:
    """The competition's bracket: the draw's shape and seeds, the decisions made and the
    entrants withdrawn (a group stage's among them, if they went through: their knockout
    matches are walkovers)."""
    if row.slots is None:
        raise CompetitionError("not_drawn", "this competition is not drawn yet")
    rows = Entrant.objects.filter(competition=row).order_by("seed")
    entrants = list(rows.values_list("member_id", "withdrawn"))
    shape = shape_of(row, row.knockout_seeds or [m for m, _ in entrants])
    decisions = tuple(
        (rules.Key.parse(d.key), rules.Decision(d.winner_id, rules.How(d.how)))
        for d in Decision.objects.filter(competition=row)
        .exclude(key__startswith="g")
        .order_by("pk")
    )
    withdrawn = frozenset(m for m, at in entrants if at is not None and m in shape.seeds)
    return replace(shape, decisions=decisions, withdrawn=withdrawn)


def _go_on(row: Competition, bracket: rules.Bracket, now: datetime) -> None:
    """After a change: a fixture for each match now ready that has none (in any side of the
    bracket: the winners', the losers', the grand final and its reset, the third-place match);
    the champion, once every match is decided. (The caller holds the competition's row.)"""
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


def _match(row: Competition, first: User, second: User, best_of: int) -> Match:
    """A competition match at the table: the club's rated shot clock when rated, the
    handicap's start when handicapped; who breaks off is the match's own draw."""
    shot_clock = settings.CLUB["RATED_SHOT_CLOCK"] if row.rated else None
    return game_service.create_match(
        first, second, best_of, shot_clock=shot_clock, rated=row.rated,
        start=_start(row, first, second),
    )  # fmt: skip


def _start(row: Competition, first: User, second: User) -> tuple[int, int]:
    """A handicapped competition's start for a match, from the two ratings as they stand now
    (ratings/handicaps.py); none otherwise."""
    return handicaps.start_between(first.pk, second.pk) if row.handicap else NO_START


def _fixture(
    row: Competition, bracket: rules.Bracket, key: rules.Key, first: User, second: User,
    now: datetime,
) -> Pairing:  # fmt: skip
    """A bracket match to be played: its fixture (the bracket's upper place first), its match
    (best of the round's frames; who breaks off is the match's own draw), its window open
    from now."""
    fixture = fixtures_service.create(FIXTURE_KIND, first, second)
    match = _match(row, first, second, rules.best_of(bracket, row.plan(), key))
    fixtures_service.open_window(fixture, match, now + row.play_time)
    # Both players hear whom their next match is against (a group's fixtures, all made at
    # the draw, are on the page the draw's notice leads to).
    for me, other in ((first, second), (second, first)):
        notices.tell(row, me.pk, "opponent", opponent=other.get_username(), match=match.pk)
    return Pairing.objects.create(competition=row, key=str(key), fixture=fixture)


# --- round robins -------------------------------------------------------------------------------
def rr_key(group: int, round_: int, place: int) -> str:
    """A round robin's match: its group (from 1), round (from 1) and place in the round."""
    return f"g{group}.{round_}.{place}"


def parse_rr_key(key: str) -> tuple[int, int, int]:
    """`rr_key`'s group, round and place."""
    group, round_, place = key.removeprefix("g").split(".")
    return int(group), int(round_), int(place)


def _draw_groups(row: Competition, seed: int, now: datetime) -> None:
    """A round robin's draw (the module's docstring): seeds, groups and every fixture. (The
    caller holds the competition's row.)"""
    entrants = list(Entrant.objects.filter(competition=row).select_related("member"))
    try:
        seeds = roundrobin.drawn(_ranking(row, entrants), row.groups, seed)
        dealt = roundrobin.groups(seeds, row.groups)
    except IllegalRequest as exc:
        raise CompetitionError(exc.code, exc.detail) from None
    if row.group_stage and row.advance > min(len(g) for g in dealt):
        raise CompetitionError("bad_advance", f"{row.advance} cannot go through from each group")
    group_of = {m: g for g, members_ in enumerate(dealt, start=1) for m in members_}
    for entrant in entrants:
        entrant.seed = seeds.index(entrant.member_id) + 1
        entrant.group = group_of[entrant.member_id]
    Entrant.objects.bulk_update(entrants, ["seed", "group"])
    for entrant in entrants:
        notices.tell(row, entrant.member_id, "drawn")
    row.seed, row.seeded, row.status, row.drawn = seed, row.groups, Status.IN_PLAY, now
    row.save(update_fields=["seed", "seeded", "status", "drawn"])
    users = {e.member_id: e.member for e in entrants}
    for g, members_ in enumerate(dealt, start=1):
        for r in roundrobin.schedule(members_, row.cycles):
            for place, p in enumerate(r.pairings):
                _rr_fixture(row, rr_key(g, r.number, place), users[p.first], users[p.second],
                            now + r.number * row.play_time, now)  # fmt: skip


def _rr_fixture(
    row: Competition, key: str, first: User, second: User, play_by: datetime, now: datetime
) -> Pairing:
    """A round robin's match: its fixture, its match (the competition's best-of) and its
    window, open from the draw until its round's deadline."""
    fixture = fixtures_service.create(FIXTURE_KIND, first, second)
    fixtures_service.open_window(fixture, _match(row, first, second, row.best_of), play_by)
    return Pairing.objects.create(competition=row, key=key, fixture=fixture)


def result_of(decision: Decision) -> standings.Result:
    """A round robin's decision as its table counts it (both out: a walkover both lose)."""
    assert decision.winner_id is not None and decision.loser_id is not None
    if decision.how == Decision.How.BOTH_OUT:
        return standings.both_lost(decision.winner_id, decision.loser_id, decision.loser_frames)
    return standings.Result(
        decision.winner_id, decision.loser_id,
        (decision.winner_frames, decision.loser_frames),
        (decision.winner_break, decision.loser_break),
        walkover=decision.how == Decision.How.WALKOVER,
    )  # fmt: skip


def tables_of(entrants: list[Entrant], decisions: list[Decision]) -> list[standings.Table]:
    """Each group's table (group 1 first): its entrants in seed order, the decisions folded."""
    count = max((e.group or 0 for e in entrants), default=0)
    groups = [
        [e.member_id for e in sorted(entrants, key=lambda e: e.seed or 0) if e.group == g]
        for g in range(1, count + 1)
    ]
    results = [result_of(d) for d in decisions if d.loser_id is not None]
    return [standings.table(g, [r for r in results if r.first in g]) for g in groups]


def _rr_go_on(row: Competition, now: datetime) -> None:
    """After a round robin's decision: once every group fixture is decided, a round robin is
    finished (a single group's top the champion); groups before a knockout send their top
    `advance` into it, crossed (`rules.roundrobin.qualifiers`, `crossed`), and its first
    round's fixtures are made. (The caller holds the competition's row.)"""
    groups = Pairing.objects.filter(competition=row, key__startswith="g")
    keys = set(groups.values_list("key", flat=True))
    decided = list(Decision.objects.filter(competition=row, key__startswith="g"))
    if keys - {d.key for d in decided} or row.slots is not None:
        return
    if row.group_stage:
        tables = tables_of(list(Entrant.objects.filter(competition=row)), decided)
        seeds = roundrobin.crossed(roundrobin.qualifiers(tables, row.advance))
        row.knockout_seeds, row.slots = list(seeds), list(seeding.place(seeds))
        row.save(update_fields=["knockout_seeds", "slots"])
        for entrant in Entrant.objects.filter(competition=row, withdrawn=None):
            notices.tell(row, entrant.member_id, "through" if entrant.member_id in seeds else "out")
        _go_on(row, bracket_of(row), now)
        return
    champion = None
    if row.groups == 1:
        entrants = list(Entrant.objects.filter(competition=row))
        (table,) = tables_of(entrants, decided)
        champion = standings.standings(table)[0].tally.member
    row.champion_id, row.status, row.finished = champion, Status.FINISHED, now
    row.save(update_fields=["champion", "status", "finished"])
    if champion is not None:
        notices.tell(row, champion, "champion")


def _played(match: Match) -> tuple[int, int, tuple[int, int], tuple[int, int]]:
    """A round robin's match played out: the winner, the loser, their frames (a conceded match:
    the winner credited with the frames needed, as if the rest were conceded) and their
    highest breaks."""
    state = match_from_json(match.state)
    assert state.winner is not None
    won = state.winner
    lost = opponent(won)
    seats: dict[Player, int] = {"A": int(match.player_a_id), "B": int(match.player_b_id)}
    need = frames_to_win(match.best_of)
    frames = (need, min(state.frames_won(lost), need - 1))
    made = figures_of(match).figures
    breaks = (made.of(won).highest_break, made.of(lost).highest_break)
    return seats[won], seats[lost], frames, breaks


def _walkover(row: Competition, key: str, winner: int, loser: int, now: datetime) -> Decision:
    return Decision.objects.create(
        competition=row, key=key, winner_id=winner, loser_id=loser, how=Decision.How.WALKOVER,
        at=now, winner_frames=frames_to_win(row.best_of),
    )  # fmt: skip


def _rr_decided(row: Competition, pairing: Pairing, fixture: Fixture, match: Match,
                now: datetime) -> bool:  # fmt: skip
    if Decision.objects.filter(competition=row, key=pairing.key).exists():
        return False
    if fixture.outcome == Fixture.Outcome.PLAYED:
        winner, loser, frames, breaks = _played(match)
        Decision.objects.create(
            competition=row, key=pairing.key, winner_id=winner, loser_id=loser,
            how=Decision.How.PLAYED, at=now, winner_frames=frames[0], loser_frames=frames[1],
            winner_break=breaks[0], loser_break=breaks[1],
        )  # fmt: skip
        if row.rated:
            ratings.rate(match, now, RatedKind.COMPETITION)
    elif fixture.winner_id is None:
        return True  # flagged: an organiser decides
    else:
        loser = fixture.second_id if fixture.winner_id == fixture.first_id else fixture.first_id
        _walkover(row, pairing.key, fixture.winner_id, loser, now)
    _rr_go_on(row, now)
    return True


def _withdraw_from_play(competition_id: int, member: User, now: datetime,
                        by: User | None = None, note: str = "") -> None:  # fmt: skip
    """A member leaves a competition in play: the results they played stand, and each of their
    fixtures not yet decided is called off, its match ended unplayed (even one under way), and
    is a walkover to the opponent; in a knockout (`_withdraw_from_bracket`) so is each match
    of theirs to come. Locks in the club's order: the matches, the fixtures, the
    competition."""
    with transaction.atomic():
        entrant = Entrant.objects.filter(competition_id=competition_id, member=member).first()
        if entrant is None:
            raise CompetitionError("not_entered", "you have not entered")
        if entrant.withdrawn is not None:
            raise CompetitionError("withdrawn_already", "this member has withdrawn already")
        decided = Decision.objects.filter(competition_id=competition_id).values_list("key")
        theirs = (
            Pairing.objects.filter(competition_id=competition_id)
            .filter(Q(fixture__first=member) | Q(fixture__second=member))
            .exclude(key__in=decided)
            .order_by("fixture__match_id")
        )
        match_ids = [m for m in theirs.values_list("fixture__match_id", flat=True) if m]
        list(Match.objects.select_for_update().filter(pk__in=match_ids).order_by("pk"))
        pairings = list(theirs.select_related("fixture").select_for_update(of=("self", "fixture")))
        row = _locked(competition_id)
        if row.status != Status.IN_PLAY:
            raise CompetitionError("not_in_play", "this competition is not in play")
        if by is not None:
            _log(row, Action.Kind.WITHDRAW, by, now, member=member.pk, note=note)
        if row.slots is not None:
            _withdraw_from_bracket(row, entrant, pairings, now)
            return
        entrant.withdrawn = now
        entrant.save(update_fields=["withdrawn"])
        for p in _called_off(pairings, now):
            f = p.fixture
            other = f.second_id if f.first_id == member.pk else f.first_id
            _walkover(row, p.key, other, member.pk, now)
        _rr_go_on(row, now)


def _called_off(pairings: list[Pairing], now: datetime) -> list[Pairing]:
    """A withdrawn member's fixtures not yet decided, called off (each match ended unplayed if
    still live: `fixtures.service.call_off_unplayed`): those whose walkover is to be
    written."""
    off = []
    for p in pairings:
        f = p.fixture
        if f.status == Fixture.Status.DECIDED and f.outcome == Fixture.Outcome.PLAYED:
            continue  # played out: its decision is being applied
        fixtures_service.call_off_unplayed(f, now)
        off.append(p)
    return off


def _withdraw_from_bracket(
    row: Competition, entrant: Entrant, pairings: list[Pairing], now: datetime
) -> None:
    """A member still in a knockout withdraws or is disqualified (`rules.bracket.withdraw`):
    what the bracket has decided stays decided, written down (the byes and walkovers it had
    worked out included, so that their withdrawal cannot undo them); their match to be played
    now, its fixture called off, is a walkover to the opponent, and each match of theirs to
    come will be once its opponent is known. (The caller holds their matches, their fixtures
    and the competition's row.)"""
    bracket = bracket_of(row)
    if entrant.member_id not in rules.playing(bracket):
        raise CompetitionError("out_already", "this member is out of the competition already")
    after = rules.withdraw(bracket, entrant.member_id)
    entrant.withdrawn = now
    entrant.save(update_fields=["withdrawn"])
    _called_off(pairings, now)
    Decision.objects.bulk_create(
        Decision(competition=row, key=str(key), winner_id=d.winner, how=d.how, at=now)
        for key, d in after.decisions[len(bracket.decisions) :]
    )
    _go_on(row, after, now)


def match_started(sender: object, match_id: int, **kwargs: object) -> None:
    """A match begun (after its commit: game/signals.py): if it is a competition's, the
    pages showing that competition are told (it is shown live)."""
    found = Pairing.objects.filter(fixture__match_id=match_id).values_list("competition_id")
    for (competition_id,) in found[:1]:
        competition_changed.send(sender=Competition, competition=competition_id)


# --- the start time ----------------------------------------------------------------------------
def _ours(fixture_id: int) -> None:
    pairing = Pairing.objects.filter(fixture_id=fixture_id).first()
    if pairing is None:
        raise CompetitionError("no_such_match", "there is no such competition match of yours")
    _changed(pairing.competition_id)


def propose_start(fixture_id: int, member: User, at: datetime, now: datetime) -> Fixture:
    """One of a competition match's two players proposes a start time inside its window (the
    fixtures' rule: `fixtures.service.propose_start`); both are told."""
    with transaction.atomic():
        _ours(fixture_id)
        try:
            fixture = fixtures_service.propose_start(fixture_id, member, at, now)
        except FixtureError as exc:
            raise CompetitionError(exc.code, exc.message) from None
        row = Competition.objects.get(pairings__fixture_id=fixture_id)
        names = dict(
            User.objects.filter(pk__in=(fixture.first_id, fixture.second_id)).values_list(
                "pk", "username"
            )
        )
        for me, other in ((fixture.first_id, fixture.second_id),
                          (fixture.second_id, fixture.first_id)):  # fmt: skip
            notices.tell(
                row, me, "proposed", opponent=names[other], by=member.get_username(), at=at
            )
        return fixture


def accept_start(fixture_id: int, member: User, at: datetime, now: datetime) -> Fixture:
    """The other player accepts the proposed start time (the one their page showed)."""
    with transaction.atomic():
        _ours(fixture_id)
        try:
            return fixtures_service.accept_start(fixture_id, member, at, now)
        except FixtureError as exc:
            raise CompetitionError(exc.code, exc.message) from None


# --- an organiser's decisions ---------------------------------------------------------------
def _hold(competition_id: int, key: str) -> None:
    """An organiser's decision on the match `key` holds, in the club's order before the
    competition's row, its match at the table and its fixture (a result may be reaching
    them this instant)."""
    found = (
        Pairing.objects.filter(competition_id=competition_id, key=key)
        .values_list("fixture_id", "fixture__match_id")
        .first()
    )
    if found is None:
        return
    fixture_id, match_id = found
    if match_id is not None:
        list(Match.objects.select_for_update().filter(pk=match_id))
    list(Fixture.objects.select_for_update().filter(pk=fixture_id))


def _pairing(row: Competition, key: str) -> Pairing:
    """The competition's match `key` with its fixture (held: `_hold`), not yet decided in the
    competition (a decision of its own, or one its players' withdrawal made)."""
    pairing = Pairing.objects.select_related("fixture").filter(competition=row, key=key).first()
    if pairing is None:
        raise CompetitionError("not_flagged", "there is no such match")
    if Decision.objects.filter(competition=row, key=key).exists():
        raise CompetitionError("not_flagged", "this match is decided already")
    return pairing


def _flagged(row: Competition, key: str) -> Pairing:
    """A match waiting for an organiser: its fixture decided with nobody winning (flagged) and
    the match not yet decided in the competition."""
    pairing = _pairing(row, key)
    f = pairing.fixture
    if not (f.flagged and f.status == Fixture.Status.DECIDED and f.winner_id is None):
        raise CompetitionError("not_flagged", "this match is not waiting for an organiser")
    return pairing


def _players(fixture: Fixture, winner: int) -> tuple[int, int]:
    """The fixture's winner and loser, `winner` one of its two players."""
    if winner not in (fixture.first_id, fixture.second_id):
        raise CompetitionError("not_in_match", "that member does not play this match")
    return winner, fixture.second_id if winner == fixture.first_id else fixture.first_id


def _decide(
    row: Competition, pairing: Pairing, winner: int, how: rules.How, now: datetime,
    frames: tuple[int, int] | None = None,
) -> Decision:  # fmt: skip
    """An organiser's decision of a match for one player (a walkover, or a result recorded),
    applied as a played one is: the winner goes on in a bracket; a round robin's table counts
    a walkover by the frames needed to nil, a recorded result by its `frames`."""
    winner, loser = _players(pairing.fixture, winner)
    key = pairing.key
    if key.startswith("g"):
        if how is rules.How.WALKOVER:
            decision = _walkover(row, key, winner, loser, now)
        else:
            assert frames is not None
            decision = Decision.objects.create(
                competition=row, key=key, winner_id=winner, loser_id=loser, how=how, at=now,
                winner_frames=frames[0], loser_frames=frames[1],
            )  # fmt: skip
        _rr_go_on(row, now)
        return decision
    bracket = bracket_of(row)
    try:
        after = rules.advance(bracket, rules.Key.parse(key), winner, how)
    except IllegalRequest as exc:
        raise CompetitionError("not_flagged", exc.detail) from None
    decision = Decision.objects.create(competition=row, key=key, winner_id=winner, how=how, at=now)
    _go_on(row, after, now)
    _tell_result(row, bracket, after, rules.Key.parse(key), winner)
    return decision


def award(competition_id: int, key: str, winner: User, by: User, now: datetime,
          note: str = "") -> Decision:  # fmt: skip
    """An organiser decides a flagged fixture (not played by its deadline, and the fixtures'
    default gave nobody the match): a walkover to one of its players (the higher seed, say:
    `rules.bracket.higher_seed`). The winner goes on as by any walkover."""
    _organiser(by)
    with transaction.atomic():
        _hold(competition_id, key)
        row = _locked(competition_id)
        decision = _decide(row, _flagged(row, key), winner.pk, rules.How.WALKOVER, now)
        _log(row, Action.Kind.AWARD, by, now, member=winner.pk, key=key, note=note)
        return decision


def both_out(competition_id: int, key: str, by: User, now: datetime, note: str = "") -> None:
    """An organiser puts both players of a flagged fixture out. In a bracket both are out of
    the competition, as if both withdrew at once (`rules.bracket.both_out`): nobody goes on
    from that match, the next opponent through by a walkover, and what the bracket had
    decided is written down as a withdrawal's is. In a round robin it is that fixture alone:
    a walkover both lose (`rules.standings.both_lost`); both play on."""
    _organiser(by)
    with transaction.atomic():
        _hold(competition_id, key)
        row = _locked(competition_id)
        pairing = _flagged(row, key)
        f = pairing.fixture
        _log(row, Action.Kind.BOTH_OUT, by, now, key=key, note=note)
        if key.startswith("g"):
            # Both lost: the two players stored as winner and loser (`how` says nobody won),
            # each losing by the frames needed.
            Decision.objects.create(
                competition=row, key=key, winner_id=f.first_id, loser_id=f.second_id,
                how=Decision.How.BOTH_OUT, at=now, loser_frames=frames_to_win(row.best_of),
            )  # fmt: skip
            _rr_go_on(row, now)
            return
        bracket = bracket_of(row)
        try:
            after = rules.both_out(bracket, rules.Key.parse(key))
        except IllegalRequest as exc:
            raise CompetitionError("not_flagged", exc.detail) from None
        Entrant.objects.filter(competition=row, member_id__in=(f.first_id, f.second_id)).update(
            withdrawn=now
        )
        Decision.objects.bulk_create(
            Decision(competition=row, key=str(k), winner_id=d.winner, how=d.how, at=now)
            for k, d in after.decisions[len(bracket.decisions) :]
        )
        _go_on(row, after, now)


def new_deadline(competition_id: int, key: str, play_by: datetime, by: User, now: datetime,
                 note: str = "") -> Fixture:  # fmt: skip
    """An organiser gives a flagged fixture a new deadline (`fixtures.service.reopen`): it is
    to be played by `play_by`, as a new match at the table (its old one ended unplayed when
    the deadline passed), its start agreed afresh."""
    _organiser(by)
    if play_by <= now:
        raise CompetitionError("bad_deadline", "a new deadline must be in the future")
    with transaction.atomic():
        _hold(competition_id, key)
        row = _locked(competition_id)
        pairing = _flagged(row, key)
        f = pairing.fixture
        users = {u.pk: u for u in User.objects.filter(pk__in=(f.first_id, f.second_id))}
        if key.startswith("g"):
            best_of = row.best_of
        else:
            best_of = rules.best_of(bracket_of(row), row.plan(), rules.Key.parse(key))
        match = _match(row, users[f.first_id], users[f.second_id], best_of)
        if not fixtures_service.reopen(f, match, play_by):
            raise CompetitionError("not_flagged", "this match is not waiting for an organiser")
        _log(row, Action.Kind.DEADLINE, by, now, key=key, note=note)
        return f


def record(
    competition_id: int, key: str, winner: User, by: User, now: datetime,
    frames: tuple[int, int] | None = None, note: str = "",
) -> Decision:  # fmt: skip
    """An organiser records the result of a match played away from the site (`How.RECORDED`):
    a match not decided, not begun at the table (still to be played, or flagged). It decides
    the match as a played one does, and is never rated; its fixture is called off, its match
    at the table ended unplayed. A round robin's needs the `frames` (the winner's: those
    needed to win; the loser's fewer)."""
    _organiser(by)
    with transaction.atomic():
        _hold(competition_id, key)
        row = _locked(competition_id)
        pairing = _pairing(row, key)
        f = pairing.fixture
        match = Match.objects.filter(pk=f.match_id).first() if f.match_id is not None else None
        to_play = f.status == Fixture.Status.TO_PLAY and (match is None or match.started is None)
        flagged = f.status == Fixture.Status.DECIDED and f.flagged and f.winner_id is None
        if not (to_play or flagged):
            raise CompetitionError("not_recordable", "this match is decided or begun at the table")
        if key.startswith("g"):
            need = frames_to_win(row.best_of)
            if frames is None or frames[0] != need or not 0 <= frames[1] < need:
                raise CompetitionError("bad_frames", f"the winner wins {need} frames")
        else:
            frames = None
        if to_play:
            fixtures_service.call_off_unplayed(f, now)
        decision = _decide(row, pairing, winner.pk, rules.How.RECORDED, now, frames)
        _log(row, Action.Kind.RECORD, by, now, member=winner.pk, key=key, note=note)
        return decision


def _tell_result(
    row: Competition, before: rules.Bracket, after: rules.Bracket, key: rules.Key, winner: int
) -> None:
    """A knockout match decided: its winner hears they are through while they play on, its
    loser that they are out once they are (a winners' match lost in a double elimination
    drops them into the losers' bracket: they hear of their next opponent instead), and the
    champion, from the match that finishes the competition."""
    loser = next((p for p in rules.match(before, key).players if p not in (None, winner)), None)
    ids = [winner] if loser is None else [winner, loser]
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    playing = rules.playing(after)
    if winner in playing:
        notices.tell(row, winner, "through", opponent=names.get(loser or 0))
    if loser is not None and loser not in playing:
        notices.tell(row, loser, "out", opponent=names.get(winner))
    champion = rules.champion(after) if rules.finished(after) else None
    if champion is not None:
        notices.tell(row, champion, "champion")


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
        if pairing.key.startswith("g"):
            return _rr_decided(row, pairing, fixture, match, now)
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
        _tell_result(row, bracket, after, key, winner)
        if how is rules.How.PLAYED and row.rated:
            ratings.rate(match, now, RatedKind.COMPETITION)
        return True


OWNER = CompetitionFixtures()
