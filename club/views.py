"""The club's pages: the lobby, challenges and their answers, invitations, practice, and the
end of a match (its result and the rematch offer).

Every change is a POST with Django's CSRF token, made by `club.service` in one transaction,
which announces it once committed (`club.service.announce_on_commit`): the parties at once,
the lobby soon.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import blocks, chat, drills, endings, lobby, positions, results, service
from club.forms import ChallengeForm, FormatForm, GuestForm
from club.models import Challenge, Position
from club.service import ClubError
from club.text import BALL_ON, error_text, handicap_refusal, position_refusal
from game import service as game_service
from game.models import Match
from game.protocol.constants import chat_constants, page_constants
from ratings import handicaps
from ratings import service as ratings_service
from rules import challenges as rules
from rules.challenges import Kind, Party, Status
from rules.handicap import OVERRIDE_RANGE
from rules.referee import new_frame

NOBODY = Party(0)  # a visitor who has not logged in: party to no challenge

# The HTTP status of each refusal (anything else: 409, the challenge is not in that state).
_STATUS = {"not_found": 404, "rate_limited": 429, "too_many_waiting": 429, "bad_name": 400,
           "member_name": 400, "members_only": 403, "not_for_you": 403, "not_yours": 403,
           "not_a_player": 403, "blocked": 403, "no_such_drill": 404, "expired": 410,
           "answered": 410}  # fmt: skip


def _member(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required let them in
    return user


def _refusal(request: HttpRequest, exc: ClubError) -> HttpResponse:
    context = {"message": error_text(exc.code), "code": exc.code}
    return render(request, "club/refused.html", context, status=_STATUS.get(exc.code, 409))


def _back(request: HttpRequest) -> HttpResponseRedirect:
    """Back where the form was (a safe, same-site `next`), else the lobby."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(reverse("index"))


# --- the lobby -----------------------------------------------------------------------------------
@require_safe
def lobby_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    now = timezone.now()
    context: dict[str, Any] = {
        "live": lobby.match_rows(lobby.live_matches()),
        "computer_live": lobby.computer_live(),
        "open": lobby.challenge_rows(lobby.open_challenges(now)),
        "incoming": [], "outgoing": [], "my_matches": [], "guest": False,
        # The lobby's chat room's limits and phrases (static/js/chatpanel.js), the match's.
        "chat_limits": chat_constants(),
    }  # fmt: skip
    if isinstance(user, User):
        mine = lobby.challenge_rows(lobby.my_challenges(user, now))
        name = user.get_username()
        context |= {
            "incoming": [c for c in mine if c.target == name],
            "outgoing": [c for c in mine if c.challenger == name],
            "my_matches": lobby.match_rows(lobby.my_matches(user)),
            "guest": lobby.is_guest(user),
            "challenge_form": ChallengeForm(user=user),
        }
    return render(request, "club/lobby.html", context)


@require_safe
def recent_matches(request: HttpRequest) -> HttpResponse:
    """The lobby's recent results alone: its script reads them again when it sees a match
    finish (static/js/lobby.js), so that they follow without a reload."""
    return render(request, "club/_recent_matches.html")


# --- making challenges ---------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    """Challenge a member (`?opponent=name`, as the directory and profiles link here), or
    anyone (no opponent: an open challenge)."""
    user = _member(request)
    form = ChallengeForm(
        request.POST or None, user=user, initial={"opponent": request.GET.get("opponent", "")}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        return _made(
            request, form, "club/challenge_new.html",
            lambda: service.challenge(
                user, data["opponent"], form.format(data["rated"]), handicap=data["handicap"]
            ),
        )  # fmt: skip
    return render(request, "club/challenge_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def invite_new(request: HttpRequest) -> HttpResponse:
    """A link for a visitor without an account: a friendly, never rated."""
    user = _member(request)
    form = FormatForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        fmt = form.format()
        return _made(request, form, "club/invite_new.html", lambda: service.invite(user, fmt))
    return render(request, "club/invite_new.html", {"form": form})


def _made(
    request: HttpRequest, form: Any, template: str, make: Callable[[], service.Done]
) -> HttpResponse:
    """Make a challenge (or an invitation) from a valid form: to its page, or the form again
    with the refusal."""
    try:
        done = make()
    except ClubError as exc:
        form.add_error(None, error_text(exc.code))
        return render(request, template, {"form": form}, status=_STATUS.get(exc.code, 409))
    assert done.challenge is not None
    return redirect("challenge", challenge_id=done.challenge.pk)


@require_safe
def new_match(request: HttpRequest) -> HttpResponseRedirect:
    """The old "New match" address: a match is now made by a challenge its opponent accepts."""
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(reverse("challenge_new") + (f"?{query}" if query else ""))


# --- a challenge ---------------------------------------------------------------------------------
@require_safe
def challenge_page(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """A challenge as its challenger (waiting, the invitation's link, withdraw), its target
    (accept, decline) or, for an open one, anyone (accept) sees it. Others' direct challenges,
    rematch offers and invitations are private: 404."""
    row = get_object_or_404(
        Challenge.objects.select_related("challenger", "target"), pk=challenge_id
    )
    user = request.user
    if not rules.visible_to(
        service.view(row), service.party(user) if user.is_authenticated else NOBODY
    ):
        raise Http404("no such challenge")
    if user.is_authenticated and user.pk == row.challenger_id:
        role = "challenger"
    elif user.is_authenticated and user.pk == row.target_id:
        role = "target"
    else:  # an open challenge
        role = "taker" if user.is_authenticated and not lobby.is_guest(user) else "visitor"
    waiting = row.status == Status.OPEN and row.expires > timezone.now()
    link = None
    if role == "challenger" and row.kind == Kind.INVITATION:
        link = request.build_absolute_uri(
            reverse("invitation", kwargs={"token": service.invitation_token(row)})
        )
    context = {"c": lobby.challenge_row(row), "role": role, "waiting": waiting, "link": link}
    return render(request, "club/challenge.html", context)


@login_required
@require_POST
def accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept; `rated=no` accepts a challenge proposed as rated as a friendly instead (a rated
    match needs both players' word; the toast's and the lobby's Accept give it); for a ladder
    challenge, `when=later` accepts it to be played at a time the two agree."""
    agreed = request.POST.get("rated", "yes") != "no"
    # A ladder challenge: "play now" (to the table) or "agree a time" (`when=later`: the
    # match waits for the time the two agree; its page is where they agree it).
    later = request.POST.get("when", "now") == "later"
    try:
        done = service.accept(_member(request), challenge_id, rated=agreed, later=later)
    except ClubError as exc:
        return _refusal(request, exc)
    assert done.match is not None
    return redirect("match", match_id=done.match.pk)


@login_required
@require_POST
def decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, service.decline, challenge_id)


@login_required
@require_POST
def withdraw(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, service.withdraw, challenge_id)


def _answer(
    request: HttpRequest, answer: Callable[[User, int], service.Done], challenge_id: int
) -> HttpResponse:
    """Decline or withdraw: the answer, told to those concerned, and back where one came from."""
    try:
        answer(_member(request), challenge_id)
    except ClubError as exc:
        return _refusal(request, exc)
    return _back(request)


# --- invitations ---------------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's link: a visitor plays under a guest name, a member as themselves. It
    works once; then (or once expired) it says so, with 410."""
    row = service.invitation_of(token)
    if row is None:
        raise Http404("no such invitation")
    user = request.user
    own = user.is_authenticated and user.pk == row.challenger_id
    used = row.status != Status.OPEN or row.expires <= timezone.now()
    form = GuestForm(request.POST or None) if not user.is_authenticated else None
    context: dict[str, Any] = {"c": lobby.challenge_row(row), "own": own, "form": form}
    if used:
        return render(request, "club/invitation.html", {**context, "used": True}, status=410)
    if request.method == "POST" and not own and (form is None or form.is_valid()):
        name = form.cleaned_data["name"] if form is not None else None
        try:
            done = service.accept_invitation(token, user, name)
        except ClubError as exc:
            status = _STATUS.get(exc.code, 409)
            if form is not None and exc.code in ("bad_name", "member_name"):
                form.add_error("name", error_text(exc.code))
                return render(request, "club/invitation.html", context, status=status)
            context |= {"used": status == 410, "error": error_text(exc.code)}
            return render(request, "club/invitation.html", context, status=status)
        if done.user is not None:
            # The guest's identity lives in this browser's session only.
            login(request, done.user, backend="django.contrib.auth.backends.ModelBackend")
        assert done.match is not None
        return redirect("match", match_id=done.match.pk)
    return render(request, "club/invitation.html", context)


# --- practice ------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def practice(request: HttpRequest) -> HttpResponse:
    """A practice table: the member plays both sides, unrated."""
    form = FormatForm(request.POST or None, initial={"best_of": 1})
    status = 200
    if request.method == "POST" and form.is_valid():
        fmt = form.format()
        try:
            match = service.practise(_member(request), fmt.best_of, fmt.shot_clock, fmt.guide)
        except ClubError as exc:
            form.add_error(None, error_text(exc.code))
            status = _STATUS.get(exc.code, 409)
        else:
            return redirect("match", match_id=match.pk)
    return render(request, "club/practice.html", {"form": form}, status=status)


@login_required
@require_safe
def drills_page(request: HttpRequest) -> HttpResponse:
    """The drills (docs/coach.md "Drills"): each with its rules and a Start button, the
    member's best and recent runs, the club's best per drill."""
    rows, recent, running = drills.page(_member(request))
    context = {"rows": rows, "recent": recent, "running": running, "names": drills.NAMES}
    return render(request, "club/drills.html", context)


@login_required
@require_POST
def drill_start(request: HttpRequest, key: str) -> HttpResponse:
    try:
        match = drills.start(_member(request), key)
    except ClubError as exc:
        return _refusal(request, exc)
    return redirect("match", match_id=match.pk)


# --- the end of a match --------------------------------------------------------------------------
@require_safe
def match_end(request: HttpRequest, match_id: int) -> HttpResponse:
    """The end-of-match panel (a fragment the match page loads when the match is over): the
    result, the frames, the breaks of 50 or more, the rematch offer, the way back."""
    match = get_object_or_404(Match.objects.select_related("player_a", "player_b"), pk=match_id)
    if match.status != Match.Status.FINISHED:
        return HttpResponse(status=204)
    context = {
        "match": match, "result": results.result_of(match),
        "breaks": results.breaks_of_fifty(match), **endings.end_actions(request, match),
        "drill_run": drills.run_of(match.pk) if match.practice else None,
        "drill_names": drills.NAMES,
    }  # fmt: skip
    return render(request, "club/_match_end.html", context)


@login_required
@require_POST
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        done = service.offer_rematch(_member(request), match_id)
    except ClubError as exc:
        return _refusal(request, exc)
    if done.match is not None:  # the other player had offered: accepted, to the new table
        return redirect("match", match_id=done.match.pk)
    return redirect("match", match_id=match_id)


# --- blocking ------------------------------------------------------------------------------------
@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    """Block a member (club/blocks.py), from their profile; back to it."""
    other = get_object_or_404(User, username=username, is_active=True)
    me = _member(request)
    service.block(me, other)
    chat.blocks_changed(me.pk)
    return redirect("player", username=other.get_username())


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username, is_active=True)
    me = _member(request)
    blocks.unblock(me, other)
    chat.blocks_changed(me.pk)
    return redirect("player", username=other.get_username())


# --- an organiser's handicap override ------------------------------------------------------------
class HandicapForm(forms.Form):
    rating = forms.FloatField(
        label=gettext_lazy("Rating for handicaps"),
        required=False,
        min_value=OVERRIDE_RANGE[0],
        max_value=OVERRIDE_RANGE[1],
        help_text=gettext_lazy("Empty: back to the club rating."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=handicaps.REASON_LENGTH, strip=True
    )


@login_required
@require_http_methods(["GET", "POST"])
def handicap(request: HttpRequest, username: str) -> HttpResponse:
    """An organiser sets (or takes away) the rating a member's starts are worked out from
    (ratings/handicaps.py); the page shows the club rating beside it and every change made."""
    me = _member(request)
    if not (me.is_staff and me.is_active):
        raise PermissionDenied("organisers only")
    member = get_object_or_404(User, username=username, is_active=True)
    form = HandicapForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            handicaps.override(member, me, form.cleaned_data["rating"], form.cleaned_data["reason"])
        except handicaps.HandicapError as exc:
            form.add_error(None, handicap_refusal(exc.code))
            status = 409
        else:
            return redirect("handicap", username=member.get_username())
    elif request.method == "POST":
        status = 400
    context = {
        "member": member,
        "form": form,
        "club_rating": ratings_service.rating_of(member.pk),
        "override": handicaps.override_of(member.pk),
        "changes": member.handicap_changes.select_related("by")[:50],
    }
    return render(request, "club/handicap.html", context, status=status)


# --- the position editor (docs/coach.md, "The position editor") --------------------------------
def _editor_refused(request: HttpRequest, code: str, status: int) -> HttpResponse:
    context = {"message": position_refusal(code), "code": code}
    return render(request, "club/refused.html", context, status=status)


@login_required
@require_safe
def position_editor(request: HttpRequest) -> HttpResponse:
    """`/practice/position/`: place the balls by hand, set what the referee needs, save the
    position with a name. It starts from the standard rack, or from `?from=<match>&version=<n>`
    (a finished match's replay position), or from `?position=<id>` (a saved one, as a copy)."""
    user = _member(request)
    if lobby.is_guest(user):
        return _editor_refused(request, "members_only", 403)
    start: dict[str, Any] | None = None
    name = ""
    if "from" in request.GET:
        try:
            match = Match.objects.get(pk=int(request.GET["from"]))
            version = int(request.GET.get("version", ""))
        except (ValueError, Match.DoesNotExist):
            raise Http404("no such match") from None
        if match.status != Match.Status.FINISHED:  # a live match's position is help in play
            raise Http404("not a finished match")
        try:
            start = game_service.position_before(match.pk, version).to_json()
        except game_service.ServiceError as exc:
            return _editor_refused(request, exc.code, 409)
    elif "position" in request.GET:
        try:
            saved = Position.objects.get(pk=int(request.GET["position"]))
        except (ValueError, Position.DoesNotExist):
            raise Http404("no such position") from None
        start, name = saved.state, saved.name
    data = {
        "rack": new_frame("A").to_json(),
        "start": start,
        "save": reverse("position_save"),
    }
    context = {
        "constants": page_constants(), "editor": data, "name": name,
        "mine": positions.mine(user), "max_positions": positions.MAX_POSITIONS,
        "max_name": positions.MAX_NAME, "max_score": positions.MAX_SCORE,
        "ball_on": list(BALL_ON.items()),
    }  # fmt: skip
    return render(request, "club/position_editor.html", context)


@login_required
@require_POST
def position_save(request: HttpRequest) -> JsonResponse:
    """`POST /practice/position/save/` (JSON `{"name", "position"}`): 201 with the saved
    position's `id` and `url`, or a refusal's `code` and `message` (400, 403 or 409)."""
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        body = None
    try:
        if not isinstance(body, dict):
            raise ClubError("bad_payload", "a JSON object of a name and a position")
        saved = positions.save(_member(request), body.get("name"), body.get("position"))
    except ClubError as exc:
        status = {"members_only": 403, "too_many_positions": 409}.get(exc.code, 400)
        answer = {"code": exc.code, "message": position_refusal(exc.code)}
        return JsonResponse(answer, status=status)
    url = reverse("position", args=[saved.pk])
    return JsonResponse({"id": saved.pk, "url": url, "name": saved.name}, status=201)


@login_required
@require_POST
def position_delete(request: HttpRequest, position_id: int) -> HttpResponse:
    try:
        positions.delete(_member(request), position_id)
    except ClubError as exc:
        return _editor_refused(request, exc.code, 404)
    return redirect("position_editor")


@require_safe
def position_page(request: HttpRequest, position_id: int) -> HttpResponse:
    """`/practice/position/<id>/`: a saved position, for anyone to see (its table drawn, who
    is to play, the scores); a member can play it alone or against the computer, or open a
    copy in the editor."""
    saved = get_object_or_404(Position.objects.select_related("owner"), pk=position_id)
    frame = positions.frame_of(saved)
    user = request.user
    member = isinstance(user, User) and not lobby.is_guest(user)
    context = {
        "position": saved, "frame": frame, "state": saved.state, "member": member,
        "constants": page_constants(), "on": BALL_ON[frame.on],
        "mine": member and saved.owner_id == user.pk,
    }  # fmt: skip
    return render(request, "club/position.html", context)
