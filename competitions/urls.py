from django.urls import path

from competitions import views

urlpatterns = [
    path("", views.competitions_page, name="competitions"),
    path("new/", views.new_competition, name="competition_new"),
    path("mail/", views.mail_choice, name="competition_mail"),
    path("<int:competition_id>/", views.competition_page, name="competition"),
    path("<int:competition_id>/live/", views.competition_live, name="competition_live"),
    path("<int:competition_id>/enter/", views.enter, name="competition_enter"),
    path("<int:competition_id>/withdraw/", views.withdraw, name="competition_withdraw"),
    path("<int:competition_id>/close/", views.close_entry, name="competition_close"),
    path("<int:competition_id>/draw/", views.draw, name="competition_draw"),
    path("<int:competition_id>/seeding/", views.seeding, name="competition_seeding"),
    path("<int:competition_id>/award/", views.award, name="competition_award"),
    path("<int:competition_id>/entrants/add/", views.add_entrant, name="competition_add"),
    path("<int:competition_id>/entrants/remove/", views.remove_entrant, name="competition_remove"),
    path("<int:competition_id>/both-out/", views.both_out, name="competition_both_out"),
    path("<int:competition_id>/deadline/", views.new_deadline, name="competition_deadline"),
    path("<int:competition_id>/record/", views.record, name="competition_record"),
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
