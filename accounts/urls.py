from django.urls import include, path

from accounts import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    # Before Django's own pages, whose password reset this one wraps in its throttles.
    path("accounts/password_reset/", views.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
]
