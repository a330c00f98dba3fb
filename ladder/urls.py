from django.urls import path

from ladder import views

urlpatterns = [
    path("", views.ladder_page, name="ladder"),
    path("history/", views.history, name="ladder_history_all"),
    path("matches/<int:challenge_id>/start/", views.propose_start, name="ladder_propose_start"),
    path(
        "matches/<int:challenge_id>/start/accept/", views.accept_start, name="ladder_accept_start"
    ),
    path("matches/<int:match_id>/start/panel/", views.start_panel, name="ladder_start_panel"),
    path("<slug:slug>/", views.ladder_page, name="ladder_of"),
    path("<slug:slug>/live/", views.ladder_live, name="ladder_live"),
    path("<slug:slug>/history/", views.history, name="ladder_history"),
    path("<slug:slug>/join/", views.join, name="ladder_join"),
    path("<slug:slug>/challenge/", views.challenge, name="ladder_challenge"),
]
