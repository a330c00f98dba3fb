"""The competitions' pages, public like the club's records: the list (`/competitions/`) and
each competition (`/competitions/<id>/`: its entrants and, once drawn, a knockout's bracket a
round at a time (a double elimination's winners' bracket, losers' bracket and grand final),
or a round robin's tables, one a group, and its fixtures round by round).
An organiser opens one at `/competitions/new/`, closes its entry, adds and removes entrants
and draws it, and decides what its players could not (a flagged match: a walkover, both out,
a new deadline; a result played away recorded), each action in the audit log shown on the
page; a member enters and withdraws; all with POSTs (CSRF). The matches are played at the table
(`/match/<id>/`), and their results reach the bracket through the fixtures (service.py).

A competition's page costs a fixed number of queries however large its bracket or its groups:
the entrants with their members and ratings, the decisions, the pairings with their fixtures
and matches, the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import chat as club_chat
from competitions import service
from competitions.models import Action, Competition, Decision, Entrant, Pairing
from competitions.service import CompetitionError
from competitions.text import (
    criterion_name,
    error_text,
    group_name,
    round_name,
    rr_round_name,
    side_name,
)
from fixtures.models import Fixture
from ladder.models import Ladder
from members.models import Member
from rules import bracket as rules
from rules import standings

_STATUS = {
    "not_found": 404,
    "no_such_match": 404,
    "no_member": 404,
    "organisers_only": 403,
    "members_only": 403,
}


def _refusal(request: HttpRequest, exc: CompetitionError) -> HttpResponse:
    context = {"message": error_text(exc.code), "code": exc.code}
    return render(request, "club/refused.html", context, status=_STATUS.get(exc.code, 409))


def _member(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required let them in
    return user


@require_safe
def competitions_page(request: HttpRequest) -> HttpResponse:
    rows = list(Competition.objects.select_related("champion").order_by("-created", "-pk"))
    Status = Competition.Status
    context = {
        "open": [c for c in rows if c.status in (Status.OPEN, Status.CLOSED)],
        "in_play": [c for c in rows if c.status == Status.IN_PLAY],
        "finished": [c for c in rows if c.status == Status.FINISHED],
        "may_organise": service.may_organise(request.user),
        # The news by e-mail, on or off: offered when the club sends mail (competitions/mail.py).
        "mail": _mail_choice(request) if settings.EMAIL_HOST else None,
    }
    return render(request, "competitions/list.html", context)


def _mail_choice(request: HttpRequest) -> bool | None:
    user = request.user
    if not user.is_authenticated:
        return None
    chosen = Member.objects.filter(user=user).values_list("competition_mail", flat=True)
    return next(iter(chosen), True)


@login_required
@require_POST
def mail_choice(request: HttpRequest) -> HttpResponse:
    """A member's competitions' news by e-mail too, or on the site only."""
    on = request.POST.get("mail") == "on"
    Member.objects.filter(user=_member(request)).update(competition_mail=on)
    messages.success(
        request,
        gettext("Your competitions' news will come by e-mail too.")
        if on
        else gettext("Your competitions' news will come on the site only."),
    )
    return redirect("competitions")


@dataclass(frozen=True, slots=True)
class Shown:
    """A bracket match as the page shows it."""

    key: str
    players: tuple[str | None, str | None]
    # waiting, agreed, live, finished, recorded, walkover, both_lost, flagged, bye (the page's
    # fixed words)
    state: str
    winner: str | None
    match_id: int | None
    play_by: Any
    start_at: Any
    fixture_id: int | None = None
    mine: bool = False  # the viewer plays it, and it is to be played: they agree its start
    proposed_start: Any = None
    proposed_by: str | None = None
    can_accept: bool = False
    group: str = ""  # a round robin's group ("Group A"; "" with one group)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    name: str
    best_of: int
    matches: tuple[Shown, ...]
    testid: str  # `round-<n>`; a group stage's `group-round-<n>`, the losers' `losers-round-<n>`


@dataclass(frozen=True, slots=True)
class Section:
    """A part of the bracket with a heading of its own: a knockout's one bracket, or a double
    elimination's winners' bracket, losers' bracket and grand final."""

    testid: str
    name: str
    rounds: tuple[Round, ...]


# Each side of a bracket on the page: its section's test id and its rounds' test ids (the
# third-place match is a round of the knockout's bracket, after the final).
_SIDES = {
    rules.Side.WINNERS: ("bracket", "round-{n}"),
    rules.Side.THIRD: ("bracket", "third-place"),
    rules.Side.LOSERS: ("losers-bracket", "losers-round-{n}"),
    rules.Side.FINAL: ("grand-final", "grand-final-{n}"),
}


# A fixture's match is read for whether it has begun: not its state at the table (the frames,
# the balls: JSON to parse, a fixture each, on a page of hundreds).
_MATCH_STATE = ("fixture__match__state",)


def _state(m: rules.Match, fixture: Fixture | None) -> str:
    if m.decision is not None:
        if m.decision.how in (rules.How.BYE, rules.How.EMPTY):
            return "bye"
        if m.decision.how is rules.How.RECORDED:
            return "recorded"  # played away, recorded by an organiser
        # A walkover, or both out (no winner: the page says nobody goes through).
        return "finished" if m.decision.how is rules.How.PLAYED else "walkover"
    if fixture is None:
        return "waiting"
    if fixture.flagged or fixture.status == Fixture.Status.DECIDED:
        return "flagged"
    if fixture.match is not None and fixture.match.started is not None:
        return "live"
    return "agreed" if fixture.start_at is not None else "waiting"


def _shown(m: rules.Match) -> bool:
    """Whether the page shows a match: every one but the grand final's reset until it is to be
    played (not when the winners' champion won the grand final, or nobody is left for it)."""
    if m.key != rules.RESET:
        return True
    if m.decision is None:
        return m.state is rules.State.READY
    return m.decision.how not in (rules.How.NOT_NEEDED, rules.How.BYE, rules.How.EMPTY)


def _sections(
    row: Competition, bracket: rules.Bracket, names: dict[int, str], me: int | None
) -> list[Section]:
    """The bracket's matches a round at a time, each side in its section (`_SIDES`)."""
    pairings = {
        p.key: p.fixture
        for p in Pairing.objects.filter(competition=row)
        .exclude(key__startswith="g")
        .select_related("fixture__match")
        .defer(*_MATCH_STATE)
    }
    rounds: dict[tuple[rules.Side, int], list[Shown]] = {}
    for m in rules.matches(bracket).values():
        if not _shown(m):
            continue
        fixture = pairings.get(str(m.key))
        a, b = (names.get(p) if p is not None else None for p in m.players)
        winner = names.get(m.winner) if m.winner is not None else None
        state = _state(m, fixture)
        mine = (
            fixture is not None and me in (fixture.first_id, fixture.second_id)
            and fixture.status == Fixture.Status.TO_PLAY and state in ("waiting", "agreed")
        )  # fmt: skip
        proposer = fixture.proposed_by_id if fixture else None
        rounds.setdefault((m.key.side, m.key.round), []).append(
            Shown(
                str(m.key), (a, b), state, winner,
                fixture.match_id if fixture else None,
                fixture.play_by if fixture else None, fixture.start_at if fixture else None,
                fixture.pk if fixture else None, mine,
                fixture.proposed_start if fixture else None,
                names.get(proposer) if proposer is not None else None,
                mine and proposer is not None and proposer != me,
            )
        )  # fmt: skip
    plan = row.plan()
    sections: dict[str, Section] = {}
    for (side, n), shown in rounds.items():  # in the shape's order: the sides' in turn
        key = rules.Key(side, n, 0)
        testid, round_id = _SIDES[side]
        section = sections.get(testid) or Section(testid, side_name(bracket, side), ())
        made = Round(
            n, round_name(bracket, key), rules.best_of(bracket, plan, key), tuple(shown),
            round_id.format(n=n),
        )  # fmt: skip
        sections[testid] = replace(section, rounds=(*section.rounds, made))
    return list(sections.values())


@dataclass(frozen=True, slots=True)
class Standing:
    """A row of a round robin's table."""

    place: int
    name: str
    tally: standings.Tally
    withdrawn: bool
    decided_by: str  # what puts this row above the next ("" for the last, or level on all)


@dataclass(frozen=True, slots=True)
class Group:
    number: int
    name: str
    rows: tuple[Standing, ...]


def _rr_state(decision: Decision | None, fixture: Fixture) -> str:
    if decision is not None:
        if decision.how == Decision.How.BOTH_OUT:
            return "both_lost"  # an organiser put both out: a walkover both lose
        if decision.how == Decision.How.RECORDED:
            return "recorded"
        return "finished" if decision.how == Decision.How.PLAYED else "walkover"
    if fixture.flagged or fixture.status != Fixture.Status.TO_PLAY:
        return "flagged"
    if fixture.match is not None and fixture.match.started is not None:
        return "live"
    return "agreed" if fixture.start_at is not None else "waiting"


def _round_robin(
    row: Competition, entrants: list[Entrant], names: dict[int, str], me: int | None
) -> dict[str, Any]:
    """A round robin's tables (one a group, `rules.standings` of the decisions) and fixtures
    round by round (`round-<n>`, every group's matches of that round)."""
    decisions = list(Decision.objects.filter(competition=row).order_by("pk"))
    by_key = {d.key: d for d in decisions}
    tables = service.tables_of(entrants, decisions)
    withdrawn = {e.member_id for e in entrants if e.withdrawn is not None}
    several = len(tables) > 1
    groups = []
    for number, table in enumerate(tables, start=1):
        rows = tuple(
            Standing(
                r.place, names[r.tally.member], r.tally, r.tally.member in withdrawn,
                criterion_name(r.decided_by) if r.decided_by and r.decided_by
                is not standings.Criterion.MATCHES_WON else "",
            )
            for r in standings.standings(table)
        )  # fmt: skip
        groups.append(Group(number, group_name(number), rows))
    rounds: dict[int, list[Shown]] = {}
    pairings = Pairing.objects.filter(competition=row, key__startswith="g")
    group_names: dict[int, str] = {}
    for p in pairings.select_related("fixture__match").defer(*_MATCH_STATE).order_by("pk"):
        fixture, decision = p.fixture, by_key.get(p.key)
        group, number, _ = service.parse_rr_key(p.key)
        state = _rr_state(decision, fixture)
        mine = (
            me in (fixture.first_id, fixture.second_id)
            and fixture.status == Fixture.Status.TO_PLAY and state in ("waiting", "agreed")
        )  # fmt: skip
        proposer = fixture.proposed_by_id
        rounds.setdefault(number, []).append(
            Shown(
                p.key, (names.get(fixture.first_id), names.get(fixture.second_id)), state,
                names.get(decision.winner_id)
                if decision and decision.winner_id and decision.how != Decision.How.BOTH_OUT
                else None,
                fixture.match_id,
                fixture.play_by, fixture.start_at, fixture.pk, mine, fixture.proposed_start,
                names.get(proposer) if proposer is not None else None,
                mine and proposer is not None and proposer != me,
                group_names.setdefault(group, group_name(group)) if several else "",
            )
        )  # fmt: skip
    # Before a knockout, the groups' rounds are `group-round-<n>`; the bracket's `round-<n>`.
    prefix = "group-" if row.group_stage else ""
    shown = [
        Round(n, rr_round_name(n), row.best_of, tuple(matches), f"{prefix}round-{n}")
        for n, matches in sorted(rounds.items())
    ]
    winners = []
    if row.status == Competition.Status.FINISHED and several and not row.group_stage:
        winners = [(g.name, g.rows[0].name) for g in groups]
    return {
        "groups": groups,
        "group_rounds": shown,
        "criteria": [criterion_name(c) for c in standings.CRITERIA],
        "group_winners": winners,
    }


@require_safe
def competition_page(request: HttpRequest, competition_id: int) -> HttpResponse:
    context = _live(request, competition_id)
    if context["may_organise"] and not context["drawn"]:
        # The organisers' seeding form before the draw (outside the live part): the ladders
        # it may seed by.
        context["seeding_choices"] = Competition.Seeding.choices
        context["ladders"] = list(Ladder.objects.all())
    # Its chat room (docs/chat.md): on the page, never in the part read again on a change.
    context["chat_room"] = club_chat.page_context(
        "competition", context["competition"].pk, request.user
    )
    return render(request, "competitions/competition.html", context)


@require_safe
def competition_live(request: HttpRequest, competition_id: int) -> HttpResponse:
    """The part of a competition's page that changes (`competitions/_live.html`: all of it
    but the page's frame), read again by the page when its socket says the competition
    changed (club/protocol/server_out.py, `CompetitionChanged`)."""
    return render(request, "competitions/_live.html", _live(request, competition_id))


def _live(request: HttpRequest, competition_id: int) -> dict[str, Any]:
    """What a competition's page shows, for the viewer."""
    row = get_object_or_404(
        Competition.objects.select_related("champion", "ladder", "seeding_ladder"),
        pk=competition_id,
    )
    entrants = list(
        Entrant.objects.filter(competition=row)
        .select_related("member", "member__rating")
        .order_by("seed", "entered", "pk")
    )
    names = {e.member_id: e.member.get_username() for e in entrants}
    user = request.user
    me = user.pk if isinstance(user, User) and user.is_authenticated else None
    entry_open = row.status == Competition.Status.OPEN and timezone.now() < row.entry_deadline
    bracket = service.bracket_of(row) if row.slots is not None else None
    # Those still in play, whom a withdrawal (their own, or an organiser's) concerns: a round
    # robin's entrants not withdrawn; once a knockout is drawn, those not yet out of it.
    playing: frozenset[int] = frozenset()
    if row.status == Competition.Status.IN_PLAY:
        playing = (
            rules.playing(bracket) if bracket is not None
            else frozenset(e.member_id for e in entrants if e.withdrawn is None)
        )  # fmt: skip
    second = third = None  # shown with the champion once finished
    if bracket is not None and row.status == Competition.Status.FINISHED:
        _, second, third = rules.placings(bracket)
    context: dict[str, Any] = {
        "competition": row,
        "entrants": entrants,
        "entered": me in names,
        "entry_open": entry_open,
        "may_organise": service.may_organise(user),
        "sections": _sections(row, bracket, names, me) if bracket is not None else [],
        "earliest": timezone.localtime(),
        "drawn": row.drawn is not None,
        "playing": playing,
        "may_withdraw": me in playing,
        "runner_up": names.get(second) if second is not None else None,
        "third": names.get(third) if third is not None else None,
        "full": row.max_entrants is not None and len(entrants) >= row.max_entrants,
        # The audit log: the club's members read it (how their competition was run is theirs
        # to know); a visitor does not.
        "actions": (
            list(
                Action.objects.filter(competition=row).select_related("by", "member", "ladder")
            )
            if me is not None else []
        ),
    }  # fmt: skip
    if row.round_robin and row.drawn is not None:
        context.update(_round_robin(row, entrants, names, me))
    return context


class NewForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    name_ru = forms.CharField(label=gettext_lazy("Name in Russian"), max_length=80, required=False)
    format = forms.ChoiceField(
        label=gettext_lazy("Format"), choices=Competition.Format.choices, initial="knockout"
    )
    best_of = forms.IntegerField(label=gettext_lazy("Best of (each round)"), initial=3, min_value=1)
    groups = forms.IntegerField(
        label=gettext_lazy("Round robin: groups"), initial=1, min_value=1, max_value=26,
        required=False,
    )  # fmt: skip
    advance = forms.IntegerField(
        label=gettext_lazy("Groups, then a knockout: through from each group"), initial=2,
        min_value=1, max_value=16, required=False,
    )  # fmt: skip
    cycles = forms.TypedChoiceField(
        label=gettext_lazy("Round robin: played"), coerce=int, initial=1, required=False,
        choices=[(1, gettext_lazy("once round")), (2, gettext_lazy("twice round"))],
    )  # fmt: skip
    best_of_semi_finals = forms.IntegerField(
        label=gettext_lazy("Semi-finals: best of"), required=False, min_value=1,
        help_text=gettext_lazy(
            "And the third-place match; in a double elimination, the winners' and losers' finals."
        ),
    )  # fmt: skip
    best_of_final = forms.IntegerField(
        label=gettext_lazy("Final: best of"), required=False, min_value=1,
        help_text=gettext_lazy("In a double elimination, the grand final and its reset."),
    )  # fmt: skip
    third_place = forms.BooleanField(
        label=gettext_lazy("Third-place match"), required=False, initial=False,
        help_text=gettext_lazy("A knockout: the semi-finals' losers play for third place."),
    )  # fmt: skip
    reset = forms.BooleanField(
        label=gettext_lazy("Grand final reset"), required=False, initial=True,
        help_text=gettext_lazy(
            "A double elimination: if the losers' bracket's champion wins the grand final, both "
            "have lost once and a second grand final decides."
        ),
    )  # fmt: skip
    max_entrants = forms.IntegerField(
        label=gettext_lazy("Most entrants"), required=False, min_value=2, max_value=1024,
        help_text=gettext_lazy("Empty: no limit."),
    )  # fmt: skip
    ladder = forms.ModelChoiceField(
        label=gettext_lazy("Who may enter"), queryset=Ladder.objects.all(), required=False,
        empty_label=gettext_lazy("Any member"),
        help_text=gettext_lazy("Or only the members of a ladder."),
    )  # fmt: skip
    seeding = forms.ChoiceField(
        label=gettext_lazy("Seeding"), choices=Competition.Seeding.choices, initial="rating",
        required=False,
        help_text=gettext_lazy(
            "How the draw ranks the entrants. By hand: you number them on the competition's "
            "page before the draw."
        ),
    )  # fmt: skip
    seeding_ladder = forms.ModelChoiceField(
        label=gettext_lazy("Ladder for seeding"), queryset=Ladder.objects.all(), required=False,
        empty_label=gettext_lazy("The ladder of who may enter"),
        help_text=gettext_lazy(
            "By ladder position: those not on the ladder come after those on it, by rating."
        ),
    )  # fmt: skip
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=True)
    handicap = forms.BooleanField(
        label=gettext_lazy("Handicapped"),
        required=False,
        help_text=gettext_lazy(
            "Each match gives the weaker member a start from the two ratings at the draw."
        ),
    )
    entry_deadline = forms.DateTimeField(
        label=gettext_lazy("Entry closes"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    play_days = forms.IntegerField(
        label=gettext_lazy("Days to play each match"), initial=7, min_value=1, max_value=60
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for field in ("best_of", "best_of_semi_finals", "best_of_final"):
            n = data.get(field)
            if n is not None and n % 2 == 0:
                self.add_error(field, gettext("A match is the best of an odd number of frames."))
        return data


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_competition(request: HttpRequest) -> HttpResponse:
    if not service.may_organise(request.user):
        return _refusal(request, CompetitionError("organisers_only", "organisers only"))
    form = NewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        plan = rules.BestOf(
            data["best_of"], semi_finals=data["best_of_semi_finals"], final=data["best_of_final"]
        )
        try:
            row = service.open_competition(
                _member(request), data["name"], timezone.now(), data["entry_deadline"],
                name_ru=data["name_ru"], best_of=plan, rated=data["rated"],
                play_time=timedelta(days=data["play_days"]), format=data["format"],
                groups=data["groups"] or 1, cycles=data["cycles"] or 1,
                advance=data["advance"] or 2, handicap=data["handicap"],
                third_place=data["third_place"], reset=data["reset"],
                max_entrants=data["max_entrants"],
                ladder_id=data["ladder"].pk if data["ladder"] else None,
                seeding=data["seeding"] or Competition.Seeding.RATING,
                seeding_ladder_id=data["seeding_ladder"].pk if data["seeding_ladder"] else None,
            )  # fmt: skip
        except CompetitionError as exc:
            field = "seeding" if exc.code == "no_seeding_ladder" else "entry_deadline"
            form.add_error(field, error_text(exc.code))
        else:
            return redirect("competition", competition_id=row.pk)
    return render(request, "competitions/new.html", {"form": form})


def _note(request: HttpRequest) -> str:
    """The organiser's note for the audit log."""
    return str(request.POST.get("note", "")).strip()[:200]


def _by_organiser(request: HttpRequest) -> HttpResponse | None:
    """An organiser's POST: anyone else is refused before anything is looked up."""
    if service.may_organise(request.user):
        return None
    return _refusal(request, CompetitionError("organisers_only", "organisers only"))


def _act(request: HttpRequest, competition_id: int, done: str, call: Any) -> HttpResponse:
    try:
        call()
    except CompetitionError as exc:
        return _refusal(request, exc)
    messages.success(request, done)
    return redirect("competition", competition_id=competition_id)


@login_required
@require_POST
def enter(request: HttpRequest, competition_id: int) -> HttpResponse:
    member = _member(request)
    return _act(
        request, competition_id, gettext("You have entered."),
        lambda: service.enter(competition_id, member, timezone.now()),
    )  # fmt: skip


@login_required
@require_POST
def withdraw(request: HttpRequest, competition_id: int) -> HttpResponse:
    """A member withdraws (before the draw, their entry; in play, from play); an organiser
    withdraws or disqualifies a member in play (`member`: their name)."""
    by = _member(request)
    name = str(request.POST.get("member", ""))[:150]
    member = get_object_or_404(User, username=name) if name else by
    done = gettext("You have withdrawn.") if member == by else gettext("The member is withdrawn.")
    return _act(
        request, competition_id, done,
        lambda: service.withdraw(competition_id, member, timezone.now(), by, _note(request)),
    )  # fmt: skip


@login_required
@require_POST
def close_entry(request: HttpRequest, competition_id: int) -> HttpResponse:
    member = _member(request)
    return _act(
        request, competition_id, gettext("Entry is closed."),
        lambda: service.close_entry(competition_id, member, timezone.now(), note=_note(request)),
    )  # fmt: skip


@login_required
@require_POST
def draw(request: HttpRequest, competition_id: int) -> HttpResponse:
    member = _member(request)
    return _act(
        request, competition_id, gettext("The draw is made."),
        lambda: service.draw(competition_id, member, timezone.now(), note=_note(request)),
    )  # fmt: skip


@login_required
@require_POST
def seeding(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser chooses how the draw seeds (`method`: rating, ladder, hand; `ladder`: a
    ladder's id, for seeding by its positions) and, for seeding by hand, numbers the entrants
    (`seed-<member id>`: 1 the top; left empty, after the numbered, by rating)."""
    if refused := _by_organiser(request):
        return refused
    by = _member(request)
    method = str(request.POST.get("method", ""))[:8]
    ladder = _number(request.POST.get("ladder", ""))
    numbers: dict[int, int | None] = {}
    for field, value in request.POST.items():
        if field.startswith("seed-") and (member := _number(field.removeprefix("seed-"))):
            number = _number(value)
            if number is None and str(value).strip():
                return _refusal(request, CompetitionError("bad_seed_number", "not a number"))
            numbers[member] = number
    return _act(
        request, competition_id, gettext("The seeding is saved."),
        lambda: service.set_seeding(
            competition_id, by, timezone.now(), method, ladder_id=ladder,
            numbers=numbers if any(f.startswith("seed-") for f in request.POST) else None,
            note=_note(request),
        ),
    )  # fmt: skip


def _number(value: object) -> int | None:
    """A whole number from a form's field; none if empty or not one."""
    text = str(value).strip()
    return int(text) if text.isdigit() and len(text) < 6 else None


@login_required
@require_POST
def award(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser gives a flagged match to one of its players by a walkover."""
    if refused := _by_organiser(request):
        return refused
    member = _member(request)
    key = str(request.POST.get("key", ""))[:16]
    name = str(request.POST.get("winner", ""))[:150]
    winner = get_object_or_404(User, username=name)
    return _act(
        request, competition_id, gettext("The walkover is recorded."),
        lambda: service.award(competition_id, key, winner, member, timezone.now(), _note(request)),
    )  # fmt: skip


def _named(request: HttpRequest, field: str) -> User | None:
    name = str(request.POST.get(field, "")).strip()[:150]
    return User.objects.filter(username=name).first() if name else None


@login_required
@require_POST
def add_entrant(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser enters a member by name before the draw."""
    if refused := _by_organiser(request):
        return refused
    by, member = _member(request), _named(request, "member")
    if member is None:
        return _refusal(request, CompetitionError("no_member", "there is no such member"))
    return _act(
        request, competition_id, gettext("The member is entered."),
        lambda: service.add_entrant(competition_id, member, by, timezone.now(), _note(request)),
    )  # fmt: skip


@login_required
@require_POST
def remove_entrant(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser takes an entrant out before the draw."""
    if refused := _by_organiser(request):
        return refused
    by, member = _member(request), _named(request, "member")
    if member is None:
        return _refusal(request, CompetitionError("no_member", "there is no such member"))
    return _act(
        request, competition_id, gettext("The entrant is removed."),
        lambda: service.remove_entrant(competition_id, member, by, timezone.now(), _note(request)),
    )  # fmt: skip


def _key(request: HttpRequest) -> str:
    return str(request.POST.get("key", ""))[:16]


@login_required
@require_POST
def both_out(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser puts both players of a flagged match out."""
    if refused := _by_organiser(request):
        return refused
    by, key = _member(request), _key(request)
    return _act(
        request, competition_id, gettext("Both players are out."),
        lambda: service.both_out(competition_id, key, by, timezone.now(), _note(request)),
    )  # fmt: skip


class DeadlineForm(forms.Form):
    play_by = forms.DateTimeField()  # the page's date-and-time field, in the site's time zone


@login_required
@require_POST
def new_deadline(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser gives a flagged match a new deadline: it is to be played again."""
    if refused := _by_organiser(request):
        return refused
    form = DeadlineForm(request.POST)
    if not form.is_valid():
        return _refusal(request, CompetitionError("bad_deadline", "no deadline given"))
    by, key, play_by = _member(request), _key(request), form.cleaned_data["play_by"]
    return _act(
        request, competition_id, gettext("The match has a new deadline."),
        lambda: service.new_deadline(
            competition_id, key, play_by, by, timezone.now(), _note(request)
        ),
    )  # fmt: skip


class RecordForm(forms.Form):
    winner_frames = forms.IntegerField(min_value=0, max_value=99, required=False)
    loser_frames = forms.IntegerField(min_value=0, max_value=99, required=False)


@login_required
@require_POST
def record(request: HttpRequest, competition_id: int) -> HttpResponse:
    """An organiser records a match played away from the site: its winner (and a round
    robin's frames)."""
    if refused := _by_organiser(request):
        return refused
    by, key, winner = _member(request), _key(request), _named(request, "winner")
    form = RecordForm(request.POST)
    if winner is None or not form.is_valid():
        return _refusal(request, CompetitionError("not_in_match", "no winner given"))
    won, lost = form.cleaned_data["winner_frames"], form.cleaned_data["loser_frames"]
    frames = (won, lost) if won is not None and lost is not None else None
    return _act(
        request, competition_id, gettext("The result is recorded."),
        lambda: service.record(
            competition_id, key, winner, by, timezone.now(), frames, _note(request)
        ),
    )  # fmt: skip


class StartForm(forms.Form):
    """A start time: from the page's date-and-time field (in the site's time zone) or, to
    accept a proposal, the proposal's own ISO time."""

    at = forms.DateTimeField()


def _start(
    request: HttpRequest, competition_id: int, fixture_id: int, accept: bool
) -> HttpResponse:
    form = StartForm(request.POST)
    if not form.is_valid():
        return _refusal(request, CompetitionError("bad_start", "no start time given"))
    member, at = _member(request), form.cleaned_data["at"]
    call = service.accept_start if accept else service.propose_start
    done = (
        gettext("The start time is agreed.")
        if accept
        else gettext("Proposed; the other player accepts it or proposes another.")
    )
    return _act(request, competition_id, done, lambda: call(fixture_id, member, at, timezone.now()))


@login_required
@require_POST
def propose_start(request: HttpRequest, competition_id: int, fixture_id: int) -> HttpResponse:
    """One of the two players proposes a start time for their competition match."""
    return _start(request, competition_id, fixture_id, accept=False)


@login_required
@require_POST
def accept_start(request: HttpRequest, competition_id: int, fixture_id: int) -> HttpResponse:
    """The other player accepts the proposed start time (the one their page showed)."""
    return _start(request, competition_id, fixture_id, accept=True)
