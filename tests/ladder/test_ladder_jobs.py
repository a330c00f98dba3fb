"""Deadlines settled without anyone visiting a page (ladder/jobs.py): the job's pass on a
controlled clock, its loop, `manage.py settle_ladders`, and two real daphne processes on one
database settling due challenges by themselves, each once."""

from __future__ import annotations

import sqlite3
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.utils import timezone

from ladder import jobs, service
from tests.club.helpers import LobbyClient
from tests.ladder.helpers import on_ladder, order
from tests.live.harness import Daphne, run_python


@pytest.mark.django_db(transaction=True)
async def test_a_pass_settles_what_is_due_and_tells_both_parties(members, main) -> None:
    ann, ben, *_ = members
    now = timezone.now()

    def setup() -> None:
        on_ladder(main, ann, ben)
        service.challenge(main.pk, ben, ann, now=now)

    await database_sync_to_async(setup)()
    sockets = [LobbyClient(u, lobby=False) for u in (ann, ben)]
    try:
        for socket in sockets:
            await socket.open()
        assert not (await jobs.settle(now + timedelta(hours=1)))  # not due yet
        done = await jobs.settle(now + main.answer_time)
        assert len(done.challenges) == 1
        for socket in sockets:
            notice = await socket.expect("notice")
            assert notice["challenge"]["status"] == "expired"
            assert notice["challenge"]["kind"] == "ladder"
    finally:
        for socket in sockets:
            await socket.ws.disconnect()
    assert await database_sync_to_async(order)(main) == ["ben", "ann"]


@pytest.mark.django_db(transaction=True)
async def test_the_job_runs_at_once_and_then_every_interval(settings, main, set_clock) -> None:
    settings.LADDER = {**settings.LADDER, "SETTLE_EVERY": 0.05}
    jobs.SETTLER.passes = 0
    jobs.SETTLER.start()
    first = jobs.SETTLER.task
    jobs.SETTLER.start()  # once per loop
    assert first is not None and jobs.SETTLER.task is first
    try:
        await set_clock.until_asleep(first)
        assert jobs.SETTLER.passes == 1  # at once
        await set_clock.advance(0.04)
        assert jobs.SETTLER.passes == 1
        await set_clock.advance(0.02)
        assert jobs.SETTLER.passes == 2  # then every interval
        await set_clock.advance(0.06)
        assert jobs.SETTLER.passes == 3
    finally:
        jobs.SETTLER.stop()
    settings.LADDER = {**settings.LADDER, "SETTLE_EVERY": 0}
    jobs.SETTLER.start()  # switched off: cron alone
    assert jobs.SETTLER.task is None


@pytest.mark.django_db(transaction=True)
def test_the_command_for_cron(members, main) -> None:
    """Outside a transaction, as cron runs it: the command's database work goes through
    channels' `database_sync_to_async` (under `async_to_sync`, so back on this thread), which
    closes the thread's connection around each call when it is not in autocommit, as a test's
    transaction would have it; the real closing is what runs here."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    now = timezone.now()
    service.challenge(main.pk, ben, ann, now=now)
    out = StringIO()
    call_command("settle_ladders", "--now", now.isoformat(), stdout=out)
    assert out.getvalue().startswith("settled 0 ladder challenge(s)")
    call_command("settle_ladders", "--now", (now + main.answer_time).isoformat(), stdout=out)
    assert "settled 1 ladder challenge(s)" in out.getvalue()
    assert order(main) == ["ben", "ann"]
    with pytest.raises(ValueError):
        call_command("settle_ladders", "--now", "yesterday")


SETUP = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from ladder import service
from ladder.models import Ladder
U = get_user_model().objects
users = [U.create_user(f"p{i}", password=None) for i in range(8)]
ladder = Ladder.objects.get(main=True)
ladder.answer_time = timedelta(seconds=1)
ladder.save()
for u in users:
    service.join(ladder.pk, u)
for lower, upper in ((1, 0), (3, 2), (5, 4), (7, 6)):
    service.challenge(ladder.pk, users[lower], users[upper])
"""


def test_two_servers_settle_deadlines_by_themselves_once(tmp_path: Path) -> None:
    """Nobody visits a page: two daphne processes on one database settle four unanswered
    challenges within a few of their passes, and each is settled once."""
    database = tmp_path / "db.sqlite3"
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "snooker_site.settings",
        "DEBUG": "true",
        "PYTHONUNBUFFERED": "1",
        "SNOOKER_LADDER_SETTLE_EVERY": "0.2",
    }
    run_python(env, "manage.py", "migrate", "--noinput", "-v", "0")
    run_python(env, "manage.py", "shell", "-v", "0", "-c", SETUP)
    servers = [Daphne(f"daphne-{i}", env, tmp_path) for i in range(2)]
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with sqlite3.connect(database) as db:
                left = db.execute(
                    "SELECT COUNT(*) FROM ladder_ladderchallenge WHERE status != 'settled'"
                ).fetchone()[0]
            if left == 0:
                break
            time.sleep(0.1)
        logs = "\n".join(s.log() for s in servers)
        assert left == 0, logs
        with sqlite3.connect(database) as db:
            results = db.execute(
                "SELECT challenge_id, COUNT(*) FROM ladder_historyentry WHERE kind = 'result'"
                " GROUP BY challenge_id"
            ).fetchall()
            outcomes = db.execute("SELECT DISTINCT outcome FROM ladder_ladderchallenge").fetchall()
            names = [
                row[0]
                for row in db.execute(
                    "SELECT u.username FROM ladder_rung r JOIN auth_user u ON u.id = r.member_id"
                    " ORDER BY r.position"
                )
            ]
        assert len(results) == 4 and all(n == 1 for _, n in results), results
        assert outcomes == [("unanswered",)]
        assert names == ["p1", "p0", "p3", "p2", "p5", "p4", "p7", "p6"]  # challengers won
        assert "Traceback" not in logs, logs
    finally:
        for server in servers:
            server.stop()
