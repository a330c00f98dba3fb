"""The ladders' pages, public like the club's records: the main ladder (`/ladder/`) and each
other (`/ladder/<slug>/`), and their history (`/ladder/history/`, per ladder too). A member
joins a ladder and challenges on it with POSTs (CSRF); the answer, the notices and the match
are the club's (club/views.py), and the result is applied when the match ends
(ladder/service.py).

Each page costs a fixed number of queries however long the ladder or its history: the rungs
with their members and ratings in one, the pending challenges in another.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from chat.service import moderates
from club import chat as club_chat
from club.lobby import is_guest
from game.models import Match
from ladder import service
from ladder.models import HistoryEntry, Ladder, LadderChallenge, Rung
from ladder.service import LadderError
from ladder.templatetags.ladder_tags import ladder_start
from ladder.text import error_text
from rules import ladder as rules

HISTORY_PER_PAGE = 50

_STATUS = {"not_found": 404, "no_such_match": 404, "bad_start": 400, "members_only": 403,
           "closed": 403, "rate_limited": 429, "too_many_waiting": 429}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Row:
    """One place on a ladder as its page shows it."""

    rung: Rung
    rating: float | None
    rd: float | None
    challengeable: bool  # the viewer may challenge this member now
    opponent: str | None  # whom they are engaged with, if anyone
    cooling_until: datetime | None = None  # the viewer and this member met lately: until when


def _ladder(slug: str | None) -> Ladder | None:
    if slug is None:
        return service.main_ladder()
    return get_object_or_404(Ladder, slug=slug)


def _refusal(request: HttpRequest, exc: LadderError) -> HttpResponse:
    context = {"message": error_text(exc.code), "code": exc.code}
    return render(request, "club/refused.html", context, status=_STATUS.get(exc.code, 409))


@require_safe
def ladder_page(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    ladder = _ladder(slug)
    if ladder is None:
        return render(request, "ladder/ladder.html", {"ladder": None, "others": []})
    context = _live(request, ladder, request.path)
    context["others"] = Ladder.objects.exclude(pk=ladder.pk).order_by("-main", "name")
    # Its members and the organisers write in its room (ladder/chat.py): the rungs are read.
    writer = context["mine"] is not None or moderates(request.user)
    context["chat_room"] = club_chat.page_context("ladder", ladder.pk, request.user, writer)
    return render(request, "ladder/ladder.html", context)


@require_safe
def ladder_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The part of a ladder's page that changes (`ladder/_live.html`), read again by the page
    when its socket says the ladder changed (club/protocol/server_out.py, `LadderChanged`)."""
    ladder = get_object_or_404(Ladder, slug=slug)
    page = reverse("ladder") if ladder.main else reverse("ladder_of", args=[ladder.slug])
    return render(request, "ladder/_live.html", _live(request, ladder, page))


@require_safe
def start_panel(request: HttpRequest, match_id: int) -> HttpResponse:
    """A ladder match's start-time panel (`ladder/_start.html`), read again by the match's
    page when its socket says the ladder changed (a time proposed or agreed): empty once the
    match is no longer one to agree a time for."""
    match = get_object_or_404(Match, pk=match_id)
    s = ladder_start(match, request.user)
    if s is None:
        return HttpResponse("")
    context = {"s": s, "page_path": reverse("match", args=[match.pk])}
    return render(request, "ladder/_start.html", context)


def _live(request: HttpRequest, ladder: Ladder, page_path: str) -> dict[str, Any]:
    """What `ladder/_live.html` shows, for the viewer; `page_path`: the page it is part of
    (where its forms come back to)."""
    rungs = list(
        Rung.objects.filter(ladder=ladder)
        .select_related("member", "member__rating")
        .order_by("position")
    )
    pending = list(
        LadderChallenge.objects.filter(
            ladder=ladder,
            status__in=(LadderChallenge.Status.WAITING, LadderChallenge.Status.ACCEPTED),
        )
        .select_related("challenger", "defender", "fixture")
        .order_by("created", "pk")
    )
    names = {r.member_id: r.member.get_username() for r in rungs}
    opponents: dict[int, str] = {}
    for c in pending:
        opponents[c.challenger_id] = c.defender.get_username()
        opponents[c.defender_id] = c.challenger.get_username()
    user = request.user
    me = user.pk if isinstance(user, User) and user.is_authenticated else None
    order = tuple(r.member_id for r in rungs)
    busy = {r.member_id for r in rungs if r.engaged_id is not None}
    cooling = service.cooling_down(ladder, me, timezone.now()) if me else {}
    may = set(rules.challengeable(order, me, busy, ladder.places_above, cooling)) if me else set()
    rows = []
    for rung in rungs:
        rating = getattr(rung.member, "rating", None)
        rows.append(
            Row(
                rung, rating.rating if rating else None, rating.rd if rating else None,
                rung.member_id in may, opponents.get(rung.member_id), cooling.get(rung.member_id),
            )
        )  # fmt: skip
    return {
        "ladder": ladder,
        "rows": rows,
        "pending": pending,
        "names": names,
        "mine": next((r for r in rungs if r.member_id == me), None),
        "may_join": me is not None and me not in order and ladder.open and not is_guest(user),
        "page_path": page_path,
    }


@require_safe
def history(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    ladder = get_object_or_404(Ladder, slug=slug) if slug is not None else None
    entries = HistoryEntry.objects.with_endings().select_related("ladder", "member", "other", "by")
    if ladder is not None:
        entries = entries.filter(ladder=ladder)
    page = Paginator(entries.order_by("-at", "-pk"), HISTORY_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "ladder/history.html",
        {"ladder": ladder, "page": page, "ladders": Ladder.objects.order_by("-main", "name")},
    )


def _member(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required let them in
    return user


@login_required
@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    ladder = get_object_or_404(Ladder, slug=slug)
    try:
        rung = service.join(ladder.pk, _member(request))
    except LadderError as exc:
        return _refusal(request, exc)
    messages.success(
        request,
        gettext("You joined %(ladder)s at position %(n)s.")
        % {"ladder": ladder.shown_name, "n": rung.position},
    )
    return redirect("ladder_of", slug=ladder.slug)


@login_required
@require_POST
def challenge(request: HttpRequest, slug: str) -> HttpResponse:
    """Challenge the member named `defender` on this ladder; to the club's challenge page
    (waiting, withdraw), from which the challenger goes to the table when it is accepted."""
    ladder = get_object_or_404(Ladder, slug=slug)
    name = str(request.POST.get("defender", ""))[:150]
    defender = get_object_or_404(get_user_model(), username=name, is_active=True)
    try:
        done = service.challenge(ladder.pk, _member(request), defender)
    except LadderError as exc:
        return _refusal(request, exc)
    assert done.challenge is not None
    return redirect("challenge", challenge_id=done.challenge.challenge_id)


class StartForm(forms.Form):
    """A start time: from the page's date-and-time field (in the site's time zone) or, to
    accept a proposal, the proposal's own ISO time."""

    at = forms.DateTimeField()


def _start_time(request: HttpRequest) -> datetime | None:
    form = StartForm(request.POST)
    return form.cleaned_data["at"] if form.is_valid() else None


def _back_to(request: HttpRequest, row: LadderChallenge) -> HttpResponse:
    """Where the form was (a safe, same-site `next`), else the match's page."""
    target = str(request.POST.get("next", ""))
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect("match", match_id=row.fixture.match_id)


@login_required
@require_POST
def propose_start(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """One of the two players proposes a start time for their ladder match."""
    at = _start_time(request)
    if at is None:
        return _refusal(request, LadderError("bad_start", "no start time given"))
    try:
        row = service.propose_start(challenge_id, _member(request), at)
    except LadderError as exc:
        return _refusal(request, exc)
    if row.fixture.start_at == at and row.fixture.proposed_start is None:
        messages.success(request, gettext("You both proposed that time: it is agreed."))
    else:
        messages.success(
            request, gettext("Proposed; the other player accepts it or proposes another.")
        )
    return _back_to(request, row)


@login_required
@require_POST
def accept_start(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """The other player accepts the proposed start time (the one their page showed)."""
    at = _start_time(request)
    if at is None:
        return _refusal(request, LadderError("bad_start", "no start time given"))
    try:
        row = service.accept_start(challenge_id, _member(request), at)
    except LadderError as exc:
        return _refusal(request, exc)
    messages.success(request, gettext("The start time is agreed."))
    return _back_to(request, row)
