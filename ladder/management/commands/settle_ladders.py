"""`manage.py settle_ladders`: settle the ladders' deadlines that passed, once (for cron).

Every server process already does this every `SNOOKER_LADDER_SETTLE_EVERY` seconds
(ladder/jobs.py); this is for a club that runs it from cron as well or instead. Safe beside
the servers: each deadline is settled once, whoever gets to it first.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils.dateparse import parse_datetime

from ladder import jobs, service


class Command(BaseCommand):
    help = "Settle the ladders' challenges not answered and matches not played in time."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--now", help="settle as at this ISO time (with its offset), not the clock's"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        now = parse_datetime(options["now"]) if options["now"] else None
        if options["now"] and (now is None or now.tzinfo is None):
            raise ValueError(f"--now {options['now']!r} is not an ISO time with an offset")
        done = service.settle_due(now, settings.LADDER["SETTLE_BATCH"])
        # The challenges it settled were announced as each one's write committed.
        async_to_sync(jobs.remind)(done.reminders)  # an agreed start near: both players told
        self.stdout.write(
            f"settled {len(done.challenges)} ladder challenge(s), rated {len(done.rated)} match(es)"
        )
