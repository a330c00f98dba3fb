"""WebSocket routes, mounted by snooker_site/asgi.py."""

from typing import Any

from django.urls import path

from game.consumers import MatchConsumer

# Django's `path` is typed for views; channels mounts ASGI applications with it.
websocket_urlpatterns: list[Any] = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),  # type: ignore[arg-type]
]
