from django.urls import include, path

from game import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/password_reset/", views.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
]
