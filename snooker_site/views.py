"""Pages made of more than one app's parts: the site puts them together, so that no app has to
call another's views (docs/architecture.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from accounts import limits
from club import positions
from club import service as club_service
from club.models import Position
from computer import service as computer_service
from computer.views import LEVEL_NAMES, ComputerForm, refusal
from game import service as game_service
from game.models import Match
from game.views import table_page
from members.views import match_record
from rules.errors import Refused
from rules.state import FrameState


@require_safe
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """`/match/<id>/`: the table while the match is played (or its word that it was abandoned),
    the members' record of it once it is finished (scores, breaks, the referee's log)."""
    # A competition's match says which competition and round (competitions/templatetags), read
    # in the same query.
    rows = Match.objects.select_related("player_a", "player_b", "fixture__pairing__competition")
    match = get_object_or_404(rows, pk=match_id)
    if match.status == Match.Status.FINISHED:
        return match_record(request, match)
    return table_page(request, match)


# One click to play the computer, as lichess offers: a visitor without an account is seated as
# a guest (as an invitation seats one) and sent to the table. It makes a user and a match, so
# visitors without an account start at most SNOOKER_COMPUTER_VISITOR_RATE of them per address
# (docs/security.md); a member, or a guest already seated, is held to the computer's own limit
# per player (COMPUTER["MATCHES_PER_HOUR"]).
VISITOR = gettext_lazy("Visitor")


@require_POST
def play_computer_now(request: HttpRequest) -> HttpResponse:
    """`/computer/now/` (POST `level`): a match of one frame against the computer at that
    level, from the lobby's three buttons."""
    level = request.POST.get("level", "")
    if level not in LEVEL_NAMES:
        return HttpResponseBadRequest("no such level")
    user = request.user
    if not user.is_authenticated or hasattr(user, "guest"):
        rate = settings.SNOOKER_COMPUTER_VISITOR_RATE
        wait = limits.throttled_by_address(request, "computer_visitor", rate)
        if wait is not None:
            return limits.too_many(request, "computer", wait)
    if not isinstance(user, User):
        user = club_service.visitor_guest(str(VISITOR))
        # The guest's identity lives in this browser's session only (as an invitation's).
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    try:
        match = computer_service.play_computer(user, level, 1)
    except computer_service.ComputerError as exc:
        if exc.code == "rate_limited":
            return limits.too_many(request, "computer", 3600)
        # Said on the computer's own page, whose form plays again once one has ended.
        form = ComputerForm({"level": level, "best_of": 1})
        form.is_valid()
        form.add_error(None, refusal(exc.code))
        return render(request, "computer/play.html", {"form": form}, status=409)
    return redirect("match", match_id=match.pk)


# "Play from here" (docs/coach.md): a finished match's replay position set up at a table of
# the member's own, to play alone or against the computer, the member to strike.
FROM_HERE = {"alone", *LEVEL_NAMES}


@require_POST
@login_required
def play_from_here(request: HttpRequest, match_id: int) -> HttpResponse:
    """`/match/<id>/replay/play-from/` (POST `version`, the replay's step about to be played,
    and `opponent`: `alone` or a computer's level): a table of one frame set up as that
    position stood. Only a finished match's positions (a live one's would be help in play)."""
    match = get_object_or_404(Match, pk=match_id)
    opponent = request.POST.get("opponent", "")
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = 0
    if match.status != Match.Status.FINISHED or opponent not in FROM_HERE or version < 2:
        return HttpResponseBadRequest("a finished match's step, and alone or a level")
    try:
        position = game_service.position_before(match.pk, version)
    except Refused as exc:
        return _from_here_refused(request, exc)
    return table_at(request, position, opponent)


def table_at(request: HttpRequest, position: FrameState, opponent: str) -> HttpResponse:
    """The member's new table of one frame set up at `position`: alone (a practice table) or
    against the computer at the level `opponent`, the member to strike. The one way to it,
    from a replay ("play from here") and from a saved position (the position editor)."""
    user = request.user
    assert isinstance(user, User)  # login_required let them in
    try:
        if opponent == "alone":
            table = club_service.practise(user, 1, position=position)
        else:
            table = computer_service.play_computer(user, opponent, 1, position=position)
    except Refused as exc:  # the game's, the club's or the computer's
        return _from_here_refused(request, exc)
    return redirect("match", match_id=table.pk)


def _from_here_refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    words = FROM_HERE_REFUSALS.get(exc.code, exc.message)
    context = {"code": exc.code, "message": words}
    return render(request, "club/refused.html", context, status=409)


@require_POST
@login_required
def play_position(request: HttpRequest, position_id: int) -> HttpResponse:
    """`/practice/position/<id>/play/` (POST `opponent`: `alone` or a computer's level): a
    saved position (the position editor's) at a table of the member's own, for any member."""
    position = get_object_or_404(Position, pk=position_id)
    opponent = request.POST.get("opponent", "")
    if opponent not in FROM_HERE:
        return HttpResponseBadRequest("alone or a level")
    return table_at(request, positions.frame_of(position), opponent)


FROM_HERE_REFUSALS = {
    "no_stroke_here": gettext_lazy("No stroke was due at that point of the frame."),
    "rate_limited": gettext_lazy("Too many tables this hour: try again later."),
    "members_only": gettext_lazy("Practice tables are for members."),
    "too_many_live": gettext_lazy("Finish a match against the computer before starting another."),
}
