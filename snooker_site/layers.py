"""The channel layers: channels_redis's for several processes (`redis_layer`), and for one
process channels' in-memory layer, with expiry swept once a second.

Channels' `InMemoryChannelLayer.receive` sweeps every channel and every group member for
expired messages before each receive, so with a thousand sockets in a process every message
any of them receives cost a thousand steps: profiled under a crowd, a third of the server's
time. Messages expire after a minute; sweeping once a second changes nothing else.
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer


def redis_layer(url: str, prefix: str) -> dict[str, Any]:
    """The channel layer of several processes sharing the Redis at `url` (settings, REDIS_URL);
    `prefix` keeps runs that share one Redis (clubs, parallel test runs, benchmarks) apart.

    No client-side socket timeout. redis-py 8 gives each connection a 5 s one by default, the
    same 5 s channels_redis blocks in BZPOPMIN, so a layer idle for 5 s raised TimeoutError
    into a consumer. With any timeout set, redis-py also writes each command through
    `asyncio.wait_for`, which on Python 3.11 (fixed in 3.12) swallows a cancellation that
    arrives just as the write completes: a cancelled `receive` then goes on popping for ever.
    A match's relay (game/fanout.py), cancelled once as a server or a test's event loop ends,
    never ended (the full suite hung 300 s in a test's teardown). Every read is bounded
    without one: BZPOPMIN by Redis's own 5 s, the rest answer at once; a Redis that stops or
    restarts closes its connections, which fails them (tests/game/test_fanout.py).
    """
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": url, "socket_timeout": None}], "prefix": prefix},
    }


class SweptInMemoryChannelLayer(InMemoryChannelLayer):
    SWEEP_EVERY = 1.0  # seconds

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= self.SWEEP_EVERY:
            self._swept = now
            super()._clean_expired()  # type: ignore[misc]
