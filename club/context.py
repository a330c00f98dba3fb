"""What every page needs from the club (templates/base.html): the notices socket's figures and
the words its script shows, the number of challenges waiting for the member, whether they are
a guest. The counts are read only if a page shows them (Django templates call callables)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import timezone

from club.lobby import is_guest
from club.models import Challenge
from club.protocol import (
    CLOSE_FLOOD,
    CLOSE_FULL,
    CLOSE_MOVED,
    CLOSE_SIGNED_OUT,
    CLOSE_UNAVAILABLE,
    LOBBY_PROTOCOL,
)
from club.text import catalog
from rules.challenges import Status


def page_data(request: HttpRequest) -> dict[str, Any]:
    """The `club-page` JSON block: read by static/js/clubsocket.js and clubtext.js."""
    user = request.user
    return {
        "protocol": LOBBY_PROTOCOL,
        "close_codes": {
            "flood": CLOSE_FLOOD,
            "full": CLOSE_FULL,
            "signed_out": CLOSE_SIGNED_OUT,
            "moved": CLOSE_MOVED,
            "unavailable": CLOSE_UNAVAILABLE,
        },
        "me": user.get_username() if user.is_authenticated else None,
        "text": catalog(),
        # The viewer's zone (accounts/zones.py): notices write times in it, with its name.
        "zone": timezone.get_current_timezone_name(),
    }


def _waiting(request: HttpRequest) -> int:
    user = request.user
    if not user.is_authenticated:
        return 0
    return Challenge.objects.filter(
        target_id=user.pk, status=Status.OPEN, expires__gt=timezone.now()
    ).count()


def club(request: HttpRequest) -> dict[str, Any]:
    # A 404 for a missing static file is rendered before any middleware: no user there.
    user = getattr(request, "user", None) or AnonymousUser()
    return {
        "club_page": partial(page_data, request),
        "club_waiting": partial(_waiting, request),
        "club_guest": partial(is_guest, user),
    }
