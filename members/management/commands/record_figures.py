"""Write the figures of finished matches that have none (matches finished before the records
were kept, or whose figures could not be written when they ended), and the searchable name of
members who have none.

    manage.py record_figures              # what is missing
    manage.py record_figures --all        # every finished match again (after a fix to stats)
    manage.py record_figures --match 12 --match 40
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from game.models import Match
from members.figures import record
from members.models import Member, fold


class Command(BaseCommand):
    help = "Write the per-match figures of finished matches (members.MatchFigures)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--all", action="store_true", help="write every finished match's figures again"
        )
        parser.add_argument(
            "--match", type=int, action="append", default=[], help="only this match (repeatable)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        members = Member.objects.bulk_create(
            Member(user_id=pk, folded=fold(name))
            for pk, name in get_user_model()
            .objects.filter(member__isnull=True)
            .values_list("pk", "username")
        )
        # Practice tables have no figures by design (members.figures.record).
        finished = Match.objects.filter(status=Match.Status.FINISHED, practice=False).order_by("pk")
        if options["match"]:
            finished = finished.filter(pk__in=options["match"])
        elif not options["all"]:
            finished = finished.filter(figures__isnull=True)
        done = failed = 0
        for row in finished.iterator():
            try:
                record(row)
            except Exception as exc:  # one bad match must not stop the others
                failed += 1
                self.stderr.write(f"match {row.pk}: {exc}")
            else:
                done += 1
        self.stdout.write(
            f"{done} match{'es' if done != 1 else ''} recorded, {failed} failed;"
            f" {len(members)} member name{'s' if len(members) != 1 else ''} added"
        )
