"""The chat's pages: a member's report of a line (asked by the chat panel), and the
organisers' page of open reports with each line's context, their answers, the troll marks and
the panic switch (chat/moderation.py). Every action goes through the service and is kept in
the audit log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts import limits
from chat import moderation, service
from chat.models import Preference, Troll
from chat.service import ChatRefused

if TYPE_CHECKING:
    _ModelForm = forms.ModelForm[Preference]
else:  # the stubs' generics are not subscriptable at run time
    _ModelForm = forms.ModelForm

REFUSALS = {
    "chat_members_only": gettext_lazy("Members report lines."),
    "chat_bad_reason": gettext_lazy("Give a reason."),
    "chat_too_long": gettext_lazy("At most 140 characters."),
    "chat_no_such_line": gettext_lazy("That line is no longer there."),
    "chat_own_line": gettext_lazy("You cannot report your own line."),
    "chat_flood": gettext_lazy("You have reported many lines today: try again tomorrow."),
    "chat_already_reported": gettext_lazy("You have reported this line already."),
    "chat_not_a_moderator": gettext_lazy("Only the club's organisers moderate the chat."),
    "chat_bad_action": gettext_lazy("That cannot be done."),
    "chat_bad_timeout": gettext_lazy("That cannot be done."),
    "chat_not_a_troll": gettext_lazy("This member is not marked a troll."),
    "chat_no_panic": gettext_lazy("The panic switch is off."),
}
REPORTS_A_MINUTE = "10/m"


def _text(code: str) -> str:
    return str(REFUSALS.get(code, gettext("That cannot be done.")))


@require_POST
def report(request: HttpRequest, line_id: int) -> JsonResponse:
    """A member reports a line: `reason` (Report.Reason) and an optional `note`. JSON in and
    out: {"ok": true}, or {"code", "message"} with 4xx; nothing changes on a refusal."""
    wait = limits.throttled(request, "chat_report", REPORTS_A_MINUTE, "user_or_ip")
    if wait is not None:
        return JsonResponse({"code": "rate_limited", "message": _text("chat_flood")}, status=429)
    try:
        moderation.report(
            request.user,
            line_id,
            str(request.POST.get("reason", "")),
            str(request.POST.get("note", "")),
            timezone.now(),
        )
    except ChatRefused as exc:
        status = 403 if exc.code == "chat_members_only" else 409
        return JsonResponse({"code": exc.code, "message": _text(exc.code)}, status=status)
    return JsonResponse({"ok": True})


@login_required
@require_http_methods(["GET", "POST"])
def reports(request: HttpRequest) -> HttpResponse:
    """The organisers' page: open reports, the troll marks and the panic switch."""
    if not service.moderates(request.user):
        raise PermissionDenied("organisers only")
    now = timezone.now()
    error = None
    if request.method == "POST":
        post = request.POST
        try:
            what = post.get("do", "")
            reason = str(post.get("reason", ""))
            if what == "answer":
                moderation.answer(
                    request.user, int(post.get("line", 0)), str(post.get("action")), reason, now
                )
            elif what == "untroll":
                moderation.untroll(request.user, int(post.get("member", 0)), reason, now)
            elif what == "panic":
                moderation.panic(request.user, int(post.get("hours", 0)), reason, now)
            elif what == "calm":
                moderation.calm(request.user, now)
            else:
                raise ChatRefused("chat_bad_action")
        except ChatRefused as exc:
            error = _text(exc.code)
        except ValueError:
            error = _text("chat_bad_action")
        else:
            return redirect("chat_reports")
    context: dict[str, Any] = {
        "cases": moderation.open_cases(),
        "trolls": Troll.objects.select_related("member", "by").order_by("-at")[:100],
        "panic_until": moderation.panic_until(now),
        "hours": moderation.PANIC_HOURS,
        "error": error,
    }
    return render(request, "chat/reports.html", context, status=409 if error else 200)


class PreferenceForm(_ModelForm):
    class Meta:
        model = Preference
        fields = ("off_at_table", "mild_shown", "players_shown")
        help_texts = {
            "off_at_table": gettext_lazy("The players' chat is not shown at your table."),
            "mild_shown": gettext_lazy(
                "Words such as “damn” or “хрен” shown as written; slurs and obscenities stay"
                " masked."
            ),
            "players_shown": gettext_lazy(
                "Those watching your matches may read what you and your opponent say to each"
                " other, without writing there, when your opponent lets them too and the club"
                " allows it."
            ),
        }


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """A member's own chat settings."""
    if not service.is_member(request.user):
        raise PermissionDenied("members only")
    form = PreferenceForm(request.POST or None, instance=service.preference(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, gettext("Saved."))
        return redirect("chat_settings")
    status = 400 if request.method == "POST" else 200
    return render(request, "chat/settings.html", {"form": form}, status=status)
