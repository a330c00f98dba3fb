"""After an upgrade that changed the protocol, a page opened before it reloads itself once to
get the new scripts (static/js/upgrade.js), and only once: a page still refused after its
reload stays, rather than reloading for ever."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.conftest import Server, login

REFUSAL = json.dumps(
    {"type": "error", "code": "protocol", "client_id": None,
     "message": "this server speaks protocol 2, not 1; reload the page"}
)  # fmt: skip


def test_a_page_of_an_older_protocol_reloads_itself_once(browser: Any, server: Server) -> None:
    context = browser.new_context()
    login(context, server, "carol")
    hellos: list[dict[str, Any]] = []
    sockets = {"count": 0}

    def upgraded(ws: Any) -> None:
        """The server, upgraded meanwhile, refuses the page's hello. The page's first socket
        is refused only; after that the real server answers too, after the refusal, so that
        its welcome shows the refusal was handled (in order) without another reload."""
        sockets["count"] += 1
        real = ws.connect_to_server() if sockets["count"] > 1 else None
        if real is not None:
            real.on_message(lambda text: ws.send(text))

        def from_page(text: str | bytes) -> None:
            message = json.loads(text)
            if message["type"] == "hello":
                hellos.append(message)
                ws.send(REFUSAL)
            if real is not None:
                real.send(text)

        ws.on_message(from_page)

    context.route_web_socket("**/ws/watch/**", upgraded)  # carol watches: the crowd's path
    page = context.new_page()
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    page.goto(f"{server.url}/match/{server.match_id}/")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    assert len(hellos) == 2  # the first page's, then the reloaded page's
    assert len(loads) == 2  # the page, and its one reload
    assert page.evaluate("() => sessionStorage.getItem('snooker.reloadedForProtocol')")
    context.close()
