"""`manage.py abandon_no_shows`: abandon the friendlies nobody started in time, and the matches
against the computer nobody has touched for `SNOOKER_COMPUTER_IDLE`, once (cron).

Every server process already does this every `SNOOKER_NO_SHOW_EVERY` seconds (club/jobs.py);
this is for a club that runs it from cron as well or instead. Safe beside the servers: each
match is abandoned once, whoever gets to it first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from django.core.management.base import BaseCommand, CommandParser
from django.utils.dateparse import parse_datetime

from club import jobs, noshows
from club import process as club_process


async def _pass(now: datetime | None) -> list[noshows.Abandoned]:
    done = await jobs.abandon_no_shows(now) + await jobs.abandon_idle_computer(now)
    await club_process.LOBBY.flush()  # now: this process's loop ends with the command
    return done


class Command(BaseCommand):
    help = "Abandon the friendlies the two players did not start within the club's wait."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--now", help="decide as at this ISO time (with its offset), not the clock's"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        now = parse_datetime(options["now"]) if options["now"] else None
        if options["now"] and (now is None or now.tzinfo is None):
            raise ValueError(f"--now {options['now']!r} is not an ISO time with an offset")
        done = async_to_sync(_pass)(now)
        self.stdout.write(f"abandoned {len(done)} match(es) not started in time")
