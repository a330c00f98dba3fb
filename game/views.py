"""The pages around the table: the lobby, signing up, a new match, the match itself."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from game import service
from game.forms import NewMatchForm
from game.models import Match
from game.protocol.constants import page_constants


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
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("index")
    return render(request, "registration/signup.html", {"form": form})


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
