"""Template filters for the club's rows (the same words static/js/clubtext.js writes)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from club.handicaps import challenge_start
from club.models import Challenge
from club.protocol.server_out import ChallengeRow, MatchRow
from club.text import describe_format, describe_handicap
from game.text import player_name
from rules.challenges import Format

register = template.Library()


@register.filter
def format_text(row: Any) -> str:
    """ "best of 3 · 30 s shot clock · rated" for a challenge or match row, and its handicap
    ("handicap: bob receives 28") if it has one."""
    text = describe_format(
        Format(
            row.best_of, getattr(row, "shot_clock", None), row.rated, getattr(row, "guide", None)
        )
    )
    handicap = _handicap(row)
    return f"{text} · {handicap}" if handicap else text


def _handicap(row: Any) -> str:
    """A stored challenge's handicap, or a lobby row's (server_out.ChallengeRow, MatchRow)."""
    if isinstance(row, Challenge):
        a, b = row.challenger.get_username(), row.target.get_username() if row.target else None
        return describe_handicap(challenge_start(row), row.handicap, a, b)
    pair = getattr(row, "start", None)
    start = (pair.A, pair.B) if pair is not None else None
    if isinstance(row, MatchRow):
        return describe_handicap(start, False, row.players["A"], row.players["B"])
    if isinstance(row, ChallengeRow):
        return describe_handicap(start, row.handicap, row.challenger, row.target)
    return ""


@register.filter
def player(username: str) -> SafeString:
    """A player's name as a person reads it (a guest's marked in the page's language), in a
    `name` span: a long one is shown shortened with an ellipsis (static/css/site.css `.name`,
    which static/js/lobby.js's rows use too), whole on hover (the title) and to screen readers
    (the text itself is whole; only its box is clipped), so that no page grows wider for a
    member's 150-character name."""
    shown = player_name(username)
    return format_html('<span class="name" title="{}">{}</span>', shown, shown)


@register.filter
def player_text(username: str) -> str:
    """The same name as plain text, where markup cannot go (the page's <title>)."""
    return player_name(username)


@register.filter
def pair(figures: Any) -> str:
    """`{{ m.frames|pair }}`: "1–0", A's figure first, as the lobby's script writes it."""
    return f"{figures.A}–{figures.B}"


@register.simple_tag
def blocking(user: Any, member: Any) -> bool:
    """Whether the viewer `user` has blocked `member` (the profile's control)."""
    from club.blocks import blocks

    return bool(user.is_authenticated) and blocks(user.pk, member.pk)


@register.simple_tag
def handicap_override(member: Any) -> Any:
    """The organisers' override of `member`'s handicap in force (ratings/handicaps.py), or None:
    their profile says so."""
    from ratings.handicaps import override_of

    return override_of(member.pk)
