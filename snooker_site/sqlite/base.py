"""The embedded default's database (SQLite in a file): Django's backend, with the writers of
this process taking turns for SQLite's one write lock, the players' thread first.

SQLite answers a writer that finds the lock taken by sleeping and trying again, 1, 2, 5, 10,
15, 20, 25... ms apart: while other threads write one short transaction after another (sixty
sockets of a flooding member leaving at once, a busy chat's lines), a stroke's `BEGIN
IMMEDIATE` slept through every moment the lock was free and waited 54 ms (benchmarks/
bench_live.py --probe). Here every transaction of the process first waits its turn on a
condition, woken the moment the lock is given back, and a players' request (game/work.py
`play`) goes before any other thread waiting. Writers in other processes (a `manage.py`
command) still meet SQLite's own waiting; a turn not given within the database's timeout is
taken anyway, so a thread can never wait on another here for longer than SQLite would.

And the players' thread never copies the log back into the database (a checkpoint, with its
fsyncs, which SQLite runs in the commit that finds the log past 1,000 pages: a stroke's
commit took 15-25 ms a few times a minute); the other threads' commits do (the presence
heartbeat writes every few seconds).

An in-memory database (the tests') is one connection's, or a shared cache whose tables lock
differently: it is left as Django makes it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db.backends.sqlite3 import base

PLAYERS_THREAD = "play"  # game/work.py: the players' requests' thread's name begins so


class Turns:
    """One writer at a time in this process, in turn; the players' thread before the rest."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.held = False
        self.players_waiting = 0

    def take(self, timeout: float) -> bool:
        """Wait for the turn, at most `timeout` seconds: whether it was given (if not, the
        caller goes on without it, into SQLite's own waiting)."""
        players = threading.current_thread().name.startswith(PLAYERS_THREAD)
        deadline = time.monotonic() + timeout
        with self.condition:
            if players:
                self.players_waiting += 1
            try:
                while self.held or (self.players_waiting and not players):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self.condition.wait(left)
                self.held = True
                return True
            finally:
                if players:
                    self.players_waiting -= 1

    def give_back(self) -> None:
        with self.condition:
            self.held = False
            self.condition.notify_all()


TURNS = Turns()


class DatabaseWrapper(base.DatabaseWrapper):
    turn = False  # this connection holds the process's turn to write

    def get_new_connection(self, conn_params: Any) -> Any:
        connection = super().get_new_connection(conn_params)
        players = threading.current_thread().name.startswith(PLAYERS_THREAD)
        if players and not self.is_in_memory_db():
            connection.execute("PRAGMA wal_autocheckpoint=0")
        return connection

    def _start_transaction_under_autocommit(self) -> None:
        if not self.is_in_memory_db():
            self.turn = TURNS.take(float(self.settings_dict["OPTIONS"].get("timeout", 5.0)))
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._give_back()
            raise

    # The turn is given back however the transaction ends.
    def _commit(self) -> Any:
        return self._then_give_back(super()._commit)  # type: ignore[misc]

    def _rollback(self) -> Any:
        return self._then_give_back(super()._rollback)  # type: ignore[misc]

    def _close(self) -> Any:
        return self._then_give_back(super()._close)  # type: ignore[misc]

    def _then_give_back(self, step: Callable[[], Any]) -> Any:
        try:
            return step()
        finally:
            self._give_back()

    def _give_back(self) -> None:
        if self.turn:
            self.turn = False
            TURNS.give_back()
