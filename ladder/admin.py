"""The organisers' pages in Django's admin (`/admin/`): the ladders and their settings, the
members on each (put one on, move one by hand, remove an inactive one), the history (void a
result), rated results (void a friendly's; the filter "looks wrong" lists those rated with
hardly a stroke and those of pairs over the cap), challenges and ratings to read.

Nothing that changes standings is written here: every such change goes through
`ladder.service` (recorded in the history, with the organiser and a note, positions and
ratings recomputed as the rules say). The positions, the history and the ratings are shown,
never edited as fields.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.models import User
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

from ladder import service
from ladder.models import (
    HistoryEntry,
    Ladder,
    LadderChallenge,
    RatedResult,
    Rating,
    RatingChange,
    Rung,
)
from ladder.service import LadderError
from ladder.text import error_text
from rules.ratings import Effect

if TYPE_CHECKING:
    _Admin = admin.ModelAdmin[Any]
    _RungInline = admin.TabularInline[Rung, Ladder]
    _RungForm = forms.ModelForm[Rung]
else:  # the stubs' generics are not subscriptable at run time
    _Admin = admin.ModelAdmin
    _RungInline = admin.TabularInline
    _RungForm = forms.ModelForm


class NoteForm(ActionForm):
    """The action bar's extra field: why (kept in the history)."""

    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)


def _organiser(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # the admin lets in staff only
    return user


def _note(request: HttpRequest) -> str:
    return str(request.POST.get("note", ""))[:200]


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
        "default_result", "decline_counts_as_loss",
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
                made = service.join(obj.ladder_id, obj.member, by=_organiser(request))
                obj.pk, obj.position = made.pk, made.position
                return
            to = form.cleaned_data.get("new_position")
            if to is not None and to != obj.position:
                service.move(
                    obj.ladder_id, obj.member, to, _organiser(request),
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
        service.remove(obj.ladder_id, obj.member, _organiser(request), _note(request))

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


class ReadOnly(_Admin):
    """Shown, never edited here: the service writes these rows."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ReadOnly):
    """The history; *flagged*: an unplayed match the ladder's default rule settled because
    neither or both players came (rules.ladder.unplayed), for an organiser to look at and,
    if it should not stand, void."""

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
                service.void(pk, _organiser(request), _note(request))
                done += 1
            except LadderError as exc:
                self.message_user(request, f"#{pk}: {error_text(exc.code)}", messages.WARNING)
        if done:
            self.message_user(request, gettext("Voided %(n)s result(s).") % {"n": done})


def _strokes() -> Any:
    """The strokes both players played in a result's match, from its stored events (results
    rated before the count was kept have it too)."""
    events = (
        service.stroke_events()
        .filter(match=OuterRef("match"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(events, output_field=IntegerField())


def _pair_before() -> Any:
    """How many results of the same pair changed the ratings in the window before this one."""
    window = timedelta(days=settings.RATINGS["PAIR_WINDOW_DAYS"])
    earlier = (
        RatedResult.objects.filter(
            Q(player_a=OuterRef("player_a"), player_b=OuterRef("player_b"))
            | Q(player_a=OuterRef("player_b"), player_b=OuterRef("player_a")),
            Q(at__lt=OuterRef("at")) | Q(at=OuterRef("at"), pk__lt=OuterRef("pk")),
            at__gt=OuterRef("at") - window,
            voided=False,
            unrated=Effect.RATED,
        )
        .order_by()
        .values("unrated")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(earlier, output_field=IntegerField())


class LooksWrong(admin.SimpleListFilter):
    """What an organiser should look at: results that changed the ratings with hardly any
    play, or of a pair over the cap (from before the cap, or recorded as unrated), and
    those recorded unrated because a player never struck."""

    title = gettext_lazy("looks wrong")
    parameter_name = "looks"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("few_strokes", gettext_lazy("rated with fewer than %(n)s strokes")
             % {"n": settings.RATINGS["FEW_STROKES"]}),
            ("over_cap", gettext_lazy("a pair over the cap")),
            ("no_play", gettext_lazy("unrated: a player never played a stroke")),
        ]  # fmt: skip

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        rated = queryset.filter(voided=False, unrated=Effect.RATED)
        if self.value() == "few_strokes":
            return rated.filter(
                Q(strokes_count__lt=settings.RATINGS["FEW_STROKES"]) | Q(strokes_count=None)
            )
        if self.value() == "over_cap":
            over = Q(pair_before__gte=settings.RATINGS["PAIR_CAP"])
            return queryset.filter(voided=False).filter(over | Q(unrated=Effect.PAIR_CAP))
        if self.value() == "no_play":
            return queryset.filter(unrated=Effect.NO_PLAY)
        return queryset


@admin.register(RatedResult)
class RatedResultAdmin(ReadOnly):
    action_form = NoteForm
    actions = ("void_ratings",)
    list_display = (
        "at", "match_id", "player_a", "player_b", "score_a", "ladder", "strokes", "pair",
        "unrated", "voided",
    )  # fmt: skip
    list_filter = (LooksWrong, "unrated", "voided", "ladder")
    search_fields = ("player_a__username", "player_b__username")
    list_select_related = ("player_a", "player_b", "ladder")

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatedResult]:
        rows: QuerySet[RatedResult] = super().get_queryset(request)
        return rows.annotate(strokes_count=_strokes(), pair_before=Coalesce(_pair_before(), 0))

    @admin.display(description=gettext_lazy("strokes"), ordering="strokes_count")
    def strokes(self, obj: Any) -> int:
        return int(obj.strokes_count or 0)

    @admin.display(description=gettext_lazy("pair's rated results in the window before"))
    def pair(self, obj: Any) -> int:
        return int(obj.pair_before)

    @admin.action(
        description=gettext_lazy("Void the selected results for the ratings (the ladder stays)")
    )
    def void_ratings(self, request: HttpRequest, queryset: QuerySet[RatedResult]) -> None:
        for pk in queryset.filter(voided=False).values_list("pk", flat=True):
            service.void_rating(pk, _organiser(request), _note(request))
        self.message_user(request, gettext("The ratings were recomputed."))


@admin.register(LadderChallenge)
class LadderChallengeAdmin(ReadOnly):
    list_display = (
        "created", "ladder", "challenger", "defender", "status", "outcome", "winner",
        "answer_by", "play_by", "start_at", "absent", "flagged", "match_id",
    )  # fmt: skip
    list_filter = ("flagged", "ladder", "status", "outcome")
    list_select_related = ("ladder", "challenger", "defender", "winner")


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("member", "rating", "rd", "volatility", "played", "updated")
    search_fields = ("member__username",)
    ordering = ("-rating",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("at", "player", "before", "after", "result_id")
    search_fields = ("player__username",)
    list_select_related = ("player", "result")
