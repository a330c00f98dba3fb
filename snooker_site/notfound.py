"""The site's own "not found" page under DEBUG too.

With DEBUG on (the default of `make run`) Django answers a wrong address with its technical
404 page, in English, listing the URL patterns: a visitor of a club run that way should see
the club's page (templates/404.html) in their language, as with DEBUG off. Tracebacks of
real errors (500) stay Django's.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404
from django.utils.deprecation import MiddlewareMixin
from django.views.defaults import page_not_found


class SiteNotFound(MiddlewareMixin):
    """Between LocaleMiddleware (the page's language is active here) and CommonMiddleware
    (whose redirect to the address with a slash is made before this looks)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """An Http404 raised by a view (get_object_or_404, a missing record)."""
        if settings.DEBUG and isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """An address that matches no URL pattern: no view was resolved."""
        if (
            settings.DEBUG
            and response.status_code == 404
            and getattr(request, "resolver_match", None) is None
        ):
            return page_not_found(request, Resolver404({"path": request.path_info}))
        return response
