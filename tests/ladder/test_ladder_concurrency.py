"""Results and deadlines applied once when they race: two threads (two connections), and two
server-side processes (`manage.py settle_ladders`) on the same database. On PostgreSQL (CI)
the rows are locked (`skip_locked` for the deadlines); on SQLite the write lock serialises
whole transactions; on both, a settlement is written only if the challenge is still due."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from ladder import service
from ladder.models import HistoryEntry, LadderChallenge
from ladder.service import LadderError
from ratings.models import RatedResult
from tests.ladder.helpers import accepted, concede, each_plays, on_ladder, order
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each result, or the exception raised."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            start.wait()
            results[i] = call()
        except Exception as exc:  # the test looks at it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_two_passes_at_once_settle_a_deadline_once(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    now = timezone.now()
    service.challenge(main.pk, cat, ann, now=now)
    due = now + main.answer_time
    results = at_once(lambda: service.settle_due(due), lambda: service.settle_due(due))
    settled = [r for r in results if isinstance(r, service.Settled)]
    assert len(settled) == 2, results  # neither failed: one settled, the other found nothing
    assert sorted(len(r.challenges) for r in settled) == [0, 1]
    assert order(main) == ["cat", "ann", "ben"]
    assert HistoryEntry.objects.filter(kind="result").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_concession_racing_the_deadline_is_settled_once(members, main) -> None:
    """The match ends as its deadline passes: whichever comes first settles it; the other
    changes nothing."""
    ann, ben, cat, *_ = members
    main.default_result = "defender_wins"  # so the two ways out differ
    main.save()
    on_ladder(main, ann, ben, cat)
    match = accepted(main, cat, ann)
    row = LadderChallenge.objects.get(fixture__match=match)
    assert row.fixture.play_by is not None
    late = row.fixture.play_by + timedelta(seconds=1)
    # Enough strokes for a rating, played before the race: not in the conceding thread, where
    # the deadline could find the match not yet started.
    each_plays(match, strokes=-(-settings.RATINGS["MIN_STROKES"] // 2))
    at_once(lambda: concede(match, ann), lambda: service.settle_due(late))
    row.refresh_from_db()
    # The deadline first: the match had started (strokes played), so it is decided by where it
    # stood ("unfinished", rules/fixtures.py), unrated.
    assert row.status == "settled" and row.outcome in ("played", "unfinished")
    assert HistoryEntry.objects.filter(challenge=row).count() == 1
    if row.outcome == "played":
        assert order(main) == ["cat", "ann", "ben"] and RatedResult.objects.count() == 1
    else:
        assert not RatedResult.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_challenges_to_one_member_at_once_make_one(members, main) -> None:
    ann, ben, cat, dan, *_ = members
    on_ladder(main, ann, ben, cat, dan)
    results = at_once(
        lambda: service.challenge(main.pk, cat, ann), lambda: service.challenge(main.pk, dan, ann)
    )
    made = [r for r in results if isinstance(r, service.Done)]
    refused = [r.code for r in results if isinstance(r, LadderError)]
    assert len(made) == 1, results
    assert refused in (["defender_busy"], ["busy"]), results
    assert LadderChallenge.objects.count() == 1


def _database_url() -> str:
    """The test database as a URL, for a process of its own."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    user = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{user}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_two_processes_settle_a_deadline_once(members, main) -> None:
    """`manage.py settle_ladders` in two processes at the same moment (as two servers' jobs,
    or cron beside a server): one settles, the other finds it done."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        # Other processes cannot open an in-memory database; CI runs this on PostgreSQL.
        missing("needs a database other processes can open (DATABASE_URL)")
    ann, ben, cat, dan, *_ = members
    on_ladder(main, ann, ben, cat, dan)
    now = timezone.now()
    service.challenge(main.pk, cat, ann, now=now)
    service.challenge(main.pk, dan, ben, now=now)
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=_database_url(), DJANGO_SETTINGS_MODULE="snooker_site.settings")
    due = (now + main.answer_time).isoformat()
    command = [sys.executable, "manage.py", "settle_ladders", "--now", due]
    runs = [
        subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=60)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    counts = sorted(int(out.split()[1]) for out in outputs)
    assert sum(counts) == 2, outputs  # each challenge settled by one process
    assert order(main) == ["cat", "ann", "dan", "ben"]
    assert HistoryEntry.objects.filter(kind="result").count() == 2
