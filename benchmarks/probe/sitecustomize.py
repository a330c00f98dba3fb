"""Loaded into a benchmark's daphne by `--probe` (this folder on its PYTHONPATH; Python
imports `sitecustomize` at start-up): times the collector's pauses (`gc.callbacks`) and the
event loop's lag (a thread asks the loop to run a callback every 20 ms and times how late it
runs), and appends what is new of both, stamped with the machine's monotonic clock, every
second to the file named by BENCH_PROBE suffixed with the process id (JSON lines), with how
long the players' requests took where they go (`_time_requests`). The benchmark reads the
window of each run (probe.summary)."""

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
    spans: list[tuple[str, float, float]] = []  # (what, when it began, ms)
    timed: list[bool] = []

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
            if not timed and _time_requests(spans):
                timed.append(True)
            asked = time.monotonic()
            loop.call_soon_threadsafe(ran, asked)
            time.sleep(EVERY)
            if asked - written >= 1.0:
                written = asked
                # Appends and pops are atomic: nothing is lost between the two threads.
                lines = [json.dumps(["lag", *lags.pop(0)]) for _ in range(len(lags))]
                lines += [json.dumps(["gc", *pauses.pop(0)]) for _ in range(len(pauses))]
                lines += [json.dumps(["span", *spans.pop(0)]) for _ in range(len(spans))]
                with open(out, "a") as f:
                    f.write("".join(line + "\n" for line in lines))

    threading.Thread(target=watch, name="bench-probe", daemon=True).start()


def _time_requests(spans: list[tuple[str, float, float]]) -> bool:
    """Once the server's modules are loaded, time each player's request where it goes:
    "play" on the event loop from the consumer's call to its answer (the wait for the
    players' thread included), "submit" on that thread (database, rules, the commit's
    publish), "rules" the rules core alone (physics and referee). False until loaded."""
    consumers, service = sys.modules.get("game.consumers"), sys.modules.get("game.service")
    if consumers is None or service is None or not hasattr(consumers, "MatchConsumer"):
        return False

    play = consumers.play

    async def timed_play(*args: Any) -> Any:
        began = time.monotonic()
        try:
            return await play(*args)
        finally:
            spans.append(("play", began, (time.monotonic() - began) * 1e3))

    consumers.play = timed_play
    # The players' thread's queue: how long each request waited for the thread, and held it.
    executor = sys.modules["game.work"]._PLAY
    handing = executor.submit

    def handed(fn: Any, *args: Any, **kwargs: Any) -> Any:
        asked = time.monotonic()

        def run(*args: Any, **kwargs: Any) -> Any:
            began = time.monotonic()
            spans.append(("queued", asked, (began - asked) * 1e3))
            try:
                return fn(*args, **kwargs)
            finally:
                spans.append(("on thread", began, (time.monotonic() - began) * 1e3))

        return handing(run, *args, **kwargs)

    executor.submit = handed
    # On the players' thread: the service, the rules core, each statement, the commit, what
    # runs once it committed, and the event's send (which waits for the event loop).
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper

    def on_play_thread(what: Any, run: Any) -> Any:
        def timed(*args: Any) -> Any:
            if not threading.current_thread().name.startswith("play"):
                return run(*args)
            began = time.monotonic()
            try:
                return run(*args)
            finally:
                name = what(*args) if callable(what) else what
                spans.append((name, began, (time.monotonic() - began) * 1e3))

        return timed

    def statement(cursor: Any, sql: str, *args: Any) -> str:
        return "sql " + sql.split(None, 1)[0]

    service.submit = on_play_thread("submit", service.submit)
    service.rules_match.apply = on_play_thread("rules", service.rules_match.apply)
    CursorWrapper.execute = on_play_thread(statement, CursorWrapper.execute)
    BaseDatabaseWrapper.commit = on_play_thread("commit", BaseDatabaseWrapper.commit)
    hooks = BaseDatabaseWrapper.run_and_clear_commit_hooks
    BaseDatabaseWrapper.run_and_clear_commit_hooks = on_play_thread("after commit", hooks)
    # The thread's wait for the event loop: the event's send, whether on a commit or at once
    # (a stroke written in one statement has no transaction to wait for).
    from asgiref.sync import AsyncToSync

    AsyncToSync.__call__ = on_play_thread("send", AsyncToSync.__call__)
    return True


if OUT:
    _start(f"{OUT}.{os.getpid()}")
