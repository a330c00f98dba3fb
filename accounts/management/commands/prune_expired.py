"""`manage.py prune_expired`: delete the expired sessions and the login records older than
`--days` (30), once (accounts/prune.py). Run nightly by `snooker-prune.timer`
(deploy/systemd/); safe beside the servers, and to run again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.dateparse import parse_datetime

from accounts import prune


class Command(BaseCommand):
    help = "Delete expired sessions and login records older than --days days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days", type=int, default=prune.LOGIN_RECORDS_KEPT.days,
            help="keep the login records of this many days (at least 1: the lockout reads a day)",
        )  # fmt: skip
        parser.add_argument(
            "--now", help="decide as at this ISO time (with its offset), not the clock's"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        now = parse_datetime(options["now"]) if options["now"] else None
        if options["now"] and (now is None or now.tzinfo is None):
            raise ValueError(f"--now {options['now']!r} is not an ISO time with an offset")
        if options["days"] < 1:
            raise ValueError("--days must be at least 1")
        done = prune.prune(now, timedelta(days=options["days"]))
        self.stdout.write(
            f"deleted {done.sessions} expired session(s), {done.logins} login(s), "
            f"{done.login_failures} failed login(s) and {done.attempts} attempt(s) past their "
            "cool-off"
        )
