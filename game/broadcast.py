"""Telling every socket of a match, in every process, through the channel layer (the messages
are game/protocol/ipc.py's): a stored event, the presence, the shot clock's start.

An action announces itself (`on_commit`): the service stores an event, or starts a clock, and
says in the same breath what to send once its transaction commits. No caller has to remember
to broadcast afterwards, and what a rolled-back action stored is never told.

`LATEST`: the newest event version this process knows of per match it serves (published or
heard here), so a ping costs no database read unless the socket is behind."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction

from game.models import Match
from game.protocol import server_out
from game.protocol.ipc import ClockMessage, EventMessage, PresenceMessage, group_name
from game.signals import match_changed
from game.turns import Turn

log = logging.getLogger(__name__)

# The event loop a players' thread works for, seen from that thread (game/work.py sets it;
# contextvars go with the work into the thread): what the thread commits is handed to that
# loop without waiting (`on_commit`).
SERVED: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = contextvars.ContextVar(
    "served", default=None
)

LATEST: dict[int, int] = {}


@dataclass(frozen=True, slots=True)
class Stored:
    """One stored event, ready to broadcast."""

    version: int
    text: str  # the event as sent to browsers (JSON)
    turn: Turn  # the turn after it


@dataclass(frozen=True, slots=True)
class ClockStart:
    """The shot clock started when the match did: both players at the table (no event made)."""

    version: int
    deadline: datetime


def on_commit(match_id: int, send: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run `send()` for a match once the current transaction commits (at once outside one),
    on the server's event loop, a match's sends in the order they were stored. A failure to
    send is logged and changes nothing stored: sockets fill any gap from the database.

    From a players' thread (game/work.py) the send is handed to the loop it works for and
    the thread goes on to the next request: waiting for the loop to send is a loop's turn
    and a trip to Redis that no other match's stroke should queue behind. From another
    thread (a view, channels' database thread) the thread waits for the send.

    The send runs in a context of its own: what it starts (a computer's drive, heard through
    `match_changed`) outlives this call, and must not inherit the calling thread's executor,
    gone once the call returns."""
    served = SERVED.get()
    if served is not None:
        loop = served
        transaction.on_commit(
            lambda: loop.call_soon_threadsafe(_in_order, match_id, send), robust=True
        )
        return

    async def apart() -> None:
        await _in_order(match_id, send)

    transaction.on_commit(lambda: async_to_sync(apart)(), robust=True)


# The newest send of each match not yet done, per loop: the next one waits for it. Handed
# over by `call_soon_threadsafe`, in the order the thread committed, these are created in
# that order too.
SENDING: dict[tuple[asyncio.AbstractEventLoop, int], asyncio.Task[None]] = {}


def _in_order(match_id: int, send: Callable[[], Coroutine[Any, Any, None]]) -> asyncio.Task[None]:
    loop = asyncio.get_running_loop()
    key = (loop, match_id)
    before = SENDING.get(key)

    async def after() -> None:
        if before is not None:
            await asyncio.wait([before])  # its failure is its own, logged by it
        try:
            await send()
        except Exception:
            log.exception("could not tell match %s's sockets", match_id)

    task = loop.create_task(after(), context=contextvars.Context())
    SENDING[key] = task
    task.add_done_callback(lambda done: _forget(key, done))
    return task


def _forget(key: tuple[asyncio.AbstractEventLoop, int], done: asyncio.Task[None]) -> None:
    if SENDING.get(key) is done:
        del SENDING[key]


def publish_on_commit(match_id: int, stored: Stored) -> None:
    """`publish` once the transaction storing the event commits."""

    async def send() -> None:
        await publish(match_id, stored)

    on_commit(match_id, send)


def start_clock_on_commit(match_id: int, start: ClockStart) -> None:
    """`start_clock` once the transaction that started it commits."""

    async def send() -> None:
        await start_clock(match_id, start)

    on_commit(match_id, send)


async def start_clock(match_id: int, start: ClockStart) -> None:
    """The shot clock started without an event (both players are here): every socket of the
    match arms its process's timer and tells its browser."""
    message: ClockMessage = {
        "type": "match.clock", "version": start.version, "deadline": start.deadline.timestamp(),
    }  # fmt: skip
    await _layer().group_send(group_name(match_id), dict(message))


async def tell_presence(match_id: int, presence: server_out.Presence) -> None:
    """Send a match's presence to every socket of it, in every process."""
    message: PresenceMessage = {"type": "match.presence", "text": presence.text()}
    await _layer().group_send(group_name(match_id), dict(message))


def event_message(stored: Stored) -> EventMessage:
    """A stored event as the processes tell it to each other."""
    turn = stored.turn
    return {
        "type": "match.event", "version": stored.version, "text": stored.text,
        "deadline": turn.deadline.timestamp() if turn.deadline else None,
        "aimer": turn.aimer, "in_hand": turn.in_hand,
    }  # fmt: skip


async def publish(match_id: int, stored: Stored) -> None:
    """Send a stored event to every socket of the match, in every process."""
    # Known here before any socket hears it: a spectator greeted meanwhile from TABLES must
    # not be given the version before it (the event may reach the group before the socket).
    LATEST[match_id] = max(stored.version, LATEST.get(match_id, 0))
    await _layer().group_send(group_name(match_id), dict(event_message(stored)))
    match_changed.send(sender=Match, match_id=match_id)


def turn_of(message: EventMessage) -> Turn:
    """The turn an event message carries."""
    stamp = message["deadline"]
    deadline = datetime.fromtimestamp(stamp, UTC) if stamp is not None else None
    return Turn(deadline, message["aimer"], message["in_hand"])


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer
