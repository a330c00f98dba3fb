"""The organisers' pages in Django's admin (`/admin/`): the ladders and their settings, the
members on each (put one on, move one by hand, remove an inactive one), the history (void a
result), challenges to read. The ratings' pages are the ratings' (ratings/admin.py).

Nothing that changes standings is written here: every such change goes through
`ladder.service` (recorded in the history, with the organiser and a note, positions and
ratings recomputed as the rules say). The positions and the history are shown, never edited
as fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

from ladder import service
from ladder.models import HistoryEntry, Ladder, LadderChallenge, Rung
from ladder.service import LadderError
from ladder.text import error_text
from ratings.admin import NoteForm, ReadOnly, note_of, organiser

if TYPE_CHECKING:
    _Admin = admin.ModelAdmin[Any]
    _RungInline = admin.TabularInline[Rung, Ladder]
    _RungForm = forms.ModelForm[Rung]
else:  # the stubs' generics are not subscriptable at run time
    _Admin = admin.ModelAdmin
    _RungInline = admin.TabularInline
    _RungForm = forms.ModelForm


class RungInline(_RungInline):
    """The ladder's standings, to read (changed from the places' own pages)."""

    model = Rung
    fields = ("position", "member", "form", "last_active", "engaged")
    readonly_fields = fields
    ordering = ("position",)
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Ladder)
class LadderAdmin(_Admin):
    list_display = (
        "name", "slug", "main", "open", "places_above", "best_of", "answer_time", "play_time",
        "default_result", "decline_counts_as_loss", "handicap",
    )  # fmt: skip
    prepopulated_fields = {"slug": ("name",)}
    inlines = (RungInline,)


class RungForm(_RungForm):
    """Adding: a ladder and a member (at the bottom). Changing: the position to move them to
    (not the model's field: the move shifts others, which one row's form cannot say)."""

    new_position = forms.IntegerField(label=gettext_lazy("Position"), min_value=1, required=False)
    note = forms.CharField(
        label=gettext_lazy("Note"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("Why (kept in the ladder's history)."),
    )

    class Meta:
        model = Rung
        fields = ("ladder", "member")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["new_position"].initial = self.instance.position


@admin.register(Rung)
class RungAdmin(_Admin):
    """A member's place: adding one puts a member at the bottom, changing the position moves
    them by hand, deleting removes them (everyone below moves up); each is recorded."""

    form = RungForm
    action_form = NoteForm
    actions = ("remove_members",)
    list_display = ("ladder", "position", "member", "form", "last_active", "engaged")
    list_filter = ("ladder", "last_active")
    search_fields = ("member__username",)
    ordering = ("ladder", "position")
    list_select_related = ("ladder", "member")

    def get_fields(self, request: HttpRequest, obj: Rung | None = None) -> tuple[str, ...]:
        if obj is None:
            return ("ladder", "member", "note")
        return ("ladder", "member", "new_position", "form", "joined", "last_active", "note")

    def get_readonly_fields(self, request: HttpRequest, obj: Rung | None = None) -> list[str]:
        return [] if obj is None else ["ladder", "member", "form", "joined", "last_active"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # removals go through the service, recorded
        return actions

    def save_model(self, request: HttpRequest, obj: Rung, form: Any, change: bool) -> None:
        try:
            if not change:
                made = service.join(obj.ladder_id, obj.member, by=organiser(request))
                obj.pk, obj.position = made.pk, made.position
                return
            to = form.cleaned_data.get("new_position")
            if to is not None and to != obj.position:
                service.move(
                    obj.ladder_id, obj.member, to, organiser(request),
                    form.cleaned_data.get("note", ""),
                )  # fmt: skip
            obj.refresh_from_db()
        except LadderError as exc:
            # The form was valid, the rules said no: say why, and change nothing.
            self.message_user(request, error_text(exc.code), messages.ERROR)
            if obj.pk:
                obj.refresh_from_db()

    def delete_model(self, request: HttpRequest, obj: Rung) -> None:
        # A challenge of theirs on this ladder is withdrawn: both parties are told (on commit).
        service.remove(obj.ladder_id, obj.member, organiser(request), note_of(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Rung]) -> None:
        for rung in queryset.select_related("member"):
            self.delete_model(request, rung)

    @admin.action(description=gettext_lazy("Remove the selected members from their ladder"))
    def remove_members(self, request: HttpRequest, queryset: QuerySet[Rung]) -> None:
        rungs = list(queryset.select_related("member"))
        for rung in rungs:
            self.delete_model(request, rung)
        self.message_user(
            request, gettext("Removed %(n)s member(s); recorded.") % {"n": len(rungs)}
        )


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ReadOnly):
    """The history; *flagged*: a match not played out that the fixtures' rule settled by its
    score, by the ladder's default rule, or not at all (rules.fixtures.unplayed), for an
    organiser to look at and, if it should not stand, void."""

    action_form = NoteForm
    actions = ("void_results",)
    list_display = (
        "at", "ladder", "kind", "member", "other", "how", "match_id", "flagged", "voided", "by",
    )  # fmt: skip
    list_filter = ("flagged", "ladder", "kind", "voided")
    search_fields = ("member__username", "other__username")
    list_select_related = ("ladder", "member", "other", "by")

    @admin.action(description=gettext_lazy("Void the selected results (recomputes the ladder)"))
    def void_results(self, request: HttpRequest, queryset: QuerySet[HistoryEntry]) -> None:
        done = 0
        for pk in queryset.order_by("pk").values_list("pk", flat=True):
            try:
                service.void(pk, organiser(request), note_of(request))
                done += 1
            except LadderError as exc:
                self.message_user(request, f"#{pk}: {error_text(exc.code)}", messages.WARNING)
        if done:
            self.message_user(request, gettext("Voided %(n)s result(s).") % {"n": done})


@admin.register(LadderChallenge)
class LadderChallengeAdmin(ReadOnly):
    list_display = (
        "created", "ladder", "challenger", "defender", "status", "outcome", "winner",
        "answer_by", "fixture__play_by", "fixture__start_at", "absent", "flagged",
        "fixture__match_id",
    )  # fmt: skip
    list_filter = ("flagged", "ladder", "status", "outcome")
    list_select_related = ("ladder", "challenger", "defender", "winner", "fixture")
