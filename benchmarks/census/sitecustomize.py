"""Loaded by a server started by benchmarks/bench_redis_restarts.py (this folder on its
PYTHONPATH, BENCH_CENSUS naming a file): on SIGUSR1 the process collects its garbage and
appends a census of its live objects by type, and its asyncio tasks by coroutine, to that
file (one JSON line), so that what each Redis restart leaves behind shows as a count that
grows."""

from __future__ import annotations

import gc
import json
import os
import signal
import time
from collections import Counter
from types import FrameType

OUT = os.environ.get("BENCH_CENSUS")


def _census(signum: int, frame: FrameType | None) -> None:
    import asyncio

    gc.collect()
    types = Counter(type(o).__qualname__ for o in gc.get_objects())
    tasks: Counter[str] = Counter()
    for obj in gc.get_objects():
        if isinstance(obj, asyncio.Task) and not obj.done():
            coro = obj.get_coro()
            tasks[getattr(coro, "__qualname__", repr(coro))] += 1
    with open(f"{OUT}.{os.getpid()}", "a") as out:
        line = {"when": time.time(), "types": dict(types.most_common(400)), "tasks": dict(tasks)}
        out.write(json.dumps(line) + "\n")


if OUT:
    signal.signal(signal.SIGUSR1, _census)
