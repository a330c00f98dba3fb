"""A clock a test sets and moves on (game/clock.py), so that it waits for no timer.

async def test_...(set_clock):
    ...
    await set_clock.advance(1.1)  # the shot clock's timer fires, and its work is done
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from game import clock
from game.clock import Clock


class SetClock(Clock):
    """Time stands still until moved; whatever sleeps on it wakes when its time comes. It
    starts at the wall clock's time, so that rows written before it was set are not from
    another day."""

    def __init__(self) -> None:
        self.at = timezone.now()
        self.ticks = time.monotonic()
        self.sleepers: list[tuple[float, asyncio.Future[None], asyncio.Task[object] | None]] = []
        self.slept: asyncio.Event | None = None  # set when a task goes to sleep here

    def now(self) -> datetime:
        return self.at

    def monotonic(self) -> float:
        return self.ticks

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.ticks + seconds, woken, asyncio.current_task()))
        if self.slept is not None:
            self.slept.set()
        await woken

    def move(self, seconds: float) -> list[asyncio.Task[object]]:
        """Move on by `seconds` and wake every sleeper whose time has come (in order of their
        times); the tasks woken."""
        self.at += timedelta(seconds=seconds)
        self.ticks += seconds
        due = sorted((s for s in self.sleepers if s[0] <= self.ticks), key=lambda s: s[0])
        self.sleepers = [s for s in self.sleepers if s[0] > self.ticks]
        woken = []
        for _, future, task in due:
            if not future.done():
                future.set_result(None)
                if task is not None:
                    woken.append(task)
        return woken

    async def advance(self, seconds: float) -> None:
        """Move on by `seconds`, and return once every task woken has finished or gone back
        to sleep here (its pass is done: a beat, a flush, a shot clock's foul)."""
        await asyncio.sleep(0)  # tasks just made reach their first wait
        await self.until_asleep(*self.move(seconds))

    def asleep(self, task: asyncio.Task[object]) -> bool:
        return any(t is task and not f.done() for _, f, t in self.sleepers)

    async def until_asleep(self, *tasks: asyncio.Task[object], timeout: float = 10) -> None:
        """Wait until each task has finished or sleeps here (no polling: each going to sleep
        and each end is an event)."""
        self.slept = slept = asyncio.Event()
        for task in tasks:
            task.add_done_callback(lambda _: slept.set())
        async with asyncio.timeout(timeout):
            while not all(t.done() or self.asleep(t) for t in tasks):
                slept.clear()
                await slept.wait()


@pytest.fixture
def set_clock() -> Iterator[SetClock]:
    """The match's server code reads and waits on a clock the test moves (game/clock.py)."""
    here = SetClock()
    clock.use(here)
    yield here
    clock.use(clock.WALL)
