"""The account pages of our own: joining the club, and password reset with its throttles.
Logging in and out and changing a password are Django's own views (accounts/urls.py), with our
templates (accounts/templates/registration/)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import limits, signals
from accounts.forms import SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    wait = limits.throttled_by_address(request, "signup", settings.SNOOKER_SIGNUP_RATE)
    if wait is not None:
        return limits.too_many(request, "sign-up", wait)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        previous = request.user if request.user.is_authenticated else None
        user = form.save()
        # A guest who joins may keep what they played as one (accounts/signals.py).
        signals.joined.send(sender=signup, member=user, previous=previous)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("index")
    return render(request, "registration/signup.html", {"form": form})


_password_reset = auth_views.PasswordResetView.as_view()


def _reset_email(group: str, request: HttpRequest) -> str:
    return str(request.POST.get("email", "")).strip().casefold()


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponseBase:
    """Django's password reset, counted per address and per e-mail address."""
    rate = settings.SNOOKER_PASSWORD_RESET_RATE
    wait = limits.throttled_by_address(request, "password_reset", rate)
    if wait is None:
        wait = limits.throttled(request, "password_reset_email", rate, _reset_email)
    if wait is not None:
        return limits.too_many(request, "password reset", wait)
    return _password_reset(request)
