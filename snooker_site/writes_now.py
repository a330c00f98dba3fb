"""A socket's bytes leave when they are written, not a turn of the event loop later.

Twisted (under daphne) buffers every write to a TCP connection and asks the reactor to tell
it when the socket can take it: one epoll registration, one callback in the loop's next turn
and one deregistration for every message to every socket. An event handed to a thousand
spectators paid that a thousand times (in a py-spy profile of bench-strangers under attack on
a busy machine, a sixth of the server's samples), and a player's ack waited for the next turn
of a loop also serving the crowd and the strangers. asyncio's own transports try the socket
first and buffer only what it does not take; so does this, for a plain TCP connection with
nothing waiting to go and no producer: what the socket does not take (it is full, or the
connection broke) is buffered as before, and the reactor's usual path sends it or finds the
connection lost. Nothing else changes: the same bytes, in the same order, on the same socket.
Installed by snooker_site/asgi.py in each server process; docs/performance.md has the figures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import tcp

_buffered: Callable[[Any, bytes], None] = tcp.Connection.write


def _write(self: Any, data: bytes) -> None:
    if (
        data
        and isinstance(data, bytes)
        and not self.TLS
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnected
        and self.producer is None
        and not self._tempDataBuffer
        and self.offset == len(self.dataBuffer)
    ):
        sent = self.writeSomeData(data)
        if isinstance(sent, int) and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _buffered(self, data)


def install() -> None:
    tcp.Connection.write = _write  # type: ignore[method-assign]
