"""A page on another origin of this machine cannot act in a match with a member's cookie.

The attacker's page is served from another port of 127.0.0.1: same site, so the browser sends
Alice's session cookie with the websocket handshake. The handshake is refused and the match is
unchanged; the same script run from the club's own page does reach the table (the control).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import DESKTOP

# Opens the match socket, says hello and concedes the match; records what happens.
ATTACK = """
async ([url]) => {
  const seen = [];
  await new Promise((done) => {
    const ws = new WebSocket(url);
    ws.onopen = () => {
      ws.send(JSON.stringify({type: "hello", protocol: %(protocol)d, last_version: null}));
      ws.send(JSON.stringify({type: "concede", client_id: "hijack", scope: "match"}));
    };
    ws.onmessage = (e) => { seen.push(JSON.parse(e.data).type); if (seen.includes("ack")) done(); };
    ws.onclose = () => { seen.push("closed"); done(); };
    setTimeout(done, 5000);
  });
  return seen;
}
"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>A friendly page</title><p>Nothing to see.</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def attacker() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_a_foreign_page_cannot_concede_a_members_match(
    browser: Any, server: Server, attacker: str
) -> None:
    from game.protocol import PROTOCOL_VERSION

    match = server.new_match(3)
    context = browser.new_context(viewport=DESKTOP)
    login(context, match, "alice")
    socket = match.url.replace("http://", "ws://") + f"/ws/match/{match.match_id}/"
    script = ATTACK % {"protocol": PROTOCOL_VERSION}

    page = context.new_page()
    page.goto(attacker)
    assert page.evaluate(script, [socket]) == ["closed"]  # refused before any answer
    after = match.snapshot()
    assert after["version"] == 1 and after["winner"] is None and after["status"] == "live"

    # The control: the same script from the club's own origin is a player's request.
    page.goto(f"{match.url}/")
    assert "ack" in page.evaluate(script, [socket])
    assert match.snapshot()["winner"] == "B"
    context.close()
