from django.urls import path

from competitions import views

urlpatterns = [
    path("", views.competitions_page, name="competitions"),
    path("new/", views.new_competition, name="competition_new"),
    path("<int:competition_id>/", views.competition_page, name="competition"),
    path("<int:competition_id>/live/", views.competition_live, name="competition_live"),
    path("<int:competition_id>/enter/", views.enter, name="competition_enter"),
    path("<int:competition_id>/withdraw/", views.withdraw, name="competition_withdraw"),
    path("<int:competition_id>/close/", views.close_entry, name="competition_close"),
    path("<int:competition_id>/draw/", views.draw, name="competition_draw"),
    path("<int:competition_id>/award/", views.award, name="competition_award"),
    path(
        "<int:competition_id>/fixtures/<int:fixture_id>/start/",
        views.propose_start,
        name="competition_propose_start",
    ),
    path(
        "<int:competition_id>/fixtures/<int:fixture_id>/start/accept/",
        views.accept_start,
        name="competition_accept_start",
    ),
]
