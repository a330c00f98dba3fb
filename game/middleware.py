"""The ASGI middleware in front of the websocket stack (snooker_site/asgi.py): a stranger's
handshake from an address turned away for flooding, or over its rate of new sockets, is
refused before sessions, authentication and a consumer are set up. `SESSIONS` remembers which
session keys name a member's live session, so that a player is never held to the strangers'
rate and a made-up cookie costs no more than a stranger. `OutagesClose`, outermost, closes a
socket that met the database or Redis away anywhere under it with the code its page reconnects
on, quietly."""

from __future__ import annotations

import contextlib
import re
from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http.cookie import parse_cookie

from accounts import addresses
from game import clock
from game.gates import GATE
from game.origins import refuse
from game.protocol import CLOSE_UNAVAILABLE
from game.supervise import DEPENDENCIES


class _Sessions:
    """Which session keys name a member's live session (a signed-in user's, not expired),
    remembered for a minute either way: a player's reconnections cost no read, and a cookie
    made up (`sessionid=x`) lets nobody past the strangers' rate. A key this process has not
    seen is read at most at the address's lookup rate (`GATE.look_up`)."""

    TTL = 60.0
    KEPT = 20_000

    def __init__(self) -> None:
        self.known: dict[str, tuple[bool, float]] = {}  # key -> live, when read

    async def live(self, key: str, address: str) -> bool:
        now = clock.monotonic()
        seen = self.known.get(key)
        if seen is not None and now - seen[1] < self.TTL:
            return seen[0]
        if not _SESSION_KEY.fullmatch(key) or not GATE.look_up(address):
            return False
        alive = await _signed_in(key)
        if len(self.known) >= self.KEPT:
            self.known = {k: v for k, v in self.known.items() if now - v[1] < self.TTL}
            if len(self.known) >= self.KEPT:
                self.known.clear()
        self.known[key] = (alive, now)
        return alive

    def reset(self) -> None:
        self.known.clear()


_SESSION_KEY = re.compile(r"[a-z0-9]{8,64}")  # Django's keys: 32 of these


@database_sync_to_async
def _signed_in(key: str) -> bool:
    # The session engine's own read: an expired or unknown key loads as an empty session.
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    return store.get(SESSION_KEY) is not None


SESSIONS = _Sessions()


def session_key(scope: Any) -> str | None:
    cookies = b"; ".join(value for name, value in scope.get("headers", ()) if name == b"cookie")
    return parse_cookie(cookies.decode("latin-1")).get(settings.SESSION_COOKIE_NAME) or None


class TurnAway:
    """ASGI middleware in front of the websocket stack: finds the socket's client address once
    (accounts.addresses: the right hop of X-Forwarded-For; kept in the scope as
    "address"); a handshake that names no member's live session (so cannot be a player's)
    from an address turned away for flooding, or over its rate of new sockets, is refused
    before sessions, authentication and a consumer are set up."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            address = addresses.of_scope(scope)
            scope = {**scope, "address": address}
            key = session_key(scope)
            member = key is not None and await SESSIONS.live(key, address)
            if member:
                GATE.member_from(address)
            if not member and (GATE.turned_away(address) or not GATE.knock(address)):
                await refuse(receive, send)
                return
        await self.app(scope, receive, send)


class OutagesClose:
    """ASGI middleware around the whole websocket stack (snooker_site/asgi.py): a socket that
    meets the database or Redis away anywhere under it (the session's and the user's reads at
    the handshake, the consumer's own channel on the channel layer while Redis goes away) is
    closed with `CLOSE_UNAVAILABLE`, on which its page reconnects (before its handshake is
    accepted: refused, which the page retries the same way), and the outage is said once for
    the process (game/supervise.py), not one "Exception inside application" traceback and
    1011 a socket from daphne (issue 37: quiet logs). A bug still goes up as one."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except Exception as exc:
            if DEPENDENCIES.failed(exc, "a socket") is None:
                raise
            with contextlib.suppress(Exception):  # gone already: nothing to close
                await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
