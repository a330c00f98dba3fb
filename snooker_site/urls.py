from django.urls import include, path

urlpatterns = [
    path("", include("club.urls")),
    path("", include("game.urls")),
    path("", include("members.urls")),
]
