"""Accounts: which names may join, and how often one address may knock.

Names. A new name is refused when it looks the same as a member's name: compared after NFKC,
case folding and Unicode's confusable skeleton (UTS #39), so `аlice` with a Cyrillic `а`,
`ALICE`, `aIice` with a capital I and a full-width `ａｌｉｃｅ` all meet `alice`. A name that mixes
alphabets with letters that pass for another alphabet's (`аlice`, `Ivan_Иван`) is refused even
when nobody has the look-alike yet, so that nobody can hold a name in wait for a member who has
not joined. A name in one alphabet is welcome: `Алиса` joins, and `Aлиса` with a Latin `A` then
meets it. The confusables are Unicode's (confusables.txt, scripts from Scripts.txt) as the
confusable_homoglyphs package ships them.

Addresses. Login lockout is django-axes's (settings: AXES_*), per (account, address) with a
cool-off that doubles for a pair that keeps failing (`cool_off`), and per address for password
spraying; sign-up and password reset are counted by django-ratelimit. Both see a client
through `client_address`, the one address every limit counts (game/addresses.py): the
entry the trusted proxies added to X-Forwarded-For, else the peer, with IPv6 taken per /64 (one
host owns a whole /64 and could otherwise try every address in it).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterable
from datetime import timedelta
from functools import cache
from typing import Any

from axes.helpers import get_client_username
from axes.models import AccessFailureLog
from confusable_homoglyphs import confusables
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, ngettext_lazy
from django_ratelimit.core import get_usage

from game import addresses

# --- names -----------------------------------------------------------------------------------


def _node(text: str) -> str:
    # The package writes right-to-left characters between left-to-right marks.
    return text.replace("\u200e", "") if len(text) > 1 else text


@cache
def _prototypes() -> dict[str, str]:
    """Each character of confusables.txt → the prototype it is confused with.

    The package stores every line `source → prototype` in both directions; the prototypes are
    never sources themselves, so each group is a star around its prototype: the node of
    several characters (prototypes only can be sequences), else the one with several
    neighbours. A group of two is one line, and either end serves: both map to it."""
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    neighbours: dict[str, set[str]] = {}
    for key, glyphs in data.items():
        for glyph in glyphs:
            a, b = _node(key), _node(glyph["c"])
            neighbours.setdefault(a, set()).add(b)
            neighbours.setdefault(b, set()).add(a)
    prototype: dict[str, str] = {}
    for start in neighbours:
        if start in prototype:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in neighbours[todo.pop()] - group:
                group.add(other)
                todo.append(other)
        centre = min(group, key=lambda n: (len(n) == 1, len(neighbours[n]) == 1, n))
        for member in group:
            prototype[member] = centre
    return {char: proto for char, proto in prototype.items() if len(char) == 1}


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again (repeated
    so that the characters of a prototype sequence are prototypes too)."""
    table = _prototypes()
    out = unicodedata.normalize("NFD", text)
    for _ in range(3):
        mapped = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in out))
        if mapped == out:
            break
        out = mapped
    return out


def likeness(name: str) -> frozenset[str]:
    """The skeletons of a name as typed, in lower case and in upper case; two names look the
    same when they share one. UTS #39 skeletons keep case, so `aIice` meets `alice` as typed
    (a capital I passes for an l), and `ALlCE` meets it in upper case (`ALICE`). The marks a
    member's name may hold besides letters and digits (`@.+-_`) are left out: `alice.` and
    `bob_` pass for `alice` and `bob` in a lobby row at a glance."""
    name = unicodedata.normalize("NFKC", name)
    name = name.translate(_MARKS) or name
    return frozenset(skeleton(form) for form in (name, name.casefold(), name.upper()))


_MARKS = str.maketrans("", "", "@.+-_")


def mixes_lookalike_scripts(name: str) -> bool:
    """Several alphabets, one of them with letters that pass for another's."""
    return bool(confusables.is_dangerous(name))


def lookalike_of(name: str, members: Iterable[str]) -> str | None:
    """The first of `members` whose name looks the same as `name`, if any."""
    forms = likeness(name)
    for member in members:
        if forms & likeness(member):
            return member
    return None


def validate_new_username(name: str) -> None:
    """The rule for a new member's name (the sign-up form calls it). Compares against every
    member's name: a club's membership, not a social network's."""
    if mixes_lookalike_scripts(name):
        raise ValidationError(
            gettext_lazy(
                "This name mixes alphabets with letters that look alike; write it in one alphabet."
            ),
            code="mixed_scripts",
        )
    # Read whole: a server-side cursor left half-read (the first look-alike ends the search)
    # would be closed later by the collector, in whatever transaction is open then.
    names = list(get_user_model().objects.values_list("username", flat=True))
    if lookalike_of(name, names) is not None:
        raise ValidationError(
            gettext_lazy("A member's name looks the same as this one; please pick another."),
            code="lookalike",
        )


# --- addresses and throttles -----------------------------------------------------------------


def client_address(request: HttpRequest) -> str:
    """Who knocks (axes: AXES_CLIENT_IP_CALLABLE): game.addresses, IPv6 per /64. A request
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
