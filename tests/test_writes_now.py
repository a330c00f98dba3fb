"""snooker_site/writes_now.py: a TCP connection's bytes are on the socket when written, and
what the socket cannot take waits for the reactor as before, in order."""

from __future__ import annotations

import socket
from typing import Any

from twisted.internet import tcp
from twisted.internet.protocol import Protocol

from snooker_site import writes_now


class _Reactor:
    """Just what a connection asks of its reactor when it must wait to write."""

    def __init__(self) -> None:
        self.writers: set[Any] = set()  # as a reactor's: one entry a descriptor

    def addWriter(self, writer: Any) -> None:  # Twisted's name
        self.writers.add(writer)

    def removeWriter(self, writer: Any) -> None:
        self.writers.discard(writer)

    def addReader(self, reader: Any) -> None:
        pass

    def removeReader(self, reader: Any) -> None:
        pass


def _connection() -> tuple[tcp.Connection, socket.socket, _Reactor]:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    reactor = _Reactor()
    connection = tcp.Connection(ours, Protocol(), reactor)  # type: ignore[arg-type]
    connection.connected = True
    return connection, theirs, reactor


def _read(peer: socket.socket) -> bytes:
    got = b""
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return got
        if not chunk:
            return got
        got += chunk


def test_a_write_is_on_the_socket_at_once_and_the_reactor_is_not_asked() -> None:
    writes_now.install()
    connection, peer, reactor = _connection()
    connection.write(b"ack")
    connection.write(b"event")
    assert _read(peer) == b"ackevent"
    assert not reactor.writers


def test_what_the_socket_cannot_take_waits_for_the_reactor_in_order() -> None:
    writes_now.install()
    connection, peer, reactor = _connection()
    big = bytes(range(256)) * 40_000  # far more than a socket pair's buffers hold
    connection.write(big)
    connection.write(b"after")  # behind what waits: buffered, not sent ahead of it
    assert reactor.writers == {connection}
    got = _read(peer)
    assert 0 < len(got) < len(big)
    while reactor.writers:  # the reactor's turns: the socket writable again
        connection.doWrite()
        got += _read(peer)
    assert got == big + b"after"
