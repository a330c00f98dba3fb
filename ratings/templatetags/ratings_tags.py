"""How a rating is marked on the pages: `{% provisional_mark rd %}` after a rating the club
knows too little about (rules.ratings.PROVISIONAL_RD, the one line), as lichess marks one with
"?": a newcomer's first results move it by a hundred points or more, and a reader should see
why."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from rules.ratings import PROVISIONAL_RD

register = template.Library()


@register.simple_tag
def provisional_mark(rd: float | None) -> SafeString | str:
    """A "?" with its words on hover and for screen readers, or nothing."""
    if rd is None or rd <= PROVISIONAL_RD:
        return ""
    words = gettext("provisional: too few rated matches yet to be sure of it")
    return format_html(
        '<abbr class="provisional" data-testid="provisional" title="{}" aria-label="{}">?</abbr>',
        words, words,
    )  # fmt: skip
