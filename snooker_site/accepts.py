"""Connections from an address turned away for flooding, closed as they are accepted.

`game.middleware.TurnAway` refuses a stranger's handshake from such an address before sessions,
authentication and a consumer are set up, but by then daphne has parsed it, autobahn has set up
a websocket for it and an application instance has started: on a slow day, with 130 of them a
second, that was a quarter of the server's samples and most of its collector's work (each
leaves some forty objects in reference cycles), and the players' acks waited behind it
(docs/performance.md, "Refused at accept"). When daphne faces the clients itself (no trusted
proxy: the peer is the client), the gate's judgement is applied as Twisted's listening port
accepts the connection: the factory builds no protocol for it, and the port closes the socket
before a byte is read.

At accept nothing says who knocks, so an address from which a member's socket came within the
hour is let on (`GATE.closed_at_accept`): a member behind the same NAT as a flooder must still
reach the table, where their session exempts them. Behind a proxy the peer is the proxy, which
limits each address in front (deploy/nginx/): nothing is closed here.

daphne has no hook for this (its server builds its own factory), so `install` wraps the
factory's `buildProtocol`, once, when the application module loads, before daphne listens.
"""

from __future__ import annotations

from typing import Any

from daphne.http_protocol import HTTPFactory

from accounts import addresses
from game.gates import GATE


def closed(peer: str | None) -> bool:
    """Whether a new connection from `peer` is closed as it is accepted."""
    # The gate's fast path first: with nobody turned away, not even the address is parsed.
    if not GATE.penalised or not peer or addresses.trusted_proxies():
        return False
    return GATE.closed_at_accept(addresses.grouped(peer))


def install() -> None:
    if getattr(HTTPFactory.buildProtocol, "gated", False):
        return
    build = HTTPFactory.buildProtocol

    def buildProtocol(factory: HTTPFactory, addr: Any) -> Any:  # Twisted's name
        if closed(getattr(addr, "host", None)):
            return None  # Twisted's port closes the socket
        return build(factory, addr)

    buildProtocol.gated = True  # type: ignore[attr-defined]
    HTTPFactory.buildProtocol = buildProtocol
