from django.urls import path

from computer import views

urlpatterns = [
    path("computer/", views.play, name="play_computer"),
    path("computer/hint/<int:match_id>/", views.hint, name="computer_hint"),
    path("computer/fair-play/", views.fair_play, name="computer_fair_play"),
    path(
        "computer/analysis/<int:match_id>/<int:frame>/",
        views.analysis_view,
        name="computer_analysis",
    ),
]
