"""Forms for the pages around the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from game import accounts

if TYPE_CHECKING:
    _UserCreationForm = UserCreationForm[User]
else:  # the stubs' generic is not subscriptable at run time
    _UserCreationForm = UserCreationForm


class SignUpForm(_UserCreationForm):
    """Joining the club: a name no member's looks like (game/accounts.py), a password, and an
    e-mail address for resetting a forgotten password."""

    email = forms.EmailField(
        required=False, help_text="Optional; only used to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        # Django's check (the name taken, in any case) returns None when it refuses the name.
        username: str | None = super().clean_username()
        if username:
            accounts.validate_new_username(username)
        return username  # type: ignore[return-value]


class NewMatchForm(forms.Form):
    opponent = forms.CharField(max_length=150, help_text="The username of the player you meet.")
    best_of = forms.TypedChoiceField(
        choices=[(n, f"Best of {n}") for n in (1, 3, 5, 7, 9, 11, 17, 19, 25, 35)],
        coerce=int,
        initial=3,
    )
    shot_clock = forms.TypedChoiceField(
        choices=[(0, "No shot clock"), (30, "30 seconds"), (45, "45 seconds"), (60, "60 seconds")],
        coerce=int,
        initial=0,
        required=False,
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_opponent(self) -> Any:
        name = self.cleaned_data["opponent"].strip()
        opponent = get_user_model().objects.filter(username__iexact=name).first()
        if opponent is None:
            raise forms.ValidationError(f"No member is called {name!r}.")
        if opponent.pk == self.user.pk:
            raise forms.ValidationError("Pick someone other than yourself.")
        return opponent
