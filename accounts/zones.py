"""Each request works in its viewer's time zone.

A time a member types (a start time) is read in that zone, and every time a page shows is
written in it with its name. The zone is, in this order: the one a member chose (kept in the
session when chosen and at each login: members/signals.py, so no query a request), the
browser's own (a cookie that static/js/zone.js sets from Intl on every page), and the club's
(the CLUB_TIME_ZONE setting, Django's TIME_ZONE). A name the zone database does not know is
ignored: a cookie is the visitor's to write.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone
from django.utils.decorators import sync_and_async_middleware

SESSION_KEY = "time_zone"  # a member's choice; absent: the browser's
COOKIE = "tz"  # the browser's zone, as Intl names it (static/js/zone.js)


@cache
def known() -> frozenset[str]:
    return frozenset(available_timezones())


def valid(name: object) -> str | None:
    """The name if it is a zone the database knows, else None."""
    return name if isinstance(name, str) and name in known() else None


def chosen(request: HttpRequest) -> str | None:
    """The member's own choice, when they made one."""
    return valid(request.session.get(SESSION_KEY)) if hasattr(request, "session") else None


def _zone(choice: str | None, request: HttpRequest) -> ZoneInfo:
    name = choice or valid(request.COOKIES.get(COOKIE))
    return ZoneInfo(name) if name else timezone.get_default_timezone()


def of(request: HttpRequest) -> ZoneInfo:
    """The zone the request works in."""
    return _zone(chosen(request), request)


async def aof(request: HttpRequest) -> ZoneInfo:
    """`of` for an async request: the session is read the async way (it may query)."""
    choice = None
    if hasattr(request, "session"):
        choice = valid(await request.session.aget(SESSION_KEY))
    return _zone(choice, request)


@sync_and_async_middleware
def viewer_zone(get_response: Callable[[HttpRequest], Any]) -> Callable[[HttpRequest], Any]:
    """After the session middleware: the request works in the viewer's zone, sync or async."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponseBase:
            with timezone.override(await aof(request)):
                response: HttpResponseBase = await get_response(request)
                return response

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponseBase:
        with timezone.override(of(request)):
            response: HttpResponseBase = get_response(request)
            return response

    return middleware
