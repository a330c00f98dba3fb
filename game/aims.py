"""The last aim (or the computer's "thinking") heard per match in this process, so that a page
that reloads, or a watcher who comes, sees the striker's cue at once instead of none until
the striker moves it (docs/protocol.md, "hello").

Kept by the process's relay (game/fanout.py) as each `match.aim` or `match.thinking` passes,
with the event version it was made at, and dropped when a newer event is heard: what is sent
after a welcome is only ever the aim at the version the welcome shows. Process-local, like
`TABLES`: a socket served by a process that heard no aim for the match gets none, and the
striker's next aim (a browser's announces itself when its turn comes) fills it in.

And the rate of aims per seat (`Lane`): one bucket for a seat however many sockets its
player holds, so that sockets opened side by side do not each relay ten aims a second to the
match's crowd (issue 42).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from django.conf import settings

from game.gates import Bucket


class Lane:
    """A seat's aims in this process: relayed at most `AIM_PER_SECOND`, from whichever of its
    sockets; when throttled, only the newest is kept and relayed when the rate allows, so that
    watchers always end on the striker's final aim."""

    def __init__(self) -> None:
        self.bucket = Bucket(1, settings.SNOOKER["AIM_PER_SECOND"])
        self.latest: Callable[[], Awaitable[None]] | None = None  # relays the newest aim
        self.task: asyncio.Task[None] | None = None

    async def aim(self, relay: Callable[[], Awaitable[None]]) -> None:
        """Relay an aim now (`relay()`), or its newest when the rate allows."""
        if self.bucket.take():
            await relay()
            return
        self.latest = relay
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._trail())

    async def _trail(self) -> None:
        await asyncio.sleep(1 / self.bucket.rate)
        relay, self.latest = self.latest, None
        if relay is not None:
            self.bucket.take()
            await relay()


class _Aims:
    KEPT = 10_000  # matches: past it the oldest entry goes (one text each, a few hundred bytes)

    def __init__(self) -> None:
        self.last: dict[int, tuple[int, str]] = {}  # match id -> (version, text)
        self.lanes: dict[tuple[int, str], Lane] = {}  # (match id, seat) -> its rate

    def lane(self, match_id: int, seat: str) -> Lane:
        """The seat's aims' rate (past `KEPT` seats, the oldest goes)."""
        found = self.lanes.get((match_id, seat))
        if found is None:
            found = self.lanes[match_id, seat] = Lane()
            if len(self.lanes) > self.KEPT:
                del self.lanes[next(iter(self.lanes))]
        return found

    def heard(self, match_id: int, version: int, text: str) -> None:
        known = self.last.get(match_id)
        if known is not None and known[0] > version:
            return
        self.last.pop(match_id, None)  # re-inserted: the newest last, for the bound
        self.last[match_id] = (version, text)
        if len(self.last) > self.KEPT:
            del self.last[next(iter(self.last))]

    def moved(self, match_id: int, version: int) -> None:
        """An event at `version` was heard: an aim made before it is over."""
        known = self.last.get(match_id)
        if known is not None and known[0] < version:
            del self.last[match_id]

    def at(self, match_id: int, version: int) -> str | None:
        """The last aim made at `version`, if this process heard one."""
        known = self.last.get(match_id)
        return known[1] if known is not None and known[0] == version else None

    def reset(self) -> None:
        self.last.clear()
        self.lanes.clear()


AIMS = _Aims()
