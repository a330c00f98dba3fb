"""The page to play the computer: the level and the format, then to the table."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxValueValidator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from accounts import limits
from computer import analysis, driver, fairplay, lanes, service, signal, thinking
from computer.models import Analysis, Computer
from game.models import Match
from rules.challenges import BEST_OF
from rules.match import match_from_json
from rules.state import Player

LEVEL_NAMES = {
    Computer.Level.NOVICE: gettext_lazy("Novice"),
    Computer.Level.CLUB: gettext_lazy("Club player"),
    Computer.Level.PRO: gettext_lazy("Professional"),
}
ERRORS = {
    "members_only": gettext_lazy("Only members play the computer."),
    "rate_limited": gettext_lazy("Too many matches against the computer this hour."),
    "bad_level": gettext_lazy("Choose a level."),
}


def refusal(code: str) -> str:
    """A refused match against the computer in the member's words (this page's and the
    lobby's one-click buttons')."""
    if code == "too_many_live":
        live = settings.COMPUTER["LIVE"]
        return ngettext(
            "You already have %(n)s match against the computer being played: finish or concede"
            " it first.",
            "You already have %(n)s matches against the computer being played: finish or"
            " concede one of them first.",
            live,
        ) % {"n": live}
    return str(ERRORS.get(code, code))


class ComputerForm(forms.Form):
    level = forms.ChoiceField(label=gettext_lazy("Level"), initial=Computer.Level.CLUB)
    best_of = forms.TypedChoiceField(label=gettext_lazy("Frames"), coerce=int, initial=1)
    # A handicap start (RULES.md §10, docs/handicaps.md): points on the board before every
    # frame's first stroke, for the member or for the computer.
    start = forms.IntegerField(
        label=gettext_lazy("Handicap start (points)"), min_value=0, initial=0, required=False
    )
    receiver = forms.ChoiceField(
        label=gettext_lazy("Who receives it"),
        choices=[("me", gettext_lazy("Me")), ("computer", gettext_lazy("The computer"))],
        initial="me",
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        level: Any = self.fields["level"]
        level.choices = list(LEVEL_NAMES.items())
        best_of: Any = self.fields["best_of"]
        best_of.choices = [
            (n, ngettext("Best of %(n)s", "Best of %(n)s", n) % {"n": n}) for n in BEST_OF
        ]
        start: Any = self.fields["start"]
        start.max_value = settings.CLUB["HANDICAP_CAP"]
        start.validators.append(MaxValueValidator(start.max_value))
        start.widget.attrs.update(max=start.max_value, inputmode="numeric")

    def handicap(self) -> tuple[int, int]:
        """The start (A, B): the member sits in A, the computer in B."""
        points = self.cleaned_data.get("start") or 0
        return (0, points) if self.cleaned_data.get("receiver") == "computer" else (points, 0)


@login_required
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """Play the computer: never rated, the result on the member's profile like a practice."""
    form = ComputerForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        user = request.user
        assert isinstance(user, User)
        try:
            match = service.play_computer(
                user, form.cleaned_data["level"], form.cleaned_data["best_of"], form.handicap()
            )
        except service.ComputerError as exc:
            form.add_error(None, refusal(exc.code))
            status = 429 if exc.code == "rate_limited" else 409
        else:
            return redirect("match", match_id=match.pk)
    return render(request, "computer/play.html", {"form": form}, status=status)


# --- the hint on a practice table ----------------------------------------------------------------
def _refused(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


# No engine help while it matters (computer/fairplay.py).
NO_ENGINE = {
    fairplay.PLAYING: gettext_lazy(
        "No hints while you are playing a match: they come back when it is over."
    ),
    fairplay.LIVE_POSITION: gettext_lazy(
        "No hint for this position: it is being played in a live match."
    ),
}


# The stored match, the seat to play, its version, and the member asking.
Position = tuple[dict[str, Any], Player, int, int]


def _position(request: HttpRequest, match_id: int) -> Position | JsonResponse:
    """The practice table's stored match, the seat to play and the version, if this member
    may ask for a hint now; else the refusal. Counts the request against the member's rate."""
    user = request.user
    if not user.is_authenticated:
        return _refused("not_logged_in", "log in to ask for a hint", 403)
    rate = f"{settings.COMPUTER['HINTS_PER_MINUTE']}/m"
    wait = limits.throttled(request, "computer_hint", rate, lambda _g, r: str(r.user.pk))
    if wait is not None:
        return _refused("rate_limited", f"too many hints: try again in {wait} s", 429)
    row = Match.objects.filter(pk=match_id).first()
    if row is None:
        return _refused("not_found", "there is no such match", 404)
    if not row.practice or row.player_a_id != user.pk:
        return _refused("not_yours", "hints are for the member at their practice table", 403)
    match = match_from_json(row.state)
    seat = match.frame.to_act
    if row.status != Match.Status.LIVE or seat is None or match.frame.pending is not None:
        return _refused("no_stroke", "there is no stroke to play now", 409)
    why = fairplay.refusal(user.pk, match.frame, table=row.pk)
    if why is not None:
        return _refused(why, str(NO_ENGINE[why]), 403)
    return row.state, seat, row.version, user.pk


@require_http_methods(["POST"])
async def hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """The stroke the Pro would play at the member's practice table: its aim and where it
    leaves the cue ball (docs/protocol.md, "The hint"). Thought in the computer's bounded
    pool, off the event loop, like the computer's own strokes."""
    found = await database_sync_to_async(_position)(request, match_id)
    if isinstance(found, JsonResponse):
        return found
    state, seat, version, member = found
    try:
        # In a lane of its own, behind the computer's strokes (computer/lanes.py).
        answer = await lanes.hint(
            member, driver.pool(), thinking.hint, state, seat, match_id * 100_003 + version
        )
    except lanes.Busy:
        waiting = settings.COMPUTER["HINTS_WAITING"]
        return _refused("rate_limited", f"at most {waiting} hints waiting at once", 429)
    if answer is None:
        return _refused("no_stroke", "there is no stroke to play now", 409)
    return JsonResponse({"version": version, "seat": seat, **answer})


ANALYSIS_REFUSALS = {
    "not_found": 404, "not_a_player": 403, "match_live": 409, "bad_frame": 404,
}  # fmt: skip


def _analysis_json(found: Analysis | None) -> dict[str, Any]:
    if found is None:
        return {"status": "none", "done": 0, "total": 0, "strokes": [], "accuracy": {}}
    return {
        "status": found.status, "done": found.done, "total": found.total,
        "strokes": found.strokes, "accuracy": analysis.accuracy_of(found.strokes),
    }  # fmt: skip


@require_http_methods(["GET", "POST"])
def analysis_view(request: HttpRequest, match_id: int, frame: int) -> HttpResponse:
    """A finished frame's analysis (docs/coach.md): GET, what is stored so far (its progress,
    "12 of 48 strokes", and each stroke's result; anyone who may see the replay); POST, ask
    for it (a player of the match or an organiser, a few a minute), queued once for all."""
    if request.method == "GET":
        found = Analysis.objects.filter(match_id=match_id, frame=frame).first()
        return JsonResponse(_analysis_json(found))
    user = request.user
    if not user.is_authenticated:
        return _refused("not_logged_in", "log in to ask for an analysis", 403)
    wait = limits.throttled(request, "computer_analysis", "10/m", lambda _g, r: str(r.user.pk))
    if wait is not None:
        return _refused("rate_limited", f"too many requests: try again in {wait} s", 429)
    try:
        asked = analysis.request(user, match_id, frame)
    except analysis.AnalysisRefused as exc:
        return _refused(exc.code, exc.message, ANALYSIS_REFUSALS.get(exc.code, 400))
    return JsonResponse(_analysis_json(asked), status=202)


@login_required
@require_http_methods(["GET"])
def fair_play(request: HttpRequest) -> HttpResponse:
    """The organisers' fair-play signal (computer/signal.py, docs/coach.md): the members whose
    analysed rated strokes are the Pro's past the club's marks, with the matches. Staff only;
    never shown to anyone else."""
    if not request.user.is_staff:
        raise PermissionDenied("organisers only")
    context = {
        "flagged": signal.flagged(), "agree": round(signal.AGREE_AT_LEAST * 100),
        "lost": signal.LOST_AT_MOST, "strokes": signal.STROKES_AT_LEAST,
    }  # fmt: skip
    return render(request, "computer/fair_play.html", context)
