"""The organisers' chat pages in Django's admin (`/admin/`): every line, with its room, to
read and search; delete lines, or time their authors out (15 minutes, an hour, a day), each
through `chat.service` (kept in the audit log, the line itself quoted as the reason; the
line's room is told at once: its pages drop a deleted line, a timed-out member is told why
and until when); the timeouts and the audit log, to read. Reports and the troll switch are
to come (docs/chat.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from chat import service
from chat.models import Action, Line, Timeout

if TYPE_CHECKING:
    _Admin = admin.ModelAdmin[Any]
else:  # the stubs' generics are not subscriptable at run time
    _Admin = admin.ModelAdmin


class _ReadOnly(_Admin):
    """Shown, never edited here: the service writes these rows."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]


def _reason(line: Line) -> str:
    return gettext("For the line: “%(text)s”") % {"text": line.text}


def _time_out(length: str, label: Any) -> Callable[[Any, HttpRequest, QuerySet[Line]], None]:
    def act(admin_: Any, request: HttpRequest, lines: QuerySet[Line]) -> None:
        now = timezone.now()
        for line in lines:
            service.time_out(
                request.user, line.author_id, length, _reason(line)[:140], now, where=line.room
            )
        messages.success(request, gettext("Timed out."))

    act.__name__ = f"time_out_{length}"
    return admin.action(description=label)(act)


@admin.register(Line)
class LineAdmin(_ReadOnly):
    list_display = ("at", "room", "author", "text", "hidden", "shadow")
    list_filter = ("hidden", "shadow", "room__kind")
    search_fields = ("text", "author__username", "room__key")
    list_select_related = ("room", "author")
    actions = (
        "delete_lines",
        _time_out("15m", gettext_lazy("Time the authors out for 15 minutes")),
        _time_out("1h", gettext_lazy("Time the authors out for an hour")),
        _time_out("1d", gettext_lazy("Time the authors out for a day")),
    )

    @admin.action(description=gettext_lazy("Delete the lines (kept, hidden, in the record)"))
    def delete_lines(self, request: HttpRequest, lines: QuerySet[Line]) -> None:
        now = timezone.now()
        for line in lines:
            service.hide(request.user, line.pk, _reason(line)[:140], now)
        messages.success(request, gettext("Deleted."))


@admin.register(Timeout)
class TimeoutAdmin(_ReadOnly):
    list_display = ("member", "until", "reason", "by", "at")
    search_fields = ("member__username", "reason")


@admin.register(Action)
class ActionAdmin(_ReadOnly):
    list_display = ("at", "kind", "by", "member", "reason")
    list_filter = ("kind",)
