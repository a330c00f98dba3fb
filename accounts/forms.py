"""The sign-up form (logging in and the password pages use Django's own forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy

from accounts import names

if TYPE_CHECKING:
    _UserCreationForm = UserCreationForm[User]
else:  # the stubs' generic is not subscriptable at run time
    _UserCreationForm = UserCreationForm


class SignUpForm(_UserCreationForm):
    """Joining the club: a name no member's looks like (accounts/names.py), a password, and an
    e-mail address for resetting a forgotten password."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        required=False,
        help_text=gettext_lazy("Optional; only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        # Django's check (the name taken, in any case) returns None when it refuses the name.
        username: str | None = super().clean_username()
        if username:
            names.validate_new_username(username)
        return username  # type: ignore[return-value]
