"""The club's forms: a challenge's format, whom to challenge, a guest's name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from club.lobby import is_guest
from club.service import party
from rules.challenges import BEST_OF, GUIDES, SHOT_CLOCKS, Format

# The aim guides in words (rules.challenges.GUIDES), short enough for a phone's select.
GUIDE_WORDS = {
    "full": gettext_lazy("Full"),
    "short": gettext_lazy("Short"),
}


class FormatForm(forms.Form):
    best_of = forms.TypedChoiceField(label=gettext_lazy("Frames"), coerce=int, initial=3)
    shot_clock = forms.TypedChoiceField(
        label=gettext_lazy("Shot clock"), coerce=int, initial=0, required=False
    )
    # Both players have the same guide; the club's default unless the challenger chooses.
    guide = forms.ChoiceField(
        label=gettext_lazy("Aim guide"),
        required=False,
        help_text=gettext_lazy(
            "Full: the cue ball's line goes on off the first cushion and the object ball's to "
            "the pocket; short: both stop at the first ball or cushion. Both players have the "
            "same."
        ),
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
        guide: Any = self.fields["guide"]
        guide.choices = [(g, GUIDE_WORDS[g]) for g in GUIDES]
        guide.initial = settings.SNOOKER["AIM_GUIDE"]

    def format(self, rated: bool = False) -> Format:
        return Format(
            self.cleaned_data["best_of"],
            self.cleaned_data.get("shot_clock") or None,
            rated,
            self.cleaned_data.get("guide") or None,
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
    handicap = forms.BooleanField(
        label=gettext_lazy("Handicap"),
        required=False,
        initial=False,
        help_text=gettext_lazy(
            "The weaker player starts every frame with points on the board, worked out from "
            "your two ratings when the challenge is accepted."
        ),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        # Members' names offered as the opponent is typed (static/js/names.js).
        self.fields["opponent"].widget.attrs.update(
            {"list": "member-names", "data-names": reverse("member_names"), "autocomplete": "off"}
        )
        # The service gives a rated match without a clock the club's (rules.challenges).
        self.fields["shot_clock"].help_text = gettext(
            "A rated match without one gets %(n)s seconds a stroke."
        ) % {"n": settings.CLUB["RATED_SHOT_CLOCK"]}

    def clean_opponent(self) -> User | None:
        name = self.cleaned_data["opponent"].strip()
        if not name:
            return None
        opponent = get_user_model().objects.filter(username__iexact=name).first()
        # A guest, a closed account or the computer (computer/, played from its own page)
        # is no member to challenge: named as if nobody were called so.
        if opponent is None or is_guest(opponent) or party(opponent).closed:
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
