"""The organisers' pages for the ratings in Django's admin (`/admin/ratings/`): the rated
results (void one for the ratings; the filter "looks wrong" lists those rated with hardly a
stroke and those of pairs over the cap), the ratings and their changes, to read.

Nothing is written here: a void goes through `ratings.service.void` (the organiser and a note
kept, every rating recomputed). A ladder result is voided from the ladder's history
(ladder/admin.py), which voids its rating too. `ReadOnly` and the note's form serve the
ladder's pages as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.models import User
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

from ratings import service
from ratings.models import RatedResult, Rating, RatingChange
from rules.ratings import Effect

if TYPE_CHECKING:
    _Admin = admin.ModelAdmin[Any]
else:  # the stubs' generics are not subscriptable at run time
    _Admin = admin.ModelAdmin


class NoteForm(ActionForm):
    """The action bar's extra field: why (kept in the history)."""

    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)


def organiser(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # the admin lets in staff only
    return user


def note_of(request: HttpRequest) -> str:
    return str(request.POST.get("note", ""))[:200]


class ReadOnly(_Admin):
    """Shown, never edited here: the service writes these rows."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]


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
    window = service.window()
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
    those recorded unrated for too little play (a player never struck, or too few strokes)."""

    title = gettext_lazy("looks wrong")
    parameter_name = "looks"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("few_strokes", gettext_lazy("rated with fewer than %(n)s strokes")
             % {"n": settings.RATINGS["FEW_STROKES"]}),
            ("over_cap", gettext_lazy("a pair over the cap")),
            ("no_play", gettext_lazy("unrated: too little play")),
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
            return queryset.filter(unrated__in=(Effect.NO_PLAY, Effect.LITTLE_PLAY))
        return queryset


@admin.register(RatedResult)
class RatedResultAdmin(ReadOnly):
    action_form = NoteForm
    actions = ("void_ratings",)
    list_display = (
        "at", "match_id", "kind", "player_a", "player_b", "score_a", "strokes", "pair",
        "unrated", "voided",
    )  # fmt: skip
    list_filter = (LooksWrong, "kind", "unrated", "voided")
    search_fields = ("player_a__username", "player_b__username")
    list_select_related = ("player_a", "player_b")

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
            service.void(pk, organiser(request), note_of(request))
        self.message_user(request, gettext("The ratings were recomputed."))


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
