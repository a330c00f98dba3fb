"""Websockets only from the site's own pages (cross-site websocket hijacking).

A browser sends the session cookie with a websocket handshake to our host from any page,
including a page on another port of the same host or a sibling subdomain (same site, so even
SameSite cookies go along). The handshake's `Origin` says which page opened it: we accept our
own origin (the one the `Host` header names, itself one of `ALLOWED_HOSTS`, as plain HTTP
requires) and those listed in `CSRF_TRUSTED_ORIGINS`, and refuse every other before the
consumer runs. A handshake without `Origin` does not come from a browser page, so it carries
no cookie but its sender's own.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host


def allowed_hosts() -> list[str]:
    """Django's rule: with DEBUG and no ALLOWED_HOSTS, the local names."""
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


def handshake_allowed(host: str | None, origin: str | None) -> bool:
    if host is not None:
        domain, _ = split_domain_port(host)
        if not domain or not validate_host(domain, allowed_hosts()):
            return False
    if origin is None:
        return True
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(origin)
    return (
        host is not None
        and parts.scheme in ("http", "https")
        and parts.netloc.lower() == host.lower()
    )


async def refuse(receive: Any, send: Any) -> None:
    """Refuse a websocket handshake (daphne answers 403) with no consumer set up for it:
    channels' `WebsocketDenier` is one, with a task, a channel and a hop to the database
    thread per message, and a storm of refused handshakes is what an attacker sends."""
    await receive()  # websocket.connect
    await send({"type": "websocket.close"})


class SameOriginWebsockets:
    """ASGI middleware: refuse a websocket handshake from a foreign page or for a foreign host."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            headers: dict[bytes, bytes] = dict(scope.get("headers", ()))
            host, origin = headers.get(b"host"), headers.get(b"origin")
            if not handshake_allowed(
                host.decode("latin-1") if host is not None else None,
                origin.decode("latin-1") if origin is not None else None,
            ):
                await refuse(receive, send)
                return
        await self.app(scope, receive, send)
