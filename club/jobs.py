"""The club's periodic work in every server process: abandoning friendlies nobody started.

`NO_SHOWS` runs `club.noshows.abandon_due` at once and then every `SNOOKER["NO_SHOW_EVERY"]`
seconds (30) on the server's event loop, and tells both players of each match it abandoned
(their notices, the match's sockets) and the lobby. `snooker_site/asgi.py` starts it when
daphne's event loop starts, as the ladder's settler (ladder/jobs.py). Each of several
processes may run it: a match is abandoned by a conditional update, once, whoever gets to it
first. Where no server runs for a while, `manage.py abandon_no_shows` does the same pass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings

from club import noshows
from club import process as club_process
from game import clock

log = logging.getLogger(__name__)


async def abandon_no_shows(now: datetime | None = None) -> list[noshows.Abandoned]:
    """One pass: abandon what is due, then tell everyone concerned (after the writes)."""
    done = await database_sync_to_async(noshows.abandon_due)(now)
    if done:
        log.info("club: abandoned unstarted matches %s", [gone.match for gone in done])
    await club_process.tell_abandoned(done)
    return done


class Periodic:
    """A pass run at once and then every `every()` seconds on the running loop (once per
    loop; 0 or less: never, for a club that runs it from cron alone)."""

    def __init__(
        self, name: str, every: Callable[[], float], work: Callable[[], Awaitable[object]]
    ):
        self.name, self.every, self.work = name, every, work
        self.task: asyncio.Task[None] | None = None
        self.passes = 0  # passes run in this process (tests read it)

    def start(self) -> None:
        every = self.every()
        if every <= 0:
            return
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run(every))

    async def _run(self, every: float) -> None:
        while True:
            try:
                await self.work()
            except Exception:  # a bad pass must not end the job: the next one tries again
                log.exception("%s failed; trying again later", self.name)
            self.passes += 1
            await clock.sleep(every)

    def stop(self) -> None:
        if self.task is not None and not self.task.get_loop().is_closed():
            self.task.cancel()
        self.task = None


NO_SHOWS = Periodic(
    "abandoning no-shows", lambda: settings.SNOOKER["NO_SHOW_EVERY"], abandon_no_shows
)


def start_with_the_server() -> None:
    """Start the club's jobs when daphne's event loop starts running (as ladder/jobs.py's);
    in a process that never runs that loop (tests, `manage.py`), nothing happens."""
    from daphne.server import twisted_loop

    twisted_loop.call_soon(NO_SHOWS.start)
