from django.urls import path

from members import views

urlpatterns = [
    path("players/", views.directory, name="players"),
    path("member-names/", views.names, name="member_names"),
    path("players/<str:username>/", views.profile, name="player"),
    path("match/<int:match_id>/replay/", views.replay, name="replay"),
    path("time-zone/", views.time_zone, name="time_zone"),
]
