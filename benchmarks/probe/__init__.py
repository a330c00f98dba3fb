"""`--probe` for the benchmarks: what to add to a server's environment so that it loads
sitecustomize.py from this folder, and the summary of what that wrote over a window of the
run (the servers' collector pauses and event-loop lag), and the benchmarks' percentile; and
the clients' own collector, set aside and timed."""

from __future__ import annotations

import gc
import json
import math
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def environment(root: Path, out: Path) -> dict[str, str]:
    """A server's environment additions: the project and this folder on its path, and the
    file its probe appends to (one per process: `out` suffixed with the process id)."""
    return {"PYTHONPATH": f"{root}:{HERE}", "BENCH_PROBE": str(out)}


def summary(out: Path, pid: int, window: tuple[float, float]) -> dict[str, Any]:
    """Process `pid`'s event-loop lag, collector's pauses and players' requests (where
    their time went) during `window`."""
    try:
        lines = [json.loads(line) for line in Path(f"{out}.{pid}").read_text().splitlines()]
    except (OSError, ValueError):
        return {}
    start, stop = window
    lags = sorted(
        ms for kind, when, ms in (x for x in lines if x[0] == "lag") if start <= when <= stop
    )
    pauses = [(gen, ms) for kind, when, gen, ms in (x for x in lines if x[0] == "gc")
              if start <= when <= stop]  # fmt: skip
    spans: dict[str, list[float]] = {}
    for _, what, when, ms in (x for x in lines if x[0] == "span"):
        if start <= when <= stop:
            spans.setdefault(what, []).append(ms)
    requests = {
        what: {"count": len(ms), "p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99),
               "max_ms": percentile(ms, 100)}
        for what, unsorted in spans.items()
        if (ms := sorted(unsorted))
    }  # fmt: skip
    by_generation = {
        str(gen): {"count": len(ms), "max_ms": max(ms), "total_ms": round(sum(ms), 1)}
        for gen in (0, 1, 2)
        if (ms := [m for g, m in pauses if g == gen])
    }
    return {
        "loop_lag_p50_ms": percentile(lags, 50), "loop_lag_p99_ms": percentile(lags, 99),
        "loop_lag_max_ms": percentile(lags, 100), "loop_lags_over_50_ms": sum(
            1 for ms in lags if ms > 50), "gc": by_generation, "requests": requests,
        "by_10s": _by_10s(lines, start, stop),
    }  # fmt: skip


def _by_10s(lines: list[list[Any]], start: float, stop: float) -> dict[str, list[Any]]:
    """Per 10 s of the window: the players' requests' wait for their thread and their time on
    it (p99), the loop's lag (p99) and the collector's pauses (ms in all): when the tail came,
    and with what."""
    windows = max(1, math.ceil((stop - start) / 10))
    spans: dict[str, list[list[float]]] = {}
    for line in lines:
        if line[0] == "span":
            _, what, when, ms = line
        elif line[0] == "gc":
            what, (_, when, _, ms) = "gc", line
        else:
            what, (_, when, ms) = "lag", line
        if start <= when <= stop:
            at = min(windows - 1, int((when - start) // 10))
            spans.setdefault(what, [[] for _ in range(windows)])[at].append(ms)

    def p99(what: str) -> list[float | None]:
        return [percentile(sorted(ms), 99) for ms in spans.get(what, [[]] * windows)]

    return {
        "queued_p99_ms": p99("queued"), "on_thread_p99_ms": p99("on thread"),
        "loop_lag_p99_ms": p99("lag"),
        "gc_ms": [round(sum(ms), 1) for ms in spans.get("gc", [[]] * windows)],
    }  # fmt: skip


def percentile(sorted_values: list[float], p: float) -> float | None:
    """Nearest-rank percentile of an ascending list (None if empty)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return round(sorted_values[rank - 1], 1)


def set_aside() -> None:
    """A benchmark's client, its sockets open: what it keeps for the run out of the
    collector's way, as the servers' start-up objects are (snooker_site/asgi.py). The client
    is the instrument, and thousands of browsers have no collector in common: left in, one
    full collection over its sockets' objects held every one of them at once (220 ms in
    bench-live's play), and what it held back reached the servers as a burst."""
    gc.collect()
    gc.freeze()


class ClientPauses:
    """This client's own collector pauses while it measures: a long one holds every socket's
    sends and receipts at once, and shows in the figures as the servers' doing."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._began = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.monotonic()
        else:
            self.pauses.append((info["generation"], (time.monotonic() - self._began) * 1e3))

    def stop(self) -> None:
        gc.callbacks.remove(self._seen)

    def summary(self) -> dict[str, Any]:
        return {
            str(g): {"count": len(ms), "max_ms": round(max(ms), 1), "total_ms": round(sum(ms))}
            for g in (0, 1, 2)
            if (ms := [m for gen, m in self.pauses if gen == g])
        }
