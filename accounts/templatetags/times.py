"""A moment as a page shows it: in the viewer's zone (accounts/zones.py), with the zone's name,
in a <time> element that carries the exact instant. One definition for every page."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


def zone_name(at: datetime) -> str:
    """The zone's short name at that moment (MSK, CET, UTC); an offset where it has none
    (UTC+05 rather than a bare +05)."""
    name = at.tzname() or ""
    return f"UTC{name}" if name[:1] in "+-" and name else name


@register.filter
def when(at: datetime | None, form: str = "SHORT_DATETIME_FORMAT") -> SafeString | str:
    """`{{ c.play_by|when }}`: "7 Dec, 20:00 MSK"; `|when:"DATETIME_FORMAT"`: the long form."""
    if at is None:
        return ""
    local = timezone.localtime(at)
    return format_html(
        '<time datetime="{}">{} <span translate="no">{}</span></time>',
        local.isoformat(), date_format(local, get_format(form)), zone_name(local),
    )  # fmt: skip
