"""WebSocket routes, mounted by snooker_site/asgi.py. The live-play issue fills this list."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
