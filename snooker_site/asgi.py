"""ASGI entry point: `daphne snooker_site.asgi:application`.

HTTP goes to Django (/static/ is WhiteNoise's, a middleware: snooker_site/static.py);
WebSocket goes through the session/auth stack to the routes in game/routing.py (the match) and
club/routing.py (the lobby, notices); a socket that meets an outage anywhere under it is closed
with the code its page reconnects on (game.middleware.OutagesClose).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snooker_site.settings")
# Set up Django before anything imports models (the consumers, the auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from club.routing import websocket_urlpatterns as club_routes  # noqa: E402
from game.middleware import OutagesClose, TurnAway  # noqa: E402
from game.origins import SameOriginWebsockets  # noqa: E402
from game.routing import websocket_urlpatterns as match_routes  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OutagesClose(
            SameOriginWebsockets(
                TurnAway(AuthMiddlewareStack(URLRouter([*match_routes, *club_routes])))
            )
        ),
    }
)

# The ladders' deadlines are settled, friendlies nobody started are abandoned, and the
# computer's turns left waiting picked up, by every server process, from when its loop starts.
from club.jobs import start_with_the_server as start_club_jobs  # noqa: E402
from computer.driver import start_with_the_server as start_computer  # noqa: E402
from game.balance import start_with_the_server as start_balancing  # noqa: E402
from game.supervise import quiet_with_the_server  # noqa: E402
from ladder.jobs import start_with_the_server  # noqa: E402
from snooker_site import accepts  # noqa: E402

accepts.install()  # a flooding address closed at accept (daphne facing the clients)

start_with_the_server()
start_club_jobs()
start_computer()  # a computer's turn left waiting by a restart
start_balancing()  # sockets spread over the processes again after a rolling restart
quiet_with_the_server()  # an outage met by a task nobody awaits: one line, not a traceback

# The collector, tuned for a server: everything loaded at start-up is frozen out of its
# scans, the young generation is collected every 2,000 allocations instead of 700, and the
# older ones far less often than by default. With the defaults, full collections over a
# thousand sockets' objects stalled the event loop for tens of milliseconds. But every
# connection, even one refused at the handshake, leaves about forty objects in reference
# cycles (Twisted's channel and request, daphne's and autobahn's protocol): at 50,000
# allocations, a storm of strangers' handshakes piled up tens of thousands of them between
# collections, 30-50 ms to free each time and 200 ms at the next generation. The middle
# generation is collected every 10 young collections (not 50): under that storm it held five
# times as many survivors, 55-70 ms to scan each time, the longest stall of the event loop;
# now 15-20 ms, five times as often. The oldest every 500 of those, as often as before.
# Figures in docs/performance.md ("Live play", "Strangers", "Through the proxy").
gc.freeze()
gc.set_threshold(2_000, 10, 500)
