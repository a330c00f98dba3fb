"""A request holding a NUL or a lone surrogate is refused before any view reads it.

PostgreSQL cannot store or even compare a NUL in text ("A string literal cannot contain NUL
characters"), and a lone surrogate cannot be written as UTF-8 at all: either, reaching a query
through a path (`/players/a%00b/`), a query string (`?q=%00`), a form field or a cookie (the
session's key is looked up), used to answer 500 on PostgreSQL while SQLite said 404. No page
of the club takes such a character, so one check answers 400 for every view, here, before the
session is read. The sockets' messages meet the same rule in their one parser
(game/protocol/client_in.py `parse_with`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.views.defaults import bad_request

# NUL and the surrogates (which a decoded str holds only when unpaired).
UNREADABLE = re.compile("[\x00\ud800-\udfff]")


def readable(text: str) -> bool:
    return UNREADABLE.search(text) is None


def _all_readable(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return all(readable(key) and all(map(readable, values)) for key, values in pairs)


class UnreadableRefused(MiddlewareMixin):
    """Before SessionMiddleware (a NUL in the session cookie is looked up as a key)."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if (
            readable(request.path)
            and readable(request.path_info)
            and _all_readable(request.GET.lists())
            and all(readable(k) and readable(v) for k, v in request.COOKIES.items())
            and _all_readable(request.POST.lists())
        ):
            return None
        # The club's 400 page in the visitor's language (LocaleMiddleware comes later), read
        # from the language cookie and Accept-Language only: the session is not to be touched.
        with translation.override(translation.get_language_from_request(request)):
            return bad_request(request, ValueError("NUL or a lone surrogate"))
