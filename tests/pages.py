"""Helpers for tests that read a page's HTML as text."""

from __future__ import annotations

import re

# A player's name as the `player` filter draws it (club/templatetags/club_tags.py).
_NAME = re.compile(r'<span class="name" title="([^"]*)">([^<]*)</span>')


def unwrap_names(html: str) -> str:
    """The page with each player's name as bare text, its `name` span (shortening a long name:
    static/css/site.css) taken off, for tests that look for "alice v bob"."""
    return _NAME.sub(lambda m: m[2], html)
