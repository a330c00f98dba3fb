"""The page to play the computer: the level and the format, then to the table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from computer import service
from computer.models import Computer
from rules.challenges import BEST_OF

LEVEL_NAMES = {
    Computer.Level.NOVICE: gettext_lazy("Novice"),
    Computer.Level.CLUB: gettext_lazy("Club player"),
    Computer.Level.PRO: gettext_lazy("Professional"),
}
ERRORS = {
    "members_only": gettext_lazy("Only members play the computer."),
    "rate_limited": gettext_lazy("Too many matches against the computer this hour."),
    "bad_level": gettext_lazy("Choose a level."),
}


class ComputerForm(forms.Form):
    level = forms.ChoiceField(label=gettext_lazy("Level"), initial=Computer.Level.CLUB)
    best_of = forms.TypedChoiceField(label=gettext_lazy("Frames"), coerce=int, initial=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        level: Any = self.fields["level"]
        level.choices = list(LEVEL_NAMES.items())
        best_of: Any = self.fields["best_of"]
        best_of.choices = [
            (n, ngettext("Best of %(n)s", "Best of %(n)s", n) % {"n": n}) for n in BEST_OF
        ]


@login_required
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """Play the computer: never rated, the result on the member's profile like a practice."""
    form = ComputerForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        user = request.user
        assert isinstance(user, User)
        try:
            match = service.play_computer(
                user, form.cleaned_data["level"], form.cleaned_data["best_of"]
            )
        except service.ComputerError as exc:
            form.add_error(None, str(ERRORS.get(exc.code, exc.code)))
            status = 429 if exc.code == "rate_limited" else 409
        else:
            return redirect("match", match_id=match.pk)
    return render(request, "computer/play.html", {"form": form}, status=status)
