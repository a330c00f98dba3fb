"""The chat's template tags: a reader's chat settings for the pages that carry a room."""

from __future__ import annotations

from typing import Any

from django import template

from chat import service

register = template.Library()


@register.simple_tag
def chat_mild(user: Any) -> str:
    """ "1" when the reader shows mild words unmasked (chat.Preference), else "": the chat
    panel's `data-mild` (no query for a visitor)."""
    if not service.is_member(user):
        return ""
    return "1" if service.preference(user).mild_shown else ""


@register.simple_tag
def chat_off(user: Any) -> str:
    """ "1" when the reader turned the players' chat off at their table, else "" (the match
    page asks only for a player)."""
    if not service.is_member(user):
        return ""
    return "1" if service.preference(user).off_at_table else ""
