"""Pages made of more than one app's parts: the site puts them together, so that no app has to
call another's views (docs/architecture.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from game.models import Match
from game.views import table_page
from members.views import match_record


@require_safe
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """`/match/<id>/`: the table while the match is played (or its word that it was abandoned),
    the members' record of it once it is finished (scores, breaks, the referee's log)."""
    match = get_object_or_404(Match.objects.select_related("player_a", "player_b"), pk=match_id)
    if match.status == Match.Status.FINISHED:
        return match_record(request, match)
    return table_page(request, match)
