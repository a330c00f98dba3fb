"""Where a match socket's work runs when not in its own turn of the event loop.

- `play`: the players' requests (and the shot clock's) on a database thread of their own, so
  that no crowd's comings and goings (queued on channels' one shared database thread) delay a
  stroke.
- `talk`: the chat's lines stored on a database thread of their own, so that a crowd's lines
  waiting to be stored hold up neither a stroke's nor the crowd's comings and goings (its
  hellos, on channels' shared thread); a crowd's lines are bounded by each room's rate
  before they come here (chat.service `within_room_rate`; docs/chat.md, "Load").
- `keep_presence`: the presence heartbeat's writes on a database thread of their own too, so that
  nothing that holds another thread (a broadcast on commit waiting for a Redis that hangs)
  holds up the rows that say who is at the table (issue 37).
- `detach`: a task that outlives its consumer (its clean-up after it was cancelled), kept from
  the garbage collector until it finishes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper

from game.supervise import DEPENDENCIES

log = logging.getLogger(__name__)

_T = TypeVar("_T")
# "play": the name SQLite's writers let go first (snooker_site/sqlite/base.py PLAYERS_THREAD;
# written twice because the layers' contract keeps game/ from importing snooker_site/).
_PLAY = ThreadPoolExecutor(max_workers=1, thread_name_prefix="play")
_BEAT = ThreadPoolExecutor(max_workers=1, thread_name_prefix="beat")
_TALK = ThreadPoolExecutor(max_workers=1, thread_name_prefix="talk")
_WAITING = [0]  # requests in `play` now: on the thread, or their answer on its way back
# The chat waits behind the players' requests (`behind_the_players`), looking again every
# CHAT_POLL seconds, never longer than CHAT_WAITS (strokes back to back would starve it).
CHAT_POLL = 0.002
CHAT_WAITS = 0.5


def players_waiting() -> bool:
    """Whether a player's request is being answered: then a crowd's broadcast yields the
    loop often (game/fanout.py), as each turn of the loop the answer needs waits for it."""
    return _WAITING[0] > 0


async def play(work: Callable[..., _T], *args: Any) -> _T:
    """Run a player's request (or the shot clock's) on the players' own database thread, not
    queued behind a crowd's work on channels' shared one. SQLite's shared in-memory test
    database answers a second thread's write with "table is locked": there, the shared one
    (a file waits its turn for the write lock: WAL and IMMEDIATE transactions, settings.py)."""
    run = _on(_PLAY, work)
    _WAITING[0] += 1
    try:
        result: _T = await run(*args)
    finally:
        # Back in the caller's task, which answers (the ack) before it next yields.
        _WAITING[0] -= 1
    return result


async def keep_presence(work: Callable[..., _T], *args: Any) -> _T:
    """Run the presence heartbeat's database work on its own thread (as `play`)."""
    result: _T = await _on(_BEAT, work)(*args)
    return result


async def talk(work: Callable[..., _T], *args: Any) -> _T:
    """Store a chat line (and read what its rules need) on the chat's own thread (as `play`),
    once no player's request is being answered (`behind_the_players`)."""
    await behind_the_players()
    result: _T = await _on(_TALK, work)(*args)
    return result


async def behind_the_players() -> None:
    """Wait while a player's request is being answered (up to `CHAT_WAITS`): the chat's work
    (storing a line, handing it out) takes the interpreter's time the stroke needs, and
    waits a few milliseconds instead."""
    waited = 0.0
    while players_waiting() and waited < CHAT_WAITS:
        await asyncio.sleep(CHAT_POLL)
        waited += CHAT_POLL


def _on(executor: ThreadPoolExecutor, work: Callable[..., _T]) -> Callable[..., Any]:
    db = connections[DEFAULT_DB_ALIAS]
    if isinstance(db, SQLiteWrapper) and db.is_in_memory_db():
        return DatabaseSyncToAsync(work)
    return DatabaseSyncToAsync(work, thread_sensitive=False, executor=executor)


_DETACHED: set[asyncio.Task[None]] = set()


def detach(work: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(_logged(work))
    _DETACHED.add(task)
    task.add_done_callback(_DETACHED.discard)


async def _logged(work: Coroutine[Any, Any, None]) -> None:
    """A detached task's failure, said: an outage once for the process (game/supervise.py),
    a bug with its traceback, never "Task exception was never retrieved" at random later."""
    try:
        await work
    except Exception as exc:
        if DEPENDENCIES.failed(exc, "a socket's clean-up") is None:
            log.exception("a detached task failed")


def cancel(task: asyncio.Task[None] | None) -> None:
    """Cancel a task, unless its loop has closed (a test's, already over)."""
    if task is not None and not task.get_loop().is_closed():
        task.cancel()


def reset() -> None:
    """Cancel every detached task (tests: each runs on its own event loop)."""
    for task in list(_DETACHED):
        cancel(task)
    _DETACHED.clear()
