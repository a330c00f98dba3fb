"""Template filters for the club's rows (the same words static/js/clubtext.js writes)."""

from __future__ import annotations

from typing import Any

from django import template

from club.text import describe_format
from game.text import player_name
from rules.challenges import Format

register = template.Library()


@register.filter
def format_text(row: Any) -> str:
    """ "best of 3 · 30 s shot clock · rated" for a challenge or match row."""
    return describe_format(Format(row.best_of, getattr(row, "shot_clock", None), row.rated))


@register.filter
def player(username: str) -> str:
    """A player's name as a person reads it: a guest's marked in the page's language."""
    return player_name(username)
