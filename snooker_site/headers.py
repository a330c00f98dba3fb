"""The security headers of the static files.

daphne serves /static/ through Django's ASGIStaticFilesHandler, which answers before any
middleware runs, so the files carry none of the headers that SecurityMiddleware,
XFrameOptionsMiddleware and django-csp's CSPMiddleware give the pages. `SecurityHeaders` wraps
that handler and gives its /static/ responses the same headers, built from the same settings
(CONTENT_SECURITY_POLICY, SECURE_*, X_FRAME_OPTIONS), and the same redirect to HTTPS:

    "http": SecurityHeaders(ASGIStaticFilesHandler(django_asgi_app)),

Responses outside /static/ pass through untouched (the pages have their headers from the
middleware), and so does every non-HTTP scope. A header the response already has is kept.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from csp.utils import build_policy
from django.conf import settings
from django.http.request import split_domain_port, validate_host

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
# Django's handlers are typed with narrower mappings than ASGI's: take any ASGI callable.
ASGIApp = Callable[..., Awaitable[None]]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def is_secure(scope: Scope) -> bool:
    """Django's HttpRequest.is_secure() for an ASGI scope: the proxy's header when
    SECURE_PROXY_SSL_HEADER names one and the request carries it, else the scheme."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = meta.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        value = _header(scope, name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") in ("https", "wss")


def security_headers(*, secure: bool, status: int = 200) -> list[tuple[str, str]]:
    """What the middleware adds to a page's response, from the same settings."""
    headers: list[tuple[str, str]] = []
    # django-csp leaves Django's debug pages (404, 500 with DEBUG on) without a policy.
    if not (settings.DEBUG and status in (404, 500)):
        policy = build_policy()
        if policy:
            headers.append(("Content-Security-Policy", policy))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy_value = settings.SECURE_REFERRER_POLICY
        if not isinstance(policy_value, str):
            policy_value = ",".join(policy_value)
        headers.append(("Referrer-Policy", policy_value))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    headers.append(("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()))
    if secure and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append(("Strict-Transport-Security", hsts))
    return headers


def _https_location(scope: Scope) -> str | None:
    """Where SecurityMiddleware would send a plain-HTTP request, or None if its host is not
    one of ALLOWED_HOSTS (Django answers 400 to those)."""
    host = settings.SECURE_SSL_HOST or _header(scope, b"host") or ""
    if not settings.SECURE_SSL_HOST:
        domain, _port = split_domain_port(host)
        allowed = settings.ALLOWED_HOSTS
        if settings.DEBUG and not allowed:
            allowed = [".localhost", "127.0.0.1", "[::1]"]
        if not domain or not validate_host(domain, allowed):
            return None
    path = scope.get("root_path", "") + scope.get("path", "/")
    query = bytes(scope.get("query_string", b"")).decode("latin-1")
    return f"https://{host}{path}" + (f"?{query}" if query else "")


class SecurityHeaders:
    """ASGI middleware: /static/ responses get the pages' security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        static = str(settings.STATIC_URL or "/static/")
        if scope["type"] != "http" or not scope.get("path", "").startswith(static):
            await self.app(scope, receive, send)
            return
        secure = is_secure(scope)
        if settings.SECURE_SSL_REDIRECT and not secure:
            location = _https_location(scope)
            await self._redirect_or_refuse(location, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(name).lower() for name, _ in headers}
                for name, value in security_headers(secure=secure, status=message["status"]):
                    key = name.lower().encode("latin-1")
                    if key not in present:
                        headers.append((key, value.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _redirect_or_refuse(self, location: str | None, send: Send) -> None:
        if location is None:
            status, headers, body = 400, [(b"content-type", b"text/plain")], b"Bad Request"
        else:
            status, headers, body = 301, [(b"location", location.encode("latin-1"))], b""
        extra = security_headers(secure=False, status=status)
        headers += [(name.lower().encode("latin-1"), value.encode()) for name, value in extra]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
