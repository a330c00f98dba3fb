"""The pages around the table: the lobby, signing up, a new match, the match itself."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from game import accounts, service
from game.forms import NewMatchForm, SignUpForm
from game.models import Match
from game.protocol.constants import page_constants
from members.views import match_record


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    live = Match.objects.filter(status=Match.Status.LIVE).select_related("player_a", "player_b")
    mine = Match.objects.none()
    if request.user.is_authenticated:
        mine = Match.objects.filter(
            Q(player_a=request.user) | Q(player_b=request.user)
        ).select_related("player_a", "player_b")[:20]
    return render(
        request,
        "index.html",
        {"live": live[:50], "mine": mine, "form": NewMatchForm(user=request.user)},
    )


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    wait = accounts.throttled_by_address(request, "signup", settings.SNOOKER_SIGNUP_RATE)
    if wait is not None:
        return accounts.too_many(request, "sign-up", wait)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("index")
    return render(request, "registration/signup.html", {"form": form})


_password_reset = auth_views.PasswordResetView.as_view()


def _reset_email(group: str, request: HttpRequest) -> str:
    return str(request.POST.get("email", "")).strip().casefold()


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponseBase:
    """Django's password reset, counted per address and per e-mail address."""
    rate = settings.SNOOKER_PASSWORD_RESET_RATE
    wait = accounts.throttled_by_address(request, "password_reset", rate)
    if wait is None:
        wait = accounts.throttled(request, "password_reset_email", rate, _reset_email)
    if wait is not None:
        return accounts.too_many(request, "password reset", wait)
    return _password_reset(request)


@login_required
@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        clock = form.cleaned_data.get("shot_clock") or None
        match = service.create_match(
            request.user,  # type: ignore[arg-type]
            form.cleaned_data["opponent"],
            form.cleaned_data["best_of"],
            shot_clock=clock,
        )
        return redirect("match", match_id=match.pk)
    return render(request, "new_match.html", {"form": form})


@require_safe
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("player_a", "player_b"), pk=match_id)
    if match.status == Match.Status.FINISHED:
        return match_record(request, match)  # the archive: scores, breaks, the referee's log
    return render(
        request,
        "match.html",
        {
            "match": match,
            "seat": service.seat_of(match, request.user),
            # The rules' and the protocol's figures, read by static/js/constants.js.
            "constants": page_constants(),
        },
    )
