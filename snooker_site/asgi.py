"""ASGI entry point: `daphne snooker_site.asgi:application`.

HTTP goes to Django, wrapped so that /static/ is served by the same process (no collectstatic
or separate file server needed); WebSocket goes through the session/auth stack to the routes
in game/routing.py.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snooker_site.settings")
# Set up Django before anything imports models (the consumers, the auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from game.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": ASGIStaticFilesHandler(django_asgi_app),
        "websocket": AuthMiddlewareStack(URLRouter(websocket_urlpatterns)),
    }
)
