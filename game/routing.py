"""WebSocket routes, mounted by snooker_site/asgi.py.

A match has two: its players' pages open `/ws/match/<id>/`, everyone else's (the crowd)
`/ws/watch/<id>/`. The server treats both alike (a member's seat is theirs on either, a
stranger is a spectator on either): the path only lets a proxy send the crowd to processes of
its own (deploy/nginx/snooker.conf, `SNOOKER_CROWD`), so that a thousand spectators and
their chat do not share the players' event loop (docs/chat.md, "Load")."""

from typing import Any

from django.urls import path

from game.consumers import MatchConsumer

# Django's `path` is typed for views; channels mounts ASGI applications with it.
websocket_urlpatterns: list[Any] = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi(), {"crowd": False}),  # type: ignore[arg-type]
    path("ws/watch/<int:match_id>/", MatchConsumer.as_asgi(), {"crowd": True}),  # type: ignore[arg-type]
]
