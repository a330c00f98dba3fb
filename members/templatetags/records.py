"""`{% recent_matches %}`: the finished matches the lobby and the profiles list.

Fed from the figures stored when each match ended (members.models.MatchFigures): one query,
whoever includes templates/club/_recent_matches.html and whatever its view put in the context.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import QuerySet

from game import words
from game.protocol import server_out
from members.models import MatchFigures

register = template.Library()

RECENT = 10


@register.simple_tag
def recent_matches(player: Any = None, limit: int = RECENT) -> QuerySet[MatchFigures]:
    """The latest finished matches, each once (seen from player A), or `player`'s own (seen
    from their side) when one is given."""
    rows = MatchFigures.objects.select_related("player", "opponent")
    rows = rows.filter(player=player) if player else rows.filter(seat="A")
    return rows.order_by("-finished", "-match_id")[: max(1, min(int(limit), 50))]


@register.filter
def of(mapping: Any, key: Any) -> Any:
    """`{{ names|of:entry.seat }}`: a dictionary's value for a variable key."""
    try:
        return mapping[key]
    except (KeyError, TypeError, IndexError):
        return ""


@register.filter
def told(entry: server_out.LogEntry, names: dict[str, str]) -> words.Words:
    """`{% with w=e.log|told:names %}`: an entry of the referee's log in the table's words."""
    return words.describe(entry, names)


@register.filter
def percent(part: int, whole: int) -> str:
    """`{{ pots|percent:attempts }}`: "62%", or "–" with nothing to divide."""
    return f"{round(100 * part / whole)}%" if whole else "–"
