"""The game's pages: the match's table and the health check. (The lobby and making matches, by
challenge, are the club's: club/views.py; joining and passwords, accounts/views.py.)"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from game import health, service, supervise
from game.models import Match
from game.protocol.constants import page_constants


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """For the proxy's and systemd's checks: whether the database and Redis (when REDIS_URL
    names one; else null) answer, and the state of each of the process's background tasks
    (game/supervise.py: a task that should run and has died, has fallen behind, or is
    waiting for a dependency is not ok). 200 when all are, else 503, with what is not."""
    database, redis = health.database_answers(), health.redis_answers()
    tasks = supervise.report()
    ok = database and redis is not False and all(task["ok"] for task in tasks.values())
    body = {"ok": ok, "database": database, "redis": redis, "tasks": tasks}
    return JsonResponse(body, status=200 if ok else 503)


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
    if match.status == Match.Status.ABANDONED:  # never started, or left: nothing to show but that
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
