"""The security headers of the static files.

WhiteNoise (snooker_site/static.py) answers /static/ from its place after SecurityMiddleware,
which gives a static file what it gives a page (nosniff, Referrer-Policy,
Cross-Origin-Opener-Policy, HSTS over HTTPS, the redirect to HTTPS); `page_headers` adds the
rest, from the same settings as the pages' middleware. (Imported by the settings, so it imports
nothing at the top.)
"""

from __future__ import annotations

from typing import Any


def page_headers(headers: Any, path: str, url: str) -> None:
    """WhiteNoise's hook (WHITENOISE_ADD_HEADERS_FUNCTION), called once per file: the
    Content-Security-Policy (django-csp's, built from CONTENT_SECURITY_POLICY) and
    X-Frame-Options, which the pages get from middleware after WhiteNoise's place."""
    from csp.utils import build_policy
    from django.conf import settings

    policy = build_policy()
    if policy:
        headers["Content-Security-Policy"] = policy
    headers["X-Frame-Options"] = str(getattr(settings, "X_FRAME_OPTIONS", "DENY")).upper()
