"""The club's websocket routes, mounted beside the match's by snooker_site/asgi.py."""

from typing import Any

from django.urls import path

from club.consumers import LobbyConsumer, NoticesConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/notices/", NoticesConsumer.as_asgi()),  # type: ignore[arg-type]
]
