from django.urls import include, path

urlpatterns = [
    path("", include("club.urls")),
    path("", include("game.urls")),
    path("", include("members.urls")),
    # The language switch in the header posts here (Django's set_language: CSRF-checked, the
    # choice kept in the language cookie, back to `next` when it is this site's).
    path("i18n/", include("django.conf.urls.i18n")),
]
