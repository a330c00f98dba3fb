"""What one server process keeps for the club's sockets, so that no cost grows with them.

- `LOBBY`: the lobby's coalescer. Whatever changed (a match's stored event, its number
  watching, a challenge) is noted here; within `CLUB["LOBBY_COALESCE"]` seconds one update is
  read from the database (rows cached per match version: club/lobby.py) and sent, as one
  text, to the one lobby group: at most two updates a second however many matches are played
  and however many lobby sockets listen. Each process coalesces what happened in it.
- The lobby group's members are processes, not sockets: each process with lobby sockets adds
  one channel of its own to it and hands every update it receives to its sockets directly
  (as lila-ws does), so an update costs the channel layer one message per process, and each
  socket a write, not a queue, a task switch and a dispatch.
- The sweep: while a process has club sockets, it marks challenges past their time as
  expired every `CLUB["SWEEP_EVERY"]` seconds and tells both parties and the lobby.
- `announce(news)`: after an action's commit, the parties' notices at once (to their own
  groups) and the lobby's rows through the coalescer. The club's actions call it themselves
  (`club.service.announce_on_commit`, heard here as `club.signals.challenges_changed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings

from club import lobby, noshows, service
from club.models import Challenge
from club.protocol import server_out
from club.protocol.ipc import LOBBY_GROUP, TextMessage, user_group
from club.signals import challenges_changed
from game.broadcast import tell_presence
from game.signals import match_changed


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer


class _Lobby:
    def __init__(self) -> None:
        self.matches: set[int] = set()
        self.challenges: set[int] = set()
        self.flushing: asyncio.Task[None] | None = None
        self.sweeping: asyncio.Task[None] | None = None
        self.last = float("-inf")  # when the last update was read (the loop's clock)
        self.local: set[Any] = set()  # this process's greeted lobby sockets (consumers)
        self.relaying: asyncio.Task[None] | None = None  # its channel in the lobby group
        self.joined = asyncio.Event()  # set once that channel is in the group
        self.sockets = 0  # club sockets greeted in this process
        self.relay_channel: str | None = None
        self.updates = 0  # updates sent (benchmarks and tests read it)

    def note(self, matches: tuple[int, ...] = (), challenges: tuple[int, ...] = ()) -> None:
        """Something in the lobby changed: send it with whatever else changes meanwhile. At
        most one update per `LOBBY_COALESCE` seconds: the first at once (a quiet lobby hears
        of a change without waiting), the next when the interval is up, with everything
        noted in between."""
        self.matches.update(matches)
        self.challenges.update(challenges)
        loop = asyncio.get_running_loop()
        if self.flushing is None or self.flushing.done() or self.flushing.get_loop() is not loop:
            wait = self.last + settings.CLUB["LOBBY_COALESCE"] - loop.time()
            # In a context of its own: noted from a view (`announce_now`), the task would
            # inherit the view's executor for database work, gone once the view returns.
            self.flushing = loop.create_task(
                self._flush_after(max(0.0, wait)), context=contextvars.Context()
            )

    async def _flush_after(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.last = asyncio.get_running_loop().time()
        await self.flush()

    async def flush(self) -> None:
        matches, challenges = sorted(self.matches), sorted(self.challenges)
        self.matches.clear()
        self.challenges.clear()
        if not matches and not challenges:
            return
        update = await database_sync_to_async(lobby.update)(matches, challenges)
        if update.matches or update.challenges:
            self.updates += 1
            message: TextMessage = {"type": "lobby.update", "text": update.text()}
            await _layer().group_send(LOBBY_GROUP, dict(message))

    # --- the relay: one channel per process in the lobby group -----------------------------
    async def join(self, consumer: Any) -> None:
        """A lobby socket was greeted here: it hears every update from now on (once this
        returns, the process's channel is in the group)."""
        self.local.add(consumer)
        loop = asyncio.get_running_loop()
        if self.relaying is None or self.relaying.done() or self.relaying.get_loop() is not loop:
            # Made before any await: sockets greeted at the same moment share one relay.
            self.joined = asyncio.Event()
            self.relaying = loop.create_task(self._relay(self.joined))
        await self.joined.wait()

    def part(self, consumer: Any) -> None:
        self.local.discard(consumer)

    async def stop(self) -> None:
        """End the relay by a message on its own channel (a test's way out: channels_redis's
        receive does not always end when cancelled, which would hold its event loop open)."""
        task, channel = self.relaying, self.relay_channel
        if task is None or task.done() or channel is None:
            return
        await _layer().send(channel, {"type": "lobby.stop"})
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(task), 2.0)

    async def _relay(self, joined: asyncio.Event) -> None:
        layer = _layer()
        channel = self.relay_channel = await layer.new_channel()
        await layer.group_add(LOBBY_GROUP, channel)
        joined.set()
        try:
            while True:
                message = await layer.receive(channel)
                if message["type"] == "lobby.stop":
                    return
                text = message["text"]
                for i, consumer in enumerate(list(self.local)):
                    with contextlib.suppress(Exception):  # one socket's end is not the relay's
                        await consumer.send(text)
                    if i % 64 == 63:
                        await asyncio.sleep(0)  # let matches' events through a long fan-out
        finally:
            # Bounded: on a server's (or a test's) way out Redis may not answer any more; an
            # entry left behind expires with the group.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(layer.group_discard(LOBBY_GROUP, channel), 1.0)

    # --- the sweep of expired challenges ---------------------------------------------------
    def attach(self) -> None:
        """A club socket was greeted here: sweep while there are any."""
        self.sockets += 1
        loop = asyncio.get_running_loop()
        if self.sweeping is None or self.sweeping.done() or self.sweeping.get_loop() is not loop:
            self.sweeping = loop.create_task(self._sweep())

    def detach(self) -> None:
        self.sockets = max(0, self.sockets - 1)

    async def _sweep(self) -> None:
        while self.sockets:
            await asyncio.sleep(settings.CLUB["SWEEP_EVERY"])
            await database_sync_to_async(service.expire_due)()  # announced on commit

    def reset(self) -> None:
        for task in (self.flushing, self.sweeping, self.relaying):
            if task is not None and not task.get_loop().is_closed():
                task.cancel()
        self.__init__()  # type: ignore[misc]


LOBBY = _Lobby()


def _rows(ids: tuple[int, ...]) -> list[tuple[server_out.ChallengeRow, int, int | None]]:
    """Each challenge's row with its challenger's and target's ids."""
    found = Challenge.objects.filter(pk__in=ids).select_related("challenger", "target")
    return [(lobby.challenge_row(c), c.challenger_id, c.target_id) for c in found]


async def announce(news: service.News) -> None:
    """Tell both parties of each challenge at once (every socket of theirs, in every
    process), and the lobby soon (coalesced) of open challenges and new matches."""
    if news:
        await _tell(news, await database_sync_to_async(_rows)(news.challenges))


def announce_now(news: service.News) -> None:
    """`announce` from synchronous code (a view's thread, a database thread), after the
    transaction committed. The rows are read here, on the thread's own connection (a
    database call handed to another thread from here would close this thread's connection
    on its way out); under daphne the sending is handed to the server's event loop."""
    from asgiref.sync import async_to_sync

    if news:
        async_to_sync(_tell)(news, _rows(news.challenges))


async def _tell(
    news: service.News, rows: list[tuple[server_out.ChallengeRow, int, int | None]]
) -> None:
    layer = _layer()
    for row, challenger, target in rows:
        text = server_out.Notice(challenge=row).text()
        message: TextMessage = {"type": "club.notice", "text": text}
        for user_id in {challenger, target} - {None}:
            assert user_id is not None
            await layer.group_send(user_group(user_id), dict(message))
    public = tuple(row.id for row, _, _ in rows if row.kind == "open")
    LOBBY.note(news.matches, public)


async def tell_abandoned(done: list[noshows.Abandoned]) -> None:
    """Matches abandoned unstarted (club/noshows.py): both players' notices, the match's own
    sockets (its presence says so) and the lobby (the rows leave its lists)."""
    layer = _layer()
    for gone in done:
        text = server_out.Abandoned(
            match=gone.match, players=gone.names, best_of=gone.best_of
        ).text()
        message: TextMessage = {"type": "club.notice", "text": text}
        for user_id in set(gone.players):
            await layer.group_send(user_group(user_id), dict(message))
        await tell_presence(gone.match, gone.presence)
    if done:
        LOBBY.note(matches=tuple(gone.match for gone in done))


def _match_changed(sender: Any, match_id: int, **kwargs: Any) -> None:
    with contextlib.suppress(RuntimeError):  # no event loop here (a script): no lobby to tell
        LOBBY.note(matches=(match_id,))


def _challenges_changed(sender: Any, news: service.News, **kwargs: Any) -> None:
    announce_now(news)


def listen() -> None:
    match_changed.connect(_match_changed, dispatch_uid="club.lobby")
    challenges_changed.connect(_challenges_changed, dispatch_uid="club.announce")


def reset() -> None:
    """A clean process (tests: each runs on its own event loop, and a fresh database may give
    a match the id of another test's)."""
    LOBBY.reset()
    lobby.forget()
