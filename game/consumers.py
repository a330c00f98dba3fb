"""The match websocket, `/ws/match/<id>/` and the crowd's `/ws/watch/<id>/` (game/routing.py):
parse, authorise, hand to the service, send.

Nothing here decides an outcome. Every request goes through `game.service` in a thread (the
ORM is synchronous); the service broadcasts the events it stored to the match group once its
transaction commits (game/broadcast.py). Each process hears a match's broadcasts once and
hands them to its sockets of that match (game/fanout.py); a message to one socket is sent to
it directly. The channel layer may drop a message, so each socket tracks the last version it
sent and fills any gap from the database (on a later event, or on the browser's ping when this
process knows of a newer version). A member's socket is in their own group too (as their club
sockets are: game/protocol/ipc.py `user_group`), where the chat tells them what concerns them
wherever they are: a block they made, a timeout given them from another room.

What a stranger can cost is bounded: sockets per address and per match are capped, `hello`
is answered once per socket, and from what this process already holds (`TABLES`: one read
a frame for a whole crowd), a spectator's messages touch no database but for a frame's
referee log (rate-limited per socket, and cached per process), and a socket refused for
flooding without pause is closed (see docs/security.md). What every socket shares (the gate,
the flood guard and the backlog, one hello, clean-up) is game/sockets.py's.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from accounts import addresses
from chat.service import (
    ChatRefused,
    blocked_by,
    given_back_if_refused,
    shown_to,
    take_room_rate,
)
from game import chat, clock, logs, presence, service
from game.aims import AIMS
from game.broadcast import LATEST, event_message, turn_of
from game.chatheld import HELD
from game.fanout import FANOUT, Inbox
from game.gates import GATE, Bucket
from game.greetings import TABLES, Greeting
from game.heartbeats import HEARTBEATS
from game.models import Match
from game.protocol import (
    CLOSE_NOT_FOUND,
    CLOSE_UNAVAILABLE,
    PROTOCOL_VERSION,
    client_in,
    server_out,
)
from game.protocol.ipc import (
    AimMessage,
    BlocksMessage,
    ClockMessage,
    EventMessage,
    LineMessage,
    ModeratedMessage,
    PresenceMessage,
    TimedOutMessage,
    group_name,
    user_group,
)
from game.shotclocks import CLOCKS
from game.sockets import Socket
from game.supervise import DEPENDENCIES
from game.text import error_text, language_of, timed_out_text
from game.turns import NO_TURN, Turn
from game.work import detach, play, talk
from rules.state import Player

log = logging.getLogger(__name__)

SAYS_WAITING = 4  # a socket's chat lines waiting to be stored at once; more: `chat_busy`


class MatchConsumer(Socket[client_in.Hello, client_in.ClientMessage]):
    hello = client_in.Hello
    version = PROTOCOL_VERSION
    hello_again = "hello once per connection; use ping to resync"
    match_id: int
    seat: Player | None = None
    practice: bool = False  # one member on both sides: the seat follows the turn
    sent_version: int = 0
    asked: tuple[str, ...] = ()  # the client ids of its last requests handed to the service
    turn: Turn = NO_TURN
    blocked: frozenset[int] = frozenset()  # the members whose lines this member never sees
    players_shown: bool = False  # a spectator reads the players' room (game/chat.py)
    own_group: str | None = None  # the member's own group, once joined (`greet`)
    saying: int = 0  # the socket's chat lines waiting to be stored (`_say`)
    crowd: bool = False  # opened on the crowd's path, /ws/watch/ (game/routing.py)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The match's broadcasts come from the process's relay (game/fanout.py), not through
        # dispatch; they wait for this socket's own handler to finish, as dispatch's do.
        self.inbox = Inbox(self.handle, self._quick, self.lock)
        self.say_lock = asyncio.Lock()  # the socket's lines stored one at a time, in order

    @property
    def room(self) -> int:
        return self.match_id

    def _quick(self, message: Any) -> bool:
        """Whether the relay may hand this socket `message` itself: it needs no database
        (an event after a gap that this process did not hear is read by the socket's own
        task, not while the relay's other sockets wait)."""
        if message["type"] != "match.event" or message["version"] <= self.sent_version + 1:
            return True
        return TABLES.after(self.match_id, self.sent_version) is not None

    @property
    def seated(self) -> bool:
        """Its match's broadcasts reach the players' sockets before the crowd's."""
        return self.seat is not None

    async def connect(self) -> None:
        route = self.scope["url_route"]["kwargs"]
        self.match_id = int(route["match_id"])
        self.crowd = bool(route.get("crowd", False))
        user = self.scope.get("user")
        member = user is not None and user.is_authenticated
        # A stranger (no account: never a player) meets the gate before any database work.
        if not member and not await self._admit(seated=False):
            return
        found = await database_sync_to_async(self._load_seat)()
        if not found:
            await self._close(CLOSE_NOT_FOUND)
            return
        if member and not await self._admit(seated=self.seat is not None):
            return
        conf = settings.SNOOKER
        # Spectators need a hello and a ping now and then; players aim ten times a second.
        burst, rate = (
            (conf["RATE_BURST"], conf["RATE_PER_SECOND"])
            if self.seat is not None
            else (conf["SPECTATOR_RATE_BURST"], conf["SPECTATOR_RATE_PER_SECOND"])
        )
        self._limit(burst, rate, stranger=not member)
        if self.seat is not None and self.holder is not None:
            # A player's sockets at their table share one rate, as their aims do (issue 42).
            seat = GATE.seat_rate(self.holder, self.match_id, burst, rate)
            self.bucket, self.flood = seat.bucket, seat.flood
        self.log_bucket = Bucket(conf["LOG_BURST"], conf["LOG_PER_SECOND"])
        await self.accept()

    def _load_seat(self) -> bool:
        row = Match.objects.filter(pk=self.match_id).first()
        if row is None:
            return False
        self.seat = service.seat_of(row, self.scope["user"])
        self.practice = row.practice
        return True

    @property
    def _held(self) -> Player | None:
        """The seat this socket's presence is kept under (practice: always A, for both)."""
        return "A" if self.practice and self.seat is not None else self.seat

    def _forget(self) -> None:
        """What needs no database: leave the gate and the heartbeat."""
        super()._forget()
        if self.greeted:
            FANOUT.leave(self)
            HEARTBEATS.discard(self.channel_name)

    async def _remove(self) -> None:
        if not self.greeted:
            return
        if self._held is not None:  # a spectator's row goes with the next presence flush
            await database_sync_to_async(presence.disconnect)(
                self.match_id, self.channel_name, self._held
            )
            HEARTBEATS.changed(self.match_id)
        if self.own_group is not None:
            # After the row: a player leaves the table whatever Redis does (a channel left
            # in the group by an outage expires with it).
            await self.channel_layer.group_discard(self.own_group, self.channel_name)

    # --- receiving ----------------------------------------------------------------------------
    def parse(self, data: str | bytes | None) -> client_in.ClientMessage:
        return client_in.parse(data)

    async def take(self, message: client_in.ClientMessage) -> None:
        if isinstance(message, client_in.Ping):
            await self._ping()
        elif isinstance(message, client_in.Aim):
            await self._aim(message)
        elif isinstance(message, client_in.LogRequest):
            await self._log(message)
        elif isinstance(message, client_in.Say):
            await self._say(message)
        elif not isinstance(message, client_in.Hello):  # hellos are the base's
            await self._request(message)

    async def greet(self, message: client_in.Hello) -> None:
        # A player is at the table once their socket's row is stored: before the match's
        # group is joined, which waits on Redis. A player reconnecting while Redis hangs is
        # present all the while, not away from their last drop and claimable (issue 37). The
        # clock's start, if this starts it, is in the welcome read below.
        if self._held is not None:
            await database_sync_to_async(presence.connect)(
                self.match_id, self.channel_name, self._held
            )
        HEARTBEATS.add(self.channel_name, self.match_id, self._held or "")
        await FANOUT.join(self)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            # What the chat tells the member wherever they are (a block they made, a timeout
            # from another room) reaches this socket too: joined before the blocks are read
            # (`_chat_history`), so a block made meanwhile is heard after the read.
            self.own_group = user_group(user.pk)
            await self.channel_layer.group_add(self.own_group, self.channel_name)
        last = message.last_version
        greeting = TABLES.greeting(self.match_id, last) if self.seat is None else None
        if greeting is None:
            greeting = await database_sync_to_async(self._greeting)(last)
            if self.seat is None and greeting.missed is None:
                TABLES.keep(self.match_id, greeting)
        await self._greet(greeting)
        known = HEARTBEATS.presence.get(self.match_id)
        if known is not None:
            if self._held is None:
                # A spectator's row is written with the next flush, and a new count alone is
                # broadcast seldom: counted here, they never read "0 watching" while watching.
                known = known.model_copy(update={"spectators": known.spectators + 1})
            await self.send(known.text())  # who is here, without waiting for a broadcast
        # The striker's cue as it was last seen at this version, if this process heard it: a
        # page that reloads (or a watcher who comes) sees the cue now, not at its next move.
        aim = AIMS.at(self.match_id, greeting.version)
        if aim is not None:
            await self.send(aim)
        await self._chat_history()

    async def _chat_history(self) -> None:
        """The last lines of each chat room this socket reads, after every welcome (on
        arrival and on reconnect): the page replaces what it showed of them."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            # Whom the member blocked, read again at every welcome (a block made meanwhile).
            self.blocked = await database_sync_to_async(blocked_by)(user)
        if self.seat is None:  # a spectator: from what the process holds (a crowd: one read)
            reader = user.pk if user is not None and user.is_authenticated else None
            held = await HELD.lines(
                self.match_id, reader,
                lambda: database_sync_to_async(chat.spectators_rooms)(self.match_id),
                self.blocked,
            )  # fmt: skip
            self.players_shown = held.players_shown
            for text in held.texts:
                await self.send(text)
            return
        texts = await database_sync_to_async(chat.history)(self.match_id, user, True, self.blocked)
        for text in texts:
            await self.send(text)

    async def _say(self, message: client_in.Say) -> None:
        """A chat line, stored by a task of the socket's own (`_store_line`): the socket goes
        on taking its messages, and the match's events, meanwhile. At most `SAYS_WAITING` of
        its lines wait for the database at once; more are refused `chat_busy`, as a line past
        its room's rate is, here: a crowd's refused lines (most of a busy room's) cost the
        table no task, no lock and no thread, only their answer (docs/chat.md, "Load")."""
        try:
            if self.saying >= SAYS_WAITING:
                raise ChatRefused("chat_busy", "the room is busy; try again in a moment")
            take_room_rate(message.room, self.match_id)
        except ChatRefused as exc:
            await self._error(exc.code, exc.message, message.client_id)
            return
        self.saying += 1
        detach(self._store_line(message))

    async def _store_line(self, message: client_in.Say) -> None:
        """The socket's lines one at a time, in the order said (`_said`); the database or
        Redis away under one closes the socket as under any handler (game/sockets.py)."""
        try:
            async with self.say_lock:
                await self._said(message)
        except Exception as exc:
            if DEPENDENCIES.failed(exc, "a chat line") is None:
                raise
            await self._close(CLOSE_UNAVAILABLE)
        finally:
            self.saying -= 1

    async def _said(self, message: client_in.Say) -> None:
        """A chat line counted in its room's rate (`_say`): stored (on the chat's own database
        thread: game/work.py `talk`), sent to this socket first, then to the match's group
        (whose copy this socket skips). A refusal never closes a member's socket."""
        user = self.scope.get("user")
        try:
            with given_back_if_refused(message.room, self.match_id):
                told = await talk(
                    chat.say, self.match_id, user, message.room, message.text, message.preset,
                    clock.now(), self.channel_name, addresses.of_scope(self.scope),
                )  # fmt: skip
        except ChatRefused as exc:
            if exc.code == "chat_timed_out":
                out = await database_sync_to_async(chat.timeout_of)(user, clock.now())
                if out is not None:
                    with translation.override(language_of(self.scope)):
                        words = timed_out_text(out.until, out.reason)
                    await self.send(
                        server_out.Error(
                            code=exc.code, message=words, client_id=message.client_id
                        ).text()
                    )
                    return
            await self._error(exc.code, exc.message, message.client_id)
            return
        except service.ServiceError as exc:
            await self._error(exc.code, exc.message, message.client_id)
            return
        await self.send(told.message["text"])
        try:
            await chat.tell_line(self.match_id, told)
        except Exception as exc:
            # Redis away: the line is stored; the others read it on their next welcome.
            if DEPENDENCIES.failed(exc, "a chat line") is None:
                raise

    async def _greet(self, greeting: Greeting) -> None:
        """Send a greeting: the welcome, then the frame's log after a snapshot, or the events
        missed (and the clock) after none."""
        await self.send(greeting.welcome)
        for text in greeting.missed if greeting.missed is not None else (greeting.story,):
            if text is not None:
                await self.send(text)
        if greeting.missed is not None and greeting.turn.deadline is not None:
            # The browser's own snapshot may predate the clock's start (no event marks it).
            clock = server_out.Clock(version=greeting.version, deadline=greeting.turn.deadline)
            await self.send(clock.text())
        self._sent(greeting.version, greeting.turn)

    def _greeting(self, last: int | None) -> Greeting:
        """The table now, and either the events after `last` or, when those cannot be sent,
        the snapshot and the referee's log of the frame being played (which the snapshot
        alone would lose)."""
        row, snapshot, turn = service.table(self.match_id)
        missed = None
        if last is not None and last <= row.version:
            missed = service.events_between(
                self.match_id, last, row.version, settings.SNOOKER["RESYNC_EVENTS"]
            )
        players = service.players(row)

        def welcome(snapshot: server_out.Snapshot | None) -> str:
            return server_out.Welcome(
                match=self.match_id, seat=self.seat, players=players, snapshot=snapshot
            ).text()

        bare = welcome(None)
        if missed is not None:
            return Greeting(row.version, bare, bare, None, tuple(missed), turn, players)
        story = logs.current_log(row)
        return Greeting(row.version, welcome(snapshot), bare, story, None, turn, players)

    def refusal_text(self, code: str, detail: str, client_id: str | None) -> str:
        """A refusal: its stable code, and what it says to a person in the language of the
        socket's page (game/text.py; `detail`, the protocol's own words, only where they
        help a broken client's author)."""
        with translation.override(language_of(self.scope)):
            message = error_text(code, detail)
        return server_out.Error(code=code, message=message, client_id=client_id).text()

    async def _ping(self) -> None:
        if self.sent_version < LATEST.get(self.match_id, 0):
            await self._catch_up()  # this process knows of newer events: read them
        await self.send(server_out.Pong(version=self.sent_version).text())

    async def _log(self, message: client_in.LogRequest) -> None:
        """A frame's referee log, to this socket alone: a few a second at most, and read
        from the cache once a process has read it (a finished frame's for good)."""
        if not self.log_bucket.take():
            await self._error("rate_limited", "too many log requests; wait a little")
            return
        try:
            text = await database_sync_to_async(logs.requested_log)(self.match_id, message.frame)
        except service.ServiceError as exc:
            await self._error(exc.code, exc.message)
            return
        await self.send(text)

    async def _aim(self, message: client_in.Aim) -> None:
        if self.seat is None:
            await self._error("not_a_player", "spectators cannot aim")
            return
        seat = self.turn.aimer if self.practice else self.seat
        if seat is None or seat != self.turn.aimer:
            await self._error("not_your_turn", "only the striker aims, when a stroke is due")
            return
        if message.cue_ball is not None and not self.turn.in_hand:
            await self._error("cue_ball_not_in_hand", "the cue ball is not in hand")
            return
        text = server_out.AimOut(
            seat=seat, angle=message.angle, speed=message.speed, side=message.side,
            height=message.height, cue_ball=message.cue_ball, version=self.sent_version,
        ).text()  # fmt: skip
        # One rate per seat, however many sockets its player holds (game/aims.py).
        await AIMS.lane(self.match_id, seat).aim(lambda: self._relay_aim(text))

    async def _relay_aim(self, text: str) -> None:
        message: AimMessage = {
            "type": "match.aim", "text": text, "sender": self.channel_name,
            "version": self.sent_version,
        }  # fmt: skip
        try:
            await self.channel_layer.group_send(group_name(self.match_id), dict(message))
        except Exception as exc:
            # Redis away: an aim is a passing show, dropped (the stroke is what counts); the
            # socket stays, and the outage is said once for the process.
            if DEPENDENCIES.failed(exc, "an aim") is None:
                raise

    async def _request(self, message: service.PlayerRequest) -> None:
        client_id = message.client_id
        if isinstance(message, client_in.Stroke | client_in.Choose) and (
            message.version < self.sent_version and client_id not in self.asked
        ):
            # Made at a table older than one this socket has sent: refused as the service
            # would, before it costs the database two reads (issue 42). A repeat of one of its
            # own last requests goes on, to be answered with its first ack.
            await self._error("stale_version", "the table changed since", client_id)
            return
        self.asked = (*self.asked[-7:], client_id)
        try:
            applied = await play(service.submit, self.match_id, self.scope["user"], message)
        except service.ServiceError as exc:
            await self._error(exc.code, exc.message, client_id)
            return
        except Exception as exc:
            # A bug must not cost the player the connection, nor the match its state: the
            # transaction rolled back, so the request simply did not happen. (The database
            # away is said once for the process, not a traceback a request.)
            if DEPENDENCIES.failed(exc, "a player's request") is None:
                log.exception("request failed in match %s: %r", self.match_id, message)
            await self._error("internal", "the server failed; try again", client_id)
            return
        ack = server_out.Ack(
            client_id=client_id, version=applied.version, duplicate=applied.duplicate
        )
        await self.send(ack.text())
        # The events went to the match's group on commit, but this socket is busy now, so the
        # relay queued its copy behind the crowd's: the striker sends its own first, and the
        # relay's copy then finds it sent.
        for stored in applied.events:
            await self.match_event(event_message(stored))

    # --- broadcasting ---------------------------------------------------------------------------
    # Handed over by the process's relay (game/fanout.py), which did what the process does
    # once per message (LATEST, TABLES, CLOCKS) before any socket takes it.
    async def match_event(self, event: EventMessage) -> None:
        version = event["version"]
        if version <= self.sent_version:
            return  # already sent (a retry, or we caught up from the database)
        if version > self.sent_version + 1:
            await self._catch_up()
            if version <= self.sent_version:
                return
        await self.send(event["text"])
        self._sent(version, turn_of(event))

    async def match_aim(self, event: AimMessage) -> None:
        if event["sender"] != self.channel_name:
            await self.send(event["text"])

    async def match_thinking(self, event: AimMessage) -> None:
        await self.send(event["text"])

    async def match_line(self, event: LineMessage) -> None:
        if event["sender"] == self.channel_name:
            return  # sent first, by _say
        room: chat.Room = "players" if event["room"] == "players" else "spectators"
        if room == "players" and self.seat is None:
            # Whether the spectators read the players' room is the players' (and the club's)
            # as each line is said: the moderators' actions there follow this socket's word.
            self.players_shown = event["players_shown"]
        reader = getattr(self.scope.get("user"), "pk", None)
        if not shown_to(event["author"], event["shadow"], reader, self.blocked):
            return  # a troll's line (to the troll alone), or a member this reader blocked
        if chat.reads(room, self.seat is not None, event["finished"], event["players_shown"]):
            await self.send(event["text"])

    async def match_moderated(self, event: ModeratedMessage) -> None:
        """A line deleted, a member timed out, or a troll's lines struck, in a room: every
        page that reads it is told (a spectator the players' room's only while it is shown
        to them). The member concerned hears of a deletion only: their timeout comes through
        their own group, with its reason, and a troll's lines stay on the troll's pages."""
        if event["member"] == getattr(self.scope.get("user"), "pk", None) and (
            event["kind"] != "hide"
        ):
            return
        room: chat.Room = "players" if event["room"] == "players" else "spectators"
        if chat.reads(room, self.seat is not None, event["finished"], self.players_shown):
            await self.send(event["text"])

    # --- to the member's own group (game/protocol/ipc.py `user_group`) ------------------------
    async def member_blocks(self, event: BlocksMessage) -> None:
        """The member blocked or unblocked someone: whom they block, read again (this page
        stops showing the blocked member's lines at once)."""
        self.blocked = await database_sync_to_async(blocked_by)(self.scope.get("user"))

    async def member_timed_out(self, event: TimedOutMessage) -> None:
        """The member was timed out of the chat, from whichever room: this page says until
        when and why (`room` the one it was given from, when it is this match's)."""
        mine = event["room_kind"] in chat.ROOMS and event["room_key"] == str(self.match_id)
        room: chat.Room | None = None
        if mine:
            room = "players" if event["room_kind"] == "players" else "spectators"
        told = server_out.TimedOut(
            room=room, member=event["member"], until=datetime.fromtimestamp(event["until"], UTC),
            reason=event["reason"],
        )  # fmt: skip
        await self.send(told.text())

    async def club_notice(self, event: dict[str, Any]) -> None:
        """The member's notices (their challenges: club/process.py) are for the page's own
        notices socket (static/js/site.js), which is in the same group."""

    async def match_presence(self, event: PresenceMessage) -> None:
        await self.send(event["text"])

    async def match_clock(self, event: ClockMessage) -> None:
        if event["version"] == self.sent_version:
            deadline = datetime.fromtimestamp(event["deadline"], UTC)
            clock = server_out.Clock(version=event["version"], deadline=deadline)
            await self.send(clock.text())

    async def _catch_up(self) -> None:
        """Send every stored event this socket has not sent yet (the layer may drop some):
        from those this process heard, else from the database."""
        missed = TABLES.after(self.match_id, self.sent_version)
        if missed is None:
            missed = await database_sync_to_async(service.events_after)(
                self.match_id, self.sent_version, settings.SNOOKER["RESYNC_EVENTS"]
            )
        if missed is None:
            await self._greet(await database_sync_to_async(self._greeting)(None))
            return
        for text in missed.texts:
            await self.send(text)
        self._sent(missed.version, missed.turn)

    def _sent(self, version: int, turn: Turn) -> None:
        """The socket is now at `version`, where `turn` holds: arm the match's shot clock."""
        self.sent_version = version
        self.turn = turn
        LATEST[self.match_id] = max(version, LATEST.get(self.match_id, 0))
        CLOCKS.arm(self.match_id, version, turn.deadline)
