"""The embedded database's writers take turns in a process, the players' thread first
(snooker_site/sqlite/base.py): a stroke no longer sleeps through SQLite's retries while other
threads write one short transaction after another."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import dj_database_url
import pytest
from django.db import connections

from snooker_site.sqlite import base
from snooker_site.sqlite.base import Turns


def _waiter(
    turns: Turns, name: str, order: list[str], started: threading.Event
) -> threading.Thread:
    def run() -> None:
        started.set()
        assert turns.take(5)
        order.append(name)
        turns.give_back()

    return threading.Thread(target=run, name=name)


def _waiting(turns: Turns, count: int) -> None:
    """Until `count` threads wait on the turn (each waits in `Condition.wait`)."""
    deadline = time.monotonic() + 5
    while len(turns.condition._waiters) < count:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline
        time.sleep(0.001)


def test_the_players_thread_goes_before_the_threads_that_waited_longer() -> None:
    turns, order = Turns(), list[str]()
    assert turns.take(1)
    first = _waiter(turns, "beat_0", order, threading.Event())
    first.start()
    _waiting(turns, 1)
    players = _waiter(turns, "play_0", order, threading.Event())
    players.start()
    _waiting(turns, 2)
    turns.give_back()
    for thread in (first, players):
        thread.join(5)
    assert order == ["play_0", "beat_0"]


def test_a_turn_not_given_in_time_is_taken_anyway() -> None:
    """As SQLite's own timeout: a thread never waits longer here than SQLite would."""
    turns = Turns()
    assert turns.take(1)
    began = time.monotonic()
    assert turns.take(0.05) is False
    assert 0.05 <= time.monotonic() - began < 1


def _sqlite(tmp_path: Path) -> dict[str, Any]:
    """A file database's settings, as settings.py makes them (CI's default is PostgreSQL)."""
    made: dict[str, Any] = dict(dj_database_url.parse(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    made["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    return {**connections.settings["default"], **made, "ENGINE": "snooker_site.sqlite"}


def _begin(connection: base.DatabaseWrapper) -> None:
    """What `transaction.atomic` does first on SQLite."""
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


@pytest.mark.django_db
def test_a_file_databases_transactions_take_and_give_back_the_turn(tmp_path: Path) -> None:
    """Each transaction on a file holds the turn until it commits or rolls back (another
    thread's would wait for it on the condition, not in SQLite's retries)."""
    settings = _sqlite(tmp_path)
    connection = base.DatabaseWrapper(settings, alias="scratch")
    try:
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE t (x INTEGER)")
        for end in (connection.commit, connection.rollback, connection.close):
            _begin(connection)
            assert connection.turn and base.TURNS.held
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO t VALUES (1)")
            end()
            assert not connection.turn and not base.TURNS.held
            if end is not connection.close:
                connection.set_autocommit(True)
    finally:
        connection.close()


@pytest.mark.django_db
def test_the_players_thread_leaves_the_checkpoints_to_the_others(tmp_path: Path) -> None:
    """A stroke's commit never copies the log back into the file (SQLite does it in the
    commit that finds the log long, fsyncs and all): the other threads' commits do."""
    settings = _sqlite(tmp_path)
    found: dict[str, int] = {}

    def read(name: str) -> None:
        connection = base.DatabaseWrapper(settings, alias="scratch")
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint")
            found[name] = cursor.fetchone()[0]
        connection.close()

    for name in ("play_0", "beat_0"):
        thread = threading.Thread(target=read, args=(name,), name=name)
        thread.start()
        thread.join(5)
    assert found == {"play_0": 0, "beat_0": 1000}
