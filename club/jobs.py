"""The club's periodic work in every server process: abandoning friendlies nobody started, and
matches against the computer nobody has touched for an hour.

`NO_SHOWS` runs `club.noshows.abandon_due` at once and then every `SNOOKER["NO_SHOW_EVERY"]`
seconds (30) on the server's event loop, and tells both players of each match it abandoned
(their notices, the match's sockets) and the lobby. `snooker_site/asgi.py` starts it when
daphne's event loop starts, as the ladder's settler (ladder/jobs.py). Each of several
processes may run it: a match is abandoned by a conditional update, once, whoever gets to it
first. Where no server runs for a while, `manage.py abandon_no_shows` does the same pass.
`IDLE_COMPUTER` runs `club.noshows.abandon_idle_computer` every `SNOOKER["NO_SHOW_EVERY"]`
seconds too, and tells the same way: the member's notice, the table, the lobby.
A pass that meets a database or Redis outage is tried again within seconds
(game/supervise.py), and /healthz says when the job has died or fallen behind.
"""

from __future__ import annotations

import logging
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings

from club import noshows
from club import process as club_process
from game.supervise import Periodic

log = logging.getLogger(__name__)


async def abandon_no_shows(now: datetime | None = None) -> list[noshows.Abandoned]:
    """One pass: abandon what is due, then tell everyone concerned (after the writes)."""
    done = await database_sync_to_async(noshows.abandon_due)(now)
    if done:
        log.info("club: abandoned unstarted matches %s", [gone.match for gone in done])
    await club_process.tell_abandoned(done)
    return done


NO_SHOWS = Periodic(
    "abandoning no-shows", lambda: settings.SNOOKER["NO_SHOW_EVERY"], abandon_no_shows
)


async def abandon_idle_computer(now: datetime | None = None) -> list[noshows.Abandoned]:
    """One pass: abandon the matches against the computer left untouched, then tell."""
    done = await database_sync_to_async(noshows.abandon_idle_computer)(now)
    if done:
        log.info("club: abandoned idle matches against the computer %s", [g.match for g in done])
    await club_process.tell_abandoned(done)
    return done


IDLE_COMPUTER = Periodic(
    "abandoning idle matches against the computer",
    lambda: settings.SNOOKER["NO_SHOW_EVERY"],
    abandon_idle_computer,
)


def start_with_the_server() -> None:
    """Start the club's jobs when daphne's event loop starts running (as ladder/jobs.py's);
    in a process that never runs that loop (tests, `manage.py`), nothing happens."""
    from daphne.server import twisted_loop

    twisted_loop.call_soon(NO_SHOWS.start)
    twisted_loop.call_soon(IDLE_COMPUTER.start)
