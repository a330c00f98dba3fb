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
- A ladder changed (ladder/service.py: `club.signals.ladder_changed`, after its commit): its
  id is noted here too and sent, coalesced as the lobby's updates, as one `ladder` message
  that the relay hands to every club socket of the process, the notices sockets too (a
  ladder's page is open with its notices socket; it reads what changed from the server). A
  competition's the same way (`club.signals.competition_changed`: a `competition` message).
- Who is online: a member is online while at least one of their greeted club sockets (a
  page's notices or the lobby's) is open. `LOBBY.online` counts them per name in this process;
  when a name comes or goes, the next coalesced update carries the whole list (`online`,
  capped at `ONLINE_LISTED` names, and `online_count`). With several processes (Redis), the
  names the others hold are read with each such update and each sweep (club/online.py).
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
from collections import Counter
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings

from club import lobby, noshows, online, service
from club.models import Challenge
from club.protocol import server_out
from club.protocol.ipc import LOBBY_GROUP, PAGES_CHANGED, TextMessage
from club.signals import challenges_changed, competition_changed, ladder_changed
from game import clock
from game.broadcast import tell_presence
from game.protocol import CLOSE_UNAVAILABLE
from game.protocol.ipc import user_group
from game.signals import match_changed
from game.supervise import Watch


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer


class _Lobby:
    def __init__(self) -> None:
        self.matches: set[int] = set()
        self.challenges: set[int] = set()
        self.ladders: set[int] = set()  # ladders whose standings or challenges changed
        self.competitions: set[int] = set()  # competitions that changed
        self.flushing: asyncio.Task[None] | None = None
        self.sweeping: asyncio.Task[None] | None = None
        self.last = float("-inf")  # when the last update was read (the loop's clock)
        self.local: set[Any] = set()  # this process's greeted lobby sockets (consumers)
        # Its greeted notices sockets: they hear `ladder` and `competition` only.
        self.watchers: set[Any] = set()
        self.relaying: asyncio.Task[None] | None = None  # its channel in the lobby group
        # Done once that channel is in the group, or failed when it could not be put there
        # (Redis away): the sockets waiting on it are closed, to try again (issue 37).
        self.joined: asyncio.Future[None] | None = None
        self.sockets = 0  # club sockets greeted in this process
        self.relay_channel: str | None = None
        self.updates = 0  # updates sent (benchmarks and tests read it)
        self.computer_live: int | None = None  # the count of matches against the computer sent
        self.online: Counter[str] = Counter()  # member name -> their greeted club sockets here
        self.online_changed = False  # a name came or went since the last update
        self.elsewhere: set[str] = set()  # the names other processes hold, as last read

    def note(
        self,
        matches: tuple[int, ...] = (),
        challenges: tuple[int, ...] = (),
        ladders: tuple[int, ...] = (),
        competitions: tuple[int, ...] = (),
    ) -> None:
        """Something in the lobby changed: send it with whatever else changes meanwhile. At
        most one update per `LOBBY_COALESCE` seconds: the first at once (a quiet lobby hears
        of a change without waiting), the next when the interval is up, with everything
        noted in between."""
        self.matches.update(matches)
        self.challenges.update(challenges)
        self.ladders.update(ladders)
        self.competitions.update(competitions)
        loop = asyncio.get_running_loop()
        if self.flushing is None or self.flushing.done() or self.flushing.get_loop() is not loop:
            wait = self.last + settings.CLUB["LOBBY_COALESCE"] - loop.time()
            # In a context of its own: noted from a view (`announce_now`), the task would
            # inherit the view's executor for database work, gone once the view returns.
            self.flushing = UPDATES.task = loop.create_task(
                self._flush_after(max(0.0, wait)), context=contextvars.Context()
            )

    # --- who is online ----------------------------------------------------------------------
    def arrive(self, name: str) -> None:
        """A member's club socket was greeted here."""
        self.online[name] += 1
        if self.online[name] == 1:
            self._online_changed()

    def leave(self, name: str) -> None:
        """A member's greeted club socket closed: gone once it was their last."""
        if self.online[name] <= 1:
            self.online.pop(name, None)
            self._online_changed()
        else:
            self.online[name] -= 1

    def _online_changed(self) -> None:
        self.online_changed = True
        with contextlib.suppress(RuntimeError):  # no event loop (a test's teardown)
            self.note()

    def online_names(self) -> tuple[list[str], int]:
        """The names online, sorted, the first `ONLINE_LISTED`, and how many there are."""
        everyone = self.elsewhere.union(self.online)
        return sorted(everyone)[:ONLINE_LISTED], len(everyone)

    async def read_elsewhere(self) -> bool:
        """Say this process's names and read the others' (with Redis): whether theirs
        changed."""
        found = await online.elsewhere(self.online)
        if found is None or found == self.elsewhere:
            return False
        self.elsewhere = found
        return True

    async def _flush_after(self, wait: float) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(wait)
        while True:
            self.last = loop.time()
            try:
                await self.flush()
            except Exception as exc:
                # Not read or not sent (the database or Redis away): kept, and tried again
                # soon, so no lobby row waits for its match's next change (issue 37).
                await clock.sleep(UPDATES.failed(exc))
                continue
            UPDATES.ok()
            if not (
                self.matches or self.challenges or self.ladders or self.competitions
                or self.online_changed
            ):  # fmt: skip
                return
            # Noted while this one was read: sent after the interval, not at the next note.
            await asyncio.sleep(settings.CLUB["LOBBY_COALESCE"])

    async def flush(self) -> None:
        matches, challenges = sorted(self.matches), sorted(self.challenges)
        ladders, competitions = sorted(self.ladders), sorted(self.competitions)
        self.matches.clear()
        self.challenges.clear()
        self.ladders.clear()
        self.competitions.clear()
        online = self.online_changed
        self.online_changed = False
        try:
            if ladders:
                # Every club socket hears it (a ladder's page is open with its notices).
                text = server_out.LadderChanged(ladders=ladders).text()
                told: TextMessage = {"type": "lobby.ladder", "text": text}
                await _layer().group_send(LOBBY_GROUP, dict(told))
                ladders = []
            if competitions:
                text = server_out.CompetitionChanged(competitions=competitions).text()
                told = {"type": "lobby.competition", "text": text}
                await _layer().group_send(LOBBY_GROUP, dict(told))
                competitions = []
            if not matches and not challenges and not online:
                return
            update = await database_sync_to_async(lobby.update)(matches, challenges)
            if online:
                await self.read_elsewhere()
                update.online, update.online_count = self.online_names()
            # A row changed, or a count alone (a match against the computer began or ended),
            # or who is online.
            counted = update.computer_live != self.computer_live
            if update.matches or update.challenges or counted or online:
                self.computer_live = update.computer_live
                self.updates += 1
                message: TextMessage = {"type": "lobby.update", "text": update.text()}
                await _layer().group_send(LOBBY_GROUP, dict(message))
        except BaseException:
            self.matches.update(matches)
            self.challenges.update(challenges)
            self.ladders.update(ladders)
            self.competitions.update(competitions)
            self.online_changed = self.online_changed or online
            raise

    # --- the relay: one channel per process in the lobby group -----------------------------
    async def join(self, consumer: Any, lobby: bool = True) -> None:
        """A lobby socket was greeted here: it hears every update from now on (once this
        returns, the process's channel is in the group); a notices socket (`lobby` False)
        hears only the `ladder` and `competition` messages. Raises what kept the channel out of
        the group (Redis away), for the socket to be closed and its page to try again."""
        loop = asyncio.get_running_loop()
        if self.relaying is None or self.relaying.done() or self.relaying.get_loop() is not loop:
            # Made before any await: sockets greeted at the same moment share one relay.
            self.joined = loop.create_future()
            self.relaying = RELAY.task = loop.create_task(self._relay())
        assert self.joined is not None
        await asyncio.shield(self.joined)
        # Handed updates from now on: one received meanwhile was sent before the welcome,
        # which is read after this returns (club/consumers.py), so it holds that change.
        (self.local if lobby else self.watchers).add(consumer)

    def part(self, consumer: Any) -> None:
        self.local.discard(consumer)
        self.watchers.discard(consumer)

    async def stop(self) -> None:
        """End the relay by a message on its own channel (a test's way out: channels_redis's
        receive does not always end when cancelled, which would hold its event loop open)."""
        task, channel = self.relaying, self.relay_channel
        if task is None or task.done() or channel is None:
            return
        await _layer().send(channel, {"type": "lobby.stop"})
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(task), 2.0)

    async def _relay(self) -> None:
        """Keep a channel of this process in the lobby group and hand out what arrives, for
        as long as there are lobby sockets here, through any outage of Redis: the channel is
        put in the group again once Redis is back (a restarted Redis has forgotten it), and
        the sockets that were here meanwhile are closed to be welcomed afresh (the updates
        sent meanwhile are lost to them)."""
        layer = _layer()
        outage = False
        while True:
            loop = asyncio.get_running_loop()
            if self.joined is None or self.joined.done():
                self.joined = loop.create_future()
            joined = self.joined
            try:
                channel = await layer.new_channel()
                await layer.group_add(LOBBY_GROUP, channel)
            except Exception as exc:
                wait = RELAY.failed(exc)
                joined.set_exception(exc)
                joined.exception()  # retrieved: a failure with nobody waiting is no error
                if not self.local and not self.watchers:
                    return  # nobody to relay to: the next lobby socket starts another
                await clock.sleep(wait)
                continue
            self.relay_channel = channel
            joined.set_result(None)
            RELAY.ok()
            if outage:
                await self._welcome_again()
            try:
                if await self._hand_out(layer, channel):
                    return
            except Exception as exc:
                outage = True
                wait = RELAY.failed(exc)
            finally:
                # Bounded: on a server's (or a test's) way out Redis may not answer any more;
                # an entry left behind expires with the group.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(layer.group_discard(LOBBY_GROUP, channel), 1.0)
            await clock.sleep(wait)

    async def _hand_out(self, layer: BaseChannelLayer, channel: str) -> bool:
        """Hand each update to this process's lobby sockets until told to stop (True); the
        lobby room's chat (`lobby.line`, `lobby.moderated`) each socket takes itself (who
        reads a line is the reader's: club/consumers.py, `chat_heard`)."""
        while True:
            message = await layer.receive(channel)
            if message["type"] == "lobby.stop":
                return True
            if message["type"] in ("lobby.line", "lobby.moderated"):
                for i, consumer in enumerate(list(self.local)):
                    with contextlib.suppress(Exception):
                        await consumer.chat_heard(message)
                    if i % 64 == 63:
                        await asyncio.sleep(0)
                continue
            text = message["text"]
            listening = (
                self.local | self.watchers if message["type"] in PAGES_CHANGED else self.local
            )
            for i, consumer in enumerate(list(listening)):
                with contextlib.suppress(Exception):  # one socket's end is not the relay's
                    await consumer.send(text)
                if i % 64 == 63:
                    await asyncio.sleep(0)  # let matches' events through a long fan-out

    async def _welcome_again(self) -> None:
        """The relay was out of the group a while: close this process's lobby sockets with
        the code their pages reconnect on, to be welcomed with the lobby as it is now."""
        for consumer in list(self.local | self.watchers):
            self.part(consumer)
            with contextlib.suppress(Exception):
                await consumer.close(code=CLOSE_UNAVAILABLE)

    # --- the sweep of expired challenges ---------------------------------------------------
    def attach(self) -> None:
        """A club socket was greeted here: sweep while there are any."""
        self.sockets += 1
        loop = asyncio.get_running_loop()
        if self.sweeping is None or self.sweeping.done() or self.sweeping.get_loop() is not loop:
            self.sweeping = SWEEP.task = loop.create_task(self._sweep())

    def detach(self) -> None:
        self.sockets = max(0, self.sockets - 1)

    async def _sweep(self) -> None:
        while self.sockets:
            await asyncio.sleep(settings.CLUB["SWEEP_EVERY"])
            try:
                await database_sync_to_async(service.expire_due)()  # announced on commit
                # Said again before it expires; another process's names came or went.
                if await self.read_elsewhere():
                    self._online_changed()
            except Exception as exc:  # the next sweep tries again
                SWEEP.failed(exc)
            else:
                SWEEP.ok()

    def reset(self) -> None:
        for task in (self.flushing, self.sweeping, self.relaying):
            if task is not None and not task.get_loop().is_closed():
                task.cancel()
        self.__init__()  # type: ignore[misc]


# The most names an `online` list carries (its `online_count` says how many there are).
ONLINE_LISTED = 200
LOBBY = _Lobby()
# For /healthz (game/supervise.py): the relay while lobby sockets are here, the sweep while
# club sockets are, and the lobby's updates (a failed one is tried again in seconds).
RELAY = Watch("lobby relay", lambda: settings.CLUB["LOBBY_COALESCE"])
RELAY.wanted = lambda: bool(LOBBY.local or LOBBY.watchers)
SWEEP = Watch("challenge sweep", lambda: settings.CLUB["SWEEP_EVERY"])
SWEEP.wanted = lambda: LOBBY.sockets > 0
UPDATES = Watch("lobby updates", lambda: settings.CLUB["LOBBY_COALESCE"], periodic=False)
UPDATES.wanted = lambda: bool(
    LOBBY.matches or LOBBY.challenges or LOBBY.ladders or LOBBY.competitions
    or LOBBY.online_changed
)  # fmt: skip


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
            match=gone.match, players=gone.names, best_of=gone.best_of, started=gone.started
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


def _note_on_loop(**noted: tuple[int, ...]) -> None:
    """Sent after a commit, from a view's thread or the event loop's: noted on the loop."""
    from asgiref.sync import async_to_sync

    async def note() -> None:
        LOBBY.note(**noted)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        with contextlib.suppress(RuntimeError):
            async_to_sync(note)()
    else:
        LOBBY.note(**noted)


def _ladder_changed(sender: Any, ladder: int, **kwargs: Any) -> None:
    _note_on_loop(ladders=(ladder,))


def _competition_changed(sender: Any, competition: int, **kwargs: Any) -> None:
    _note_on_loop(competitions=(competition,))


def listen() -> None:
    match_changed.connect(_match_changed, dispatch_uid="club.lobby")
    challenges_changed.connect(_challenges_changed, dispatch_uid="club.announce")
    ladder_changed.connect(_ladder_changed, dispatch_uid="club.ladder")
    competition_changed.connect(_competition_changed, dispatch_uid="club.competition")


def reset() -> None:
    """A clean process (tests: each runs on its own event loop, and a fresh database may give
    a match the id of another test's)."""
    LOBBY.reset()
    lobby.forget()
