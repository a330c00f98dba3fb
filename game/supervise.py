"""The process's background work under one supervisor, so that an outage of the database or of
Redis degrades the service while it lasts and leaves no trace once it is over (issue 37).

- `outage(exc)`: whether an exception says a dependency is away ("database", "redis") rather
  than a bug. Only those are waited out quietly; a bug is still logged with its traceback.
- `DEPENDENCIES`: one log line when a dependency is lost and one when it is back, for the
  whole process, however many tasks and requests meet the outage (the issue counted 225–270
  tracebacks of "Error 111 connecting" per process per outage).
- `QuietOutages`: the same for Django's log of a request that failed (a page, a form), and
  `quiet_loop` for a task nobody awaits (the channel layer's own).
- `Watch`: one background task's record: whether it should be running, whether it is, its
  last good pass, the dependency it is waiting for. /healthz reads them all (`report`).
- `Periodic`: a pass run at once and then every so often, through any outage (the club's
  no-shows, the ladder's settling, the computer's resume pass); the heartbeats, the relays
  and the shot clocks hold a `Watch` of their own and report to it the same way.

Time comes through game/clock.py, so tests move a clock instead of sleeping.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis.exceptions
from django.db import InterfaceError, OperationalError

from game import clock

log = logging.getLogger(__name__)

# How many of its periods a task may go without a good pass before /healthz says it has
# fallen behind (a slow pass or two is not a fault; three missed ones are).
BEHIND = 3
# How long a failing task waits before trying again, whatever its period: it is back within
# seconds of its dependency (a try costs a refused connection: nothing to back off from).
RETRY = 2.0


def outage(exc: BaseException) -> str | None:
    """The dependency `exc` says is away, or None when it says something else (a bug, a
    refusal). A lost or refused connection, a timeout: the database's (Django wraps the
    driver's as OperationalError or InterfaceError; an integrity or programming error is a
    bug) or Redis's (redis-py's own, or the socket's OSError under it)."""
    if isinstance(exc, OperationalError | InterfaceError):
        return "database"
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return "redis"
    if isinstance(exc, OSError) and not isinstance(exc, TimeoutError):
        return "redis"  # a socket refused or reset under the channel layer (the database's
        # errors come wrapped by Django, above); a timeout says nothing of whose it was
    return None


class _Dependencies:
    """Which dependencies this process has found away, and since when (its monotonic clock)."""

    def __init__(self) -> None:
        self.lost: dict[str, float] = {}

    def failed(self, exc: BaseException, where: str) -> str | None:
        """`exc` happened in `where`: if it is an outage, say so once and return the
        dependency; else None (the caller logs or raises a bug as such)."""
        dependency = outage(exc)
        if dependency is not None and dependency not in self.lost:
            self.lost[dependency] = clock.monotonic()
            log.warning("%s lost (first seen by %s): %s", dependency, where, _short(exc))
        return dependency

    def back(self, dependency: str) -> None:
        since = self.lost.pop(dependency, None)
        if since is not None:
            log.warning("%s back after %.1f s", dependency, clock.monotonic() - since)

    def reset(self) -> None:
        self.lost.clear()


DEPENDENCIES = _Dependencies()


class QuietOutages(logging.Filter):
    """On Django's request log (settings.LOGGING, "django.request"): a page or form that met
    the database or Redis away is answered with the club's 500 page ("try again in a moment")
    and said once for the process, not logged with its traceback a request; a bug still is."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return exc is None or DEPENDENCIES.failed(exc, "a page") is None


def quiet_loop(loop: asyncio.AbstractEventLoop) -> None:
    """A task nobody awaits that met an outage (channels_redis's own clean-ups, after Redis
    came back, find connections from before it closed) is said once for the process, not
    logged as "Task exception was never retrieved" with its traceback; anything else goes to
    the loop's handler as ever."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if exc is not None and DEPENDENCIES.failed(exc, "a channel layer task") is not None:
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


def quiet_with_the_server() -> None:
    """`quiet_loop` on daphne's event loop (snooker_site/asgi.py)."""
    from daphne.server import twisted_loop

    quiet_loop(twisted_loop)


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


class Watch:
    """One background task's state for /healthz: running or not when it should be, the age of
    its last good pass against its period, and the dependency it is waiting for."""

    def __init__(self, name: str, every: Callable[[], float], periodic: bool = True) -> None:
        self.name = name
        self.every = every  # seconds between passes (its period; a timer's: how late is late)
        self.periodic = periodic  # False: work on demand, which has no period to fall behind
        self.task: asyncio.Task[Any] | None = None
        # Whether it should be running now, and whether it is (its task, or its own say).
        self.wanted: Callable[[], bool] = lambda: self.task is not None
        self.alive: Callable[[], bool] = lambda: self.task is not None and not self.task.done()
        self.last_ok: float | None = None  # monotonic
        self.waiting: str | None = None  # the dependency it is waiting for
        self.failures = 0  # in a row
        self.failing_since: float | None = None  # monotonic, the first of those failures
        WATCHES[name] = self

    def ok(self) -> None:
        self.last_ok = clock.monotonic()
        self.failures = 0
        self.failing_since = None
        if self.waiting is not None:
            DEPENDENCIES.back(self.waiting)
            self.waiting = None

    def failed(self, exc: BaseException) -> float:
        """A pass failed: an outage is waited out (said once for the process), a bug is
        logged with its traceback; either way the task goes on. The seconds to wait before
        trying again."""
        self.failures += 1
        if self.failing_since is None:
            self.failing_since = clock.monotonic()
        dependency = DEPENDENCIES.failed(exc, self.name)
        if dependency is None:
            log.error("%s failed; trying again later", self.name, exc_info=exc)
        else:
            self.waiting = dependency
        return RETRY

    def failing_for(self) -> float:
        """Seconds since its first failure in a row (0 when its last pass was good)."""
        return 0.0 if self.failing_since is None else clock.monotonic() - self.failing_since

    def state(self) -> dict[str, Any]:
        """What /healthz says of it: `ok` false when it should run and does not (dead), or
        has had no good pass for `BEHIND` periods (behind)."""
        wanted = self.wanted()
        alive = self.alive()
        age = None if self.last_ok is None else clock.monotonic() - self.last_ok
        limit = BEHIND * max(self.every(), RETRY)
        if self.waiting is not None and wanted:
            status = f"waiting for {self.waiting}"
        elif not wanted:
            status = "idle"
        elif not alive:
            status = "dead"
        elif self.periodic and age is not None and age > limit:
            status = "behind"
        else:
            status = "running"
        return {
            "ok": status in ("idle", "running"),
            "status": status,
            "last_ok_seconds_ago": None if age is None else round(age, 1),
        }


WATCHES: dict[str, Watch] = {}


def reset() -> None:
    """Forget every task's passes and every outage (tests: each starts a clean process)."""
    for watch in WATCHES.values():
        watch.task, watch.last_ok, watch.waiting, watch.failures = None, None, None, 0
        watch.failing_since = None
    DEPENDENCIES.reset()


def report() -> dict[str, dict[str, Any]]:
    """Every background task's state, by name (/healthz)."""
    return {name: watch.state() for name, watch in sorted(WATCHES.items())}


class Periodic:
    """A pass run at once and then every `every()` seconds on the running loop (once per
    loop; 0 or less: never, for a club that runs it from cron alone). A failing pass never
    ends it: it tries again within `RETRY` seconds while its dependency is away."""

    def __init__(
        self, name: str, every: Callable[[], float], work: Callable[[], Awaitable[object]]
    ):
        self.name, self.every, self.work = name, every, work
        self.watch = Watch(name, every)
        self.passes = 0  # passes run in this process (tests read it)

    @property
    def task(self) -> asyncio.Task[Any] | None:
        return self.watch.task

    def start(self) -> None:
        every = self.every()
        if every <= 0:
            return
        loop = asyncio.get_running_loop()
        task = self.watch.task
        if task is None or task.done() or task.get_loop() is not loop:
            self.watch.task = loop.create_task(self._run(every))

    async def _run(self, every: float) -> None:
        while True:
            wait = every
            try:
                await self.work()
            except Exception as exc:  # a bad pass must not end the job: the next one tries again
                wait = min(every, self.watch.failed(exc))
            else:
                self.watch.ok()
            self.passes += 1
            await clock.sleep(wait)

    def stop(self) -> None:
        task = self.watch.task
        if task is not None and not task.get_loop().is_closed():
            task.cancel()
        self.watch.task = None
        self.watch.last_ok = None
        self.watch.waiting = None
