"""The club's forms: a challenge's format, whom to challenge, a guest's name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext, gettext_lazy, ngettext

from club.lobby import is_guest
from rules.challenges import BEST_OF, SHOT_CLOCKS, Format


class FormatForm(forms.Form):
    best_of = forms.TypedChoiceField(label=gettext_lazy("Frames"), coerce=int, initial=3)
    shot_clock = forms.TypedChoiceField(
        label=gettext_lazy("Shot clock"), coerce=int, initial=0, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Worded in the request's language, from the rules' formats.
        best_of: Any = self.fields["best_of"]
        best_of.choices = [
            (n, ngettext("Best of %(n)s", "Best of %(n)s", n) % {"n": n}) for n in BEST_OF
        ]
        clock: Any = self.fields["shot_clock"]
        clock.choices = [(0, gettext("No shot clock"))] + [
            (s, ngettext("%(n)s second a stroke", "%(n)s seconds a stroke", s) % {"n": s})
            for s in SHOT_CLOCKS
        ]

    def format(self, rated: bool = False) -> Format:
        return Format(
            self.cleaned_data["best_of"], self.cleaned_data.get("shot_clock") or None, rated
        )


class ChallengeForm(FormatForm):
    opponent = forms.CharField(
        label=gettext_lazy("Opponent"),
        max_length=150,
        required=False,
        help_text=gettext_lazy(
            "A member's name; leave it empty for an open challenge anyone may take."
        ),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated"),
        required=False,
        initial=True,
        help_text=gettext_lazy("Proposed: the match is rated if your opponent agrees."),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_opponent(self) -> User | None:
        name = self.cleaned_data["opponent"].strip()
        if not name:
            return None
        opponent = get_user_model().objects.filter(username__iexact=name).first()
        if opponent is None or is_guest(opponent):
            raise forms.ValidationError(gettext("No member is called %(name)s.") % {"name": name})
        if opponent.pk == self.user.pk:
            raise forms.ValidationError(gettext("Pick someone other than yourself."))
        return opponent


class GuestForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=40,
        help_text=gettext_lazy("Shown at the table as “name (guest)”."),
    )
