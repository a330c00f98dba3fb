"""Static files the ecosystem's way: `manage.py collectstatic` copies static/ into STATIC_ROOT
with hashed names (`css/site.3f2a9c1b4d5e.css`), WhiteNoise serves them from daphne (nginx
serves the same folder in front, deploy/nginx/), and the templates' `{% static %}` names the
hashed files, cached for ever by browsers: after an upgrade a page loads the new scripts, never
an old one from a cache. With DEBUG on (`make run`), WhiteNoise serves static/ as it is, read
afresh on each request.

The scripts are ES modules that import each other by relative path (`./constants.js`): the
storage rewrites those imports to the hashed names too (Django's JS module support), so that a
hashed match.js never imports an old, cached connection.js.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings as django_settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Hashed names and compressed copies (WhiteNoise), with the modules' imports rewritten."""

    support_js_module_import_aggregation = True


class StaticFiles(WhiteNoiseMiddleware):  # type: ignore[misc]
    """WhiteNoise's middleware, async as well as sync. WhiteNoise's own is sync only: in
    daphne's async stack Django would run it, and so every page's whole request behind it, through
    the one thread that channels also runs every database call of the sockets on. Looking a
    file up is a dictionary read (with DEBUG on, a stat), so it runs on the event loop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any = None, settings: Any = django_settings) -> None:
        super().__init__(get_response, settings)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:
            static_file = self.find_file(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            response: HttpResponseBase = self.serve(static_file, request)
            return response
        answer: HttpResponseBase = await self.get_response(request)
        return answer
