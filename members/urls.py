from django.urls import path

from members import views

urlpatterns = [
    path("players/", views.directory, name="players"),
    path("players/<str:username>/", views.profile, name="player"),
    path("match/<int:match_id>/replay/", views.replay, name="replay"),
]
