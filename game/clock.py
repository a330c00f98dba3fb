"""The time the match's server code reads and waits on: the wall clock, or one a test sets.

The service's functions take `now` as an argument, as the ladder's do (`ladder.jobs.settle`),
and default to `now()` here; the process's timers (shot clocks, heartbeats, the gate's rates)
read and wait through this module too. A test installs its own clock (`use`, with
tests/clock.py's `SetClock`) and moves it on, so that nothing waits for time to pass.
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

from django.utils import timezone


class Clock:
    """The wall clock."""

    def now(self) -> datetime:
        return timezone.now()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


WALL = Clock()
_clock: Clock = WALL


def use(clock: Clock) -> None:
    """Read and wait on `clock` from now on (tests; `use(WALL)` puts the wall clock back)."""
    global _clock
    _clock = clock


def now() -> datetime:
    return _clock.now()


def monotonic() -> float:
    """Seconds on a clock that never goes back, for rates and intervals."""
    return _clock.monotonic()


async def sleep(seconds: float) -> None:
    await _clock.sleep(seconds)
