from django.contrib import admin
from django.urls import include, path

from snooker_site import views

urlpatterns = [
    # A match's page: its table while it is played, its record once finished.
    path("match/<int:match_id>/", views.match_page, name="match"),
    # One click to play the computer, for anyone (a visitor as a guest).
    path("computer/now/", views.play_computer_now, name="play_computer_now"),
    # A replay's position at a table of the member's own (docs/coach.md, "Play from here").
    path("match/<int:match_id>/replay/play-from/", views.play_from_here, name="play_from_here"),
    # A saved position (the position editor's) at a table of the member's own.
    path("practice/position/<int:position_id>/play/", views.play_position, name="play_position"),
    # The organisers' pages: members, the ladders and their settings (ladder/admin.py).
    path("admin/", admin.site.urls),
    path("ladder/", include("ladder.urls")),
    path("competitions/", include("competitions.urls")),
    path("chat/", include("chat.urls")),
    path("", include("club.urls")),
    path("", include("accounts.urls")),
    path("", include("game.urls")),
    path("", include("members.urls")),
    path("", include("computer.urls")),
    # The language switch in the header posts here (Django's set_language: CSRF-checked, the
    # choice kept in the language cookie, back to `next` when it is this site's).
    path("i18n/", include("django.conf.urls.i18n")),
]
