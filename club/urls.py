from django.urls import path

from club import views

urlpatterns = [
    path("", views.lobby_page, name="index"),
    path("recent/", views.recent_matches, name="recent_matches"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/invite/", views.invite_new, name="invite_new"),
    path("challenges/<int:challenge_id>/", views.challenge_page, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.accept, name="challenge_accept"),
    path("challenges/<int:challenge_id>/decline/", views.decline, name="challenge_decline"),
    path("challenges/<int:challenge_id>/withdraw/", views.withdraw, name="challenge_withdraw"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("practice/", views.practice, name="practice"),
    path("practice/drills/", views.drills_page, name="drills"),
    path("practice/drills/<str:key>/", views.drill_start, name="drill_start"),
    path("practice/position/", views.position_editor, name="position_editor"),
    path("practice/position/save/", views.position_save, name="position_save"),
    path("practice/position/<int:position_id>/", views.position_page, name="position"),
    path(
        "practice/position/<int:position_id>/delete/",
        views.position_delete,
        name="position_delete",
    ),
    path("matches/new/", views.new_match, name="new_match"),
    path("match/<int:match_id>/end/", views.match_end, name="match_end"),
    path("match/<int:match_id>/rematch/", views.rematch, name="rematch"),
    path("players/<str:username>/block/", views.block, name="block"),
    path("players/<str:username>/unblock/", views.unblock, name="unblock"),
    path("players/<str:username>/handicap/", views.handicap, name="handicap"),
]
