"""Who knocks: the one client address every per-address limit counts (logins, sign-ups and the
other forms' throttles, the socket gates and the strangers' handshake rate).

Behind `SNOOKER_TRUSTED_PROXIES` proxies (settings.TRUSTED_PROXIES; 0: none, the peer is the
client), the client is the entry the outermost trusted proxy added to X-Forwarded-For: counted
from the right, after the entries the trusted proxies added. Everything left of it was written
by the client and proves nothing; daphne's --proxy-headers takes the left-most entry, so it must
not be used (the peer then stays the proxy, and this module reads the header itself).

An IPv6 client counts per /64: one host owns a whole /64 and could otherwise take a fresh
address for every attempt. An IPv4-mapped IPv6 address is its IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest

UNKNOWN = "unknown"


def grouped(raw: str) -> str:
    """An address as the limits count it: IPv6 per /64, IPv4-mapped as IPv4; anything that is
    not an address (a unix socket's empty peer) as it is."""
    text = raw.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443", as some proxies write it
        text = text[1 : text.index("]")]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def client(peer: str | None, forwarded_for: Iterable[str], trusted: int) -> str:
    """The client's address (grouped) from the peer's and the X-Forwarded-For headers' values,
    in the order received, with `trusted` proxies in front.

    The chain is the header's entries followed by the peer: each proxy appends the address it
    was talking to. The last `trusted` hops are our proxies (the peer among them); the entry
    before them is the client as the outermost of them saw it. A chain shorter than that (a
    proxy that sets no header) gives its left-most entry: the best there is, and never an
    entry the client wrote, since no trusted proxy left one in."""
    chain = [entry.strip() for value in forwarded_for for entry in value.split(",")]
    chain = [entry for entry in chain if entry]
    chain.append(peer or UNKNOWN)
    return grouped(chain[max(0, len(chain) - 1 - trusted)])


def trusted_proxies() -> int:
    return int(settings.TRUSTED_PROXIES)


def of_request(request: HttpRequest) -> str:
    """A request's client (axes: AXES_CLIENT_IP_CALLABLE; the throttles' key)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    return client(
        str(request.META.get("REMOTE_ADDR") or ""),
        [forwarded] if forwarded else [],
        trusted_proxies(),
    )


def of_scope(scope: Mapping[str, Any]) -> str:
    """A websocket's (or any ASGI connection's) client; computed once by `game.middleware.TurnAway`
    and kept in the scope as "address"."""
    known = scope.get("address")
    if isinstance(known, str):
        return known
    peer = scope.get("client")
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name.lower() == b"x-forwarded-for"
    ]
    return client(peer[0] if peer else None, forwarded, trusted_proxies())
