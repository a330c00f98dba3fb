"""The one client address every per-address limit counts (accounts/addresses.py): the entry
the trusted proxies added to X-Forwarded-For, never one the client wrote; IPv6 per /64."""

from __future__ import annotations

from django.test import RequestFactory
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts import addresses
from accounts.addresses import client, grouped


def test_without_trusted_proxies_the_peer_is_the_client() -> None:
    assert client("198.51.100.4", ["203.0.113.9"], 0) == "198.51.100.4"
    assert client(None, [], 0) == "unknown"  # a unix socket's peer, no proxy: one bucket


def test_the_client_is_the_entry_the_trusted_proxy_added() -> None:
    # nginx sets the header (proxy_set_header X-Forwarded-For $remote_addr) ...
    assert client("127.0.0.1", ["203.0.113.9"], 1) == "203.0.113.9"
    # ... or appends to what the client forged (proxy_add_x_forwarded_for): the right hop wins.
    assert client("127.0.0.1", ["6.6.6.6, 203.0.113.9"], 1) == "203.0.113.9"
    assert client("127.0.0.1", ["6.6.6.6", "7.7.7.7, 203.0.113.9"], 1) == "203.0.113.9"
    # Two proxies: a load balancer, then nginx, each appending its peer.
    assert client("10.0.0.2", ["6.6.6.6, 203.0.113.9, 10.0.0.1"], 2) == "203.0.113.9"
    # A chain shorter than the proxies said (a proxy added nothing): its left-most entry.
    assert client("127.0.0.1", [], 1) == "127.0.0.1"
    assert client("127.0.0.1", [" , "], 1) == "127.0.0.1"


def test_ipv6_counts_per_64_everywhere() -> None:
    assert grouped("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::"
    assert grouped("[2001:db8:1:2::7]:443") == "2001:db8:1:2::"
    assert grouped("::ffff:192.0.2.1") == "192.0.2.1"
    assert grouped("not an address") == "not an address"
    assert client("::1", ["2001:db8:1:2:ffff::1"], 1) == "2001:db8:1:2::"


def test_requests_and_sockets_are_read_the_same_way(settings: SettingsWrapper) -> None:
    settings.TRUSTED_PROXIES = 1
    forged = "6.6.6.6, 2001:db8:5:6::9"
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forged)
    scope = {"client": ["127.0.0.1", 5], "headers": [(b"x-forwarded-for", forged.encode())]}
    assert addresses.of_request(request) == addresses.of_scope(scope) == "2001:db8:5:6::"
    assert addresses.of_scope({**scope, "address": "kept"}) == "kept"  # TurnAway's, once
    settings.TRUSTED_PROXIES = 0
    assert addresses.of_request(request) == addresses.of_scope(scope) == "127.0.0.1"
