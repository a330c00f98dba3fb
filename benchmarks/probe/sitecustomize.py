"""Loaded into a benchmark's daphne by `--probe` (this folder on its PYTHONPATH; Python
imports `sitecustomize` at start-up): times the collector's pauses (`gc.callbacks`) and the
event loop's lag (a thread asks the loop to run a callback every 20 ms and times how late it
runs), and appends what is new of both, stamped with the machine's monotonic clock, to the
file named by BENCH_PROBE every second (JSON lines). The benchmark reads the window of each
run (bench_strangers.probe_summary)."""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time
from typing import Any

OUT = os.environ.get("BENCH_PROBE")
EVERY = 0.02  # seconds between two of the loop's callbacks


def _start(out: str) -> None:
    pauses: list[tuple[float, int, float]] = []  # (when, generation, ms)
    lags: list[tuple[float, float]] = []  # (when, ms)
    began: list[float] = []

    def collected(phase: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if phase == "start":
            began.append(now)
        elif began:
            pauses.append((now, info["generation"], round((now - began.pop()) * 1000, 2)))

    gc.callbacks.append(collected)

    def watch() -> None:
        loop = None
        while loop is None:  # daphne installs Twisted's asyncio reactor: never import it first
            time.sleep(0.5)
            reactor = sys.modules.get("twisted.internet.reactor")
            loop = getattr(reactor, "_asyncioEventloop", None)
        written = time.monotonic()

        def ran(asked: float) -> None:
            lags.append((asked, (time.monotonic() - asked) * 1e3))

        while True:
            asked = time.monotonic()
            loop.call_soon_threadsafe(ran, asked)
            time.sleep(EVERY)
            if asked - written >= 1.0:
                written = asked
                # Appends and pops are atomic: nothing is lost between the two threads.
                lines = [json.dumps(["lag", *lags.pop(0)]) for _ in range(len(lags))]
                lines += [json.dumps(["gc", *pauses.pop(0)]) for _ in range(len(pauses))]
                with open(out, "a") as f:
                    f.write("".join(line + "\n" for line in lines))

    threading.Thread(target=watch, name="bench-probe", daemon=True).start()


if OUT:
    _start(OUT)
