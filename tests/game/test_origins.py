"""Websocket handshakes from foreign pages or for foreign hosts are refused (docs/security.md)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from game.origins import handshake_allowed
from snooker_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("host", "origin", "allowed"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
        ("localhost:8000", "http://localhost:8000", True),
        ("127.0.0.1:8000", None, True),  # not a browser page: no one else's cookie
        ("127.0.0.1:8000", "http://127.0.0.1:9000", False),  # another port of the same host
        ("localhost:8000", "http://evil.localhost:8000", False),  # a sibling name
        ("127.0.0.1:8000", "null", False),  # a sandboxed frame or a file
        ("127.0.0.1:8000", "ftp://127.0.0.1:8000", False),
        ("evil.example:8000", "http://evil.example:8000", False),  # not one of ALLOWED_HOSTS
        ("", None, False),
    ],
)
def test_only_our_own_pages_and_hosts(host: str, origin: str | None, allowed: bool) -> None:
    assert handshake_allowed(host, origin) is allowed


def test_trusted_origins_are_listed(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CSRF_TRUSTED_ORIGINS = ["https://club.example.org"]
    assert handshake_allowed("127.0.0.1:8000", "https://club.example.org")
    assert not handshake_allowed("127.0.0.1:8000", "https://other.example.org")


async def _handshake(headers: list[tuple[bytes, bytes]], match) -> bool:  # type: ignore[no-untyped-def]
    ws = WebsocketCommunicator(application, f"/ws/match/{match.pk}/", headers=headers)
    connected, _ = await ws.connect()
    await ws.disconnect()
    return connected


async def test_the_site_refuses_a_foreign_origin_and_host(match) -> None:  # type: ignore[no-untyped-def]
    own = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]
    assert await _handshake(own, match)
    assert not await _handshake(
        [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8001")], match
    )
    assert not await _handshake([(b"host", b"attacker.example")], match)
