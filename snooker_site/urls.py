from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    # The organisers' pages: members, the ladders and their settings (ladder/admin.py).
    path("admin/", admin.site.urls),
    path("ladder/", include("ladder.urls")),
    path("", include("club.urls")),
    path("", include("game.urls")),
    path("", include("members.urls")),
]
