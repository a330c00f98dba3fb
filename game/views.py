"""The pages around the table: signing up, password reset, the match itself. (The lobby and
making matches, by challenge, are the club's: club/views.py.)"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from game import accounts, health, service
from game.forms import SignUpForm
from game.models import Match
from game.protocol.constants import page_constants


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """For the proxy's and systemd's checks: whether the database and Redis (when REDIS_URL
    names one; else null) answer. 200 when all do, else 503, with which did not."""
    database, redis = health.database_answers(), health.redis_answers()
    ok = database and redis is not False
    body = {"ok": ok, "database": database, "redis": redis}
    return JsonResponse(body, status=200 if ok else 503)


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


def page_language(request: HttpRequest) -> str:
    """The language the match page speaks (its `<html lang>`, which static/js/i18n.js
    follows): `?lang=ru` or `?lang=en` if asked for, else the language Django's i18n chose
    for the request. Without LocaleMiddleware installed, the browser's Accept-Language (or
    the language cookie) is read here, for this page, as the middleware would."""
    asked = str(request.GET.get("lang", ""))
    known = {code.split("-")[0] for code, _ in settings.LANGUAGES}
    if asked in known and translation.check_for_language(asked):
        return asked
    if "django.middleware.locale.LocaleMiddleware" not in settings.MIDDLEWARE:
        return translation.get_language_from_request(request)
    return translation.get_language()


def table_page(request: HttpRequest, match: Match) -> HttpResponse:
    """The table of a match not finished (snooker_site/views.py hands it over; a finished
    match's page is its record, the members')."""
    if match.status == Match.Status.ABANDONED:  # never started: nothing to show but that
        wait = max(1, round(settings.SNOOKER["NO_SHOW_WAIT"] / 60))
        return render(request, "match_abandoned.html", {"match": match, "wait": wait})
    with translation.override(page_language(request)):
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
