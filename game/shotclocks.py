"""One shot-clock timer per match per process, however many of its sockets are here."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime

from game import clock, service
from game.models import Match
from game.supervise import RETRY, Watch, outage
from game.work import cancel, play


class _ShotClocks:
    """One shot-clock timer per match per process, however many of its sockets are here.

    Every event tells the sockets the new deadline; the first to hear of a version arms the
    match's timer and the others find it armed. When it fires, the service settles the time
    foul; its version check makes that happen once across all processes.
    """

    def __init__(self) -> None:
        self.timers: dict[int, tuple[int, asyncio.Task[None]]] = {}  # match id -> version, timer
        self.retrying: set[int] = set()  # matches whose foul waits for the database

    def arm(self, match_id: int, version: int, deadline: datetime | None) -> None:
        armed = self.timers.get(match_id)
        if armed is not None:
            if armed[0] >= version:
                return  # armed for this version already, or for a later one
            armed[1].cancel()
            del self.timers[match_id]
            self.retrying.discard(match_id)
        if deadline is not None:
            task = asyncio.get_running_loop().create_task(self._expire(match_id, version, deadline))
            self.timers[match_id] = (version, task)

    def release(self, match_id: int) -> None:
        armed = self.timers.pop(match_id, None)
        self.retrying.discard(match_id)
        if armed is not None:
            armed[1].cancel()

    def reset(self) -> None:
        for _, task in self.timers.values():
            cancel(task)
        self.timers.clear()
        self.retrying.clear()

    async def _expire(self, match_id: int, version: int, deadline: datetime) -> None:
        await clock.sleep(max(0.0, (deadline - clock.now()).total_seconds()) + 0.05)
        while True:
            try:
                with contextlib.suppress(Match.DoesNotExist):
                    # The foul is broadcast by the service, once stored.
                    await play(service.expire_shot_clock, match_id, version, clock.now())
            except Exception as exc:
                # The database away: the foul is settled once it is back (its version check
                # makes a late one harmless), not forgotten with this timer (issue 37).
                self.retrying.add(match_id)
                wait = WATCH.failed(exc)
                if outage(exc) is None:
                    self.retrying.discard(match_id)
                    return
                await clock.sleep(wait)
                continue
            self.retrying.discard(match_id)
            WATCH.ok()
            return


CLOCKS = _ShotClocks()
# For /healthz (game/supervise.py): a timer per match, on demand; waiting while a foul is due
# and the database away.
WATCH = Watch("shot clocks", lambda: RETRY, periodic=False)
WATCH.wanted = lambda: bool(CLOCKS.retrying)
WATCH.alive = lambda: True
