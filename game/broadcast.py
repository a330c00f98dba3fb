"""Telling every socket of a match, in every process, through the channel layer (the messages
are game/protocol/ipc.py's): a stored event, the presence, the shot clock's start.

An action announces itself (`on_commit`): the service stores an event, or starts a clock, and
says in the same breath what to send once its transaction commits. No caller has to remember
to broadcast afterwards, and what a rolled-back action stored is never told.

`LATEST`: the newest event version this process knows of per match it serves (published or
heard here), so a ping costs no database read unless the socket is behind."""

from __future__ import annotations

import contextvars
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
from game.supervise import DEPENDENCIES
from game.turns import Turn

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


def on_commit(send: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run `send()` once the current transaction commits (at once outside one). From a
    thread of the server's (a view, the players' database thread) it runs on the server's
    event loop while the thread waits, so what an action stores leaves in the order it was
    stored. A failure to send is logged and changes nothing stored: sockets fill any gap
    from the database."""

    def run() -> None:
        try:
            async_to_sync(send)()
        except Exception as exc:
            # Redis away: said once for the process (game/supervise.py), not a traceback an
            # event; a bug is still Django's to log (robust: the commit stands either way).
            if DEPENDENCIES.failed(exc, "a broadcast") is None:
                raise
        else:
            DEPENDENCIES.back("redis")  # said once, if it was away

    transaction.on_commit(run, robust=True)


def publish_on_commit(match_id: int, stored: Stored) -> None:
    """`publish` once the transaction storing the event commits."""

    async def send() -> None:
        await publish(match_id, stored)

    on_commit(send)


def start_clock_on_commit(match_id: int, start: ClockStart) -> None:
    """`start_clock` once the transaction that started it commits."""

    async def send() -> None:
        await start_clock(match_id, start)

    on_commit(send)


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
    # Heard in a context of its own: what a listener starts (a computer's drive) outlives
    # this send, and must not inherit the executor of the thread that committed and waits
    # for it (asgiref's, gone once that thread's call returns). A task of its own for the
    # whole send would cost every event another turn of a busy loop before the thread goes on.
    contextvars.Context().run(match_changed.send, sender=Match, match_id=match_id)


def turn_of(message: EventMessage) -> Turn:
    """The turn an event message carries."""
    stamp = message["deadline"]
    deadline = datetime.fromtimestamp(stamp, UTC) if stamp is not None else None
    return Turn(deadline, message["aimer"], message["in_hand"])


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer
