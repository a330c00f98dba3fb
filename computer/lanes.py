"""Who thinks first in the computer's pool: its strokes, then the hints (issue 42: 48 hints
from 8 accounts, sharing the pool's queue, stretched the computer's replies from 7–11 s to
40 s).

- `stroke(executor, work, ...)`: a decision of the computer at a table, sent to the pool at
  once (counted while it thinks).
- `background(executor, work, ...)`: the coach's analysis, a stroke at a time, only while no
  stroke and no hint waits (computer/analysis.py).
- `hint(member, executor, work, ...)`: a hint waits in a lane of its own: it is sent to the
  pool only while none of the computer's decisions waits for a worker (fewer thinking here
  than `COMPUTER["WORKERS"]`), one hint at a time, in the order asked. A stroke asked while a
  hint thinks waits for that one hint at most (about a second). A member has at most
  `COMPUTER["HINTS_WAITING"]` (2) hints waiting or thinking in a process: one more is refused
  (`Busy`), before it waits.

Counts are per process and per event loop: a server's pool thinks for that server only (where
the computer has a process of its own, `SNOOKER_COMPUTER_PROCESS`, the servers' pools think
hints only, and its strokes are that process's).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from django.conf import settings

_T = TypeVar("_T")


class Busy(Exception):
    """The member already has as many hints waiting as they may."""


class _Lane:
    def __init__(self) -> None:
        self.turn = asyncio.Condition()
        self.strokes = 0  # the computer's decisions sent to the pool and not yet answered
        self.hinting = False  # a hint is in the pool


_LANES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Lane] = weakref.WeakKeyDictionary()
_WAITING: dict[int, int] = {}  # member id -> their hints waiting or thinking here


def _lane() -> _Lane:
    loop = asyncio.get_running_loop()
    lane = _LANES.get(loop)
    if lane is None:
        lane = _LANES[loop] = _Lane()
    return lane


def waiting(member: int) -> int:
    """The member's hints waiting or thinking in this process now (tests read it)."""
    return _WAITING.get(member, 0)


async def stroke(executor: Executor, work: Callable[..., _T], *args: Any) -> _T:
    """Think one of the computer's decisions in `executor`, ahead of any waiting hint."""
    lane = _lane()
    lane.strokes += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(executor, work, *args)
    finally:
        lane.strokes -= 1
        async with lane.turn:
            lane.turn.notify_all()


async def hint(member: int, executor: Executor, work: Callable[..., _T], *args: Any) -> _T:
    """Think a hint for `member` in `executor` once no stroke of the computer's waits for a
    worker and no other hint thinks; `Busy` at once if the member has enough waiting."""
    if _WAITING.get(member, 0) >= settings.COMPUTER["HINTS_WAITING"]:
        raise Busy(member)
    _WAITING[member] = _WAITING.get(member, 0) + 1
    try:
        return await _beside_strokes(lambda: True, executor, work, *args)
    finally:
        left = _WAITING[member] - 1
        if left:
            _WAITING[member] = left
        else:
            del _WAITING[member]
        lane = _lane()
        async with lane.turn:
            lane.turn.notify_all()  # background work waits for no hint to be waiting


async def background(executor: Executor, work: Callable[..., _T], *args: Any) -> _T:
    """Think a piece of background work (a stroke of the coach's analysis, docs/coach.md) once
    nothing else waits: no stroke of the computer's waits for a worker, no hint thinks and no
    member's hint waits. A piece is one stroke's analysis (a tenth of a second), so a stroke or
    a hint asked meanwhile waits that long at most."""
    return await _beside_strokes(lambda: not _WAITING, executor, work, *args)


async def _beside_strokes(
    ready: Callable[[], bool], executor: Executor, work: Callable[..., _T], *args: Any
) -> _T:
    """Think `work` in the lane's one place beside the computer's strokes (a hint, or a piece
    of background work), once no stroke waits for a worker, that place is free and `ready()`."""
    lane = _lane()
    workers = settings.COMPUTER["WORKERS"]
    async with lane.turn:
        await lane.turn.wait_for(lambda: not lane.hinting and lane.strokes < workers and ready())
        lane.hinting = True
    try:
        return await asyncio.get_running_loop().run_in_executor(executor, work, *args)
    finally:
        async with lane.turn:
            lane.hinting = False
            lane.turn.notify_all()


def reset() -> None:
    """Forget every count (tests: a cancelled hint's count is given back by its `finally`)."""
    _WAITING.clear()
