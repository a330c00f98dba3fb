"""How often one address may knock: the login lockout and the forms' throttles.

Login lockout is django-axes's (settings: AXES_*), per (account, address) with a cool-off that
doubles for a pair that keeps failing (`cool_off`), and per address for password spraying;
sign-up and password reset (and the records' searches and replays, the computer's hints, the
chat's lines per address) are counted by django-ratelimit. Both see a client through
`client_address`, the one address every limit counts (accounts/addresses.py): the entry the
trusted proxies added to X-Forwarded-For, else the peer, with IPv6 taken per /64 (one host owns
a whole /64 and could otherwise try every address in it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from axes.helpers import get_client_username
from axes.models import AccessFailureLog
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import ngettext_lazy
from django_ratelimit import ALL
from django_ratelimit.core import get_usage

from accounts import addresses


def client_address(request: HttpRequest) -> str:
    """Who knocks (axes: AXES_CLIENT_IP_CALLABLE): accounts.addresses, IPv6 per /64. A request
    with no peer at all (the test client's `force_login`) is "", which axes stores as no
    address: PostgreSQL's inet column takes no other word for it."""
    address = addresses.of_request(request)
    return "" if address == addresses.UNKNOWN else address


def _by_address(group: str, request: HttpRequest) -> str:
    return client_address(request)


def throttled(
    request: HttpRequest, group: str, rate: str, key: str | Callable[[str, HttpRequest], str]
) -> int | None:
    """Count this POST against `rate` for its `key` (django-ratelimit); the seconds to wait if
    it is over, else None."""
    usage: dict[str, Any] | None = get_usage(
        request, group=group, key=key, rate=rate, method="POST", increment=True
    )
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def throttled_by_address(request: HttpRequest, group: str, rate: str) -> int | None:
    return throttled(request, group, rate, _by_address)


def over_rate(group: str, address: str, rate: str) -> bool:
    """Count one more of `group` from `address` (as accounts.addresses gives it) against
    `rate`, as the throttles above count (django-ratelimit, the throttle cache: every
    process's count when Redis holds it); whether it is over. For what comes on a websocket,
    not in a request (a chat line): no request is read, the address is the key."""
    usage: dict[str, Any] | None = get_usage(
        None, group=group, key=lambda _g, _r: address, rate=rate, method=ALL, increment=True
    )
    return usage is not None and bool(usage["should_limit"])


# What the page for a refused attempt says, by what was refused ("login" is the template's own).
_TOO_MANY: dict[str, Promise] = {
    "sign-up": ngettext_lazy(
        "Too many sign-up requests came from your address. Please try again in %(minutes)s minute.",
        "Too many sign-up requests came from your address. Please try again in %(minutes)s "
        "minutes.",
        "minutes",
    ),
    "password reset": ngettext_lazy(
        "Too many password reset requests came from your address. Please try again in "
        "%(minutes)s minute.",
        "Too many password reset requests came from your address. Please try again in "
        "%(minutes)s minutes.",
        "minutes",
    ),
    "search": ngettext_lazy(
        "Too many searches came from your address. Please try again in %(minutes)s minute.",
        "Too many searches came from your address. Please try again in %(minutes)s minutes.",
        "minutes",
    ),
    "replay": ngettext_lazy(
        "Too many replays were asked for from your address. Please try again in %(minutes)s "
        "minute.",
        "Too many replays were asked for from your address. Please try again in %(minutes)s "
        "minutes.",
        "minutes",
    ),
    "computer": ngettext_lazy(
        "Too many matches against the computer were started from your address. Please try "
        "again in %(minutes)s minute.",
        "Too many matches against the computer were started from your address. Please try "
        "again in %(minutes)s minutes.",
        "minutes",
    ),
}
_TOO_MANY_ELSE = ngettext_lazy(
    "Too many requests came from your address. Please try again in %(minutes)s minute.",
    "Too many requests came from your address. Please try again in %(minutes)s minutes.",
    "minutes",
)


def too_many(request: HttpRequest, what: str, retry_after: int) -> HttpResponse:
    """The page for a refused attempt: 429, what happened and when to come back, in the
    visitor's language."""
    minutes = max(1, math.ceil(retry_after / 60))
    message = str(_TOO_MANY.get(what, _TOO_MANY_ELSE) % {"minutes": minutes})
    response = render(
        request,
        "registration/throttled.html",
        {"what": what, "minutes": minutes, "message": message},
        status=429,
    )
    response["Retry-After"] = str(retry_after)
    return response


BACKOFF_WINDOW = timedelta(days=1)  # a pair's failures this recent set its cool-off


def backoff(failures: int, limit: int, base: timedelta, most: timedelta) -> timedelta:
    """The cool-off of a lockout after `failures` failed logins of one (account, address) in
    the last day: the base for the first `limit`, doubled for every further `limit` begun
    (so it is the same just before and just after the failure that locks), at most `most`."""
    sets = max(0, math.ceil(failures / limit) - 1) if limit > 0 else 0
    longer: timedelta = base * 2 ** min(sets, 32)
    return min(longer, most)


def cool_off(request: HttpRequest | None) -> timedelta:
    """django-axes's cool-off for this login (AXES_COOLOFF_TIME): how long a lockout of its
    (account, address) lasts after the failure that set it. Failures during a lockout are
    not recorded (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT), so it never extends itself;
    a pair that comes back to fail again waits longer each time (docs/security.md)."""
    base: timedelta = settings.SNOOKER_LOGIN_COOLOFF
    if request is None:
        return base
    name = get_client_username(request)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    if not name:
        return base
    failures = AccessFailureLog.objects.filter(
        username=name, ip_address=address, attempt_time__gte=timezone.now() - BACKOFF_WINDOW
    ).count()
    return backoff(failures, settings.AXES_FAILURE_LIMIT, base, settings.SNOOKER_LOGIN_COOLOFF_MAX)


def lockout_response(request: HttpRequest, *args: Any) -> HttpResponse:
    """django-axes's lockout answer (AXES_LOCKOUT_CALLABLE; it passes the response it replaces
    and the credentials, or in its async path the credentials only: neither is needed)."""
    return too_many(request, "login", int(cool_off(request).total_seconds()))
