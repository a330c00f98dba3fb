"""What travels on the channel layer between server processes (lila-ws's `LilaIn`/`LilaOut`):
one group per match, whose every socket, in every process, hears these messages. The layer
packs them with msgpack, so they hold no datetimes: times go as POSIX stamps. A consumer's
handler is named after the `type` (`match.event` -> `match_event`)."""

from __future__ import annotations

from typing import TypedDict

from rules.state import Player


def group_name(match_id: int) -> str:
    """The match's group: every socket of it, players and spectators, in every process."""
    return f"match-{match_id}"


class EventMessage(TypedDict):
    type: str  # "match.event"
    version: int
    text: str  # the stored event, sent as is
    deadline: float | None  # the shot clock's deadline after it, as a POSIX time
    aimer: Player | None  # who may aim after it
    in_hand: bool


class AimMessage(TypedDict):
    type: str  # "match.aim", or "match.thinking" (the computer's, server_out.Thinking)
    text: str
    sender: str  # the striker's own channel, which does not echo it back
    version: int  # the event version the aim was made at (game/aims.py keeps the last)


class PresenceMessage(TypedDict):
    type: str  # "match.presence"
    text: str


class ClockMessage(TypedDict):
    type: str  # "match.clock"
    version: int
    deadline: float  # POSIX time


class LineMessage(TypedDict):
    type: str  # "match.line"
    room: str  # "players" or "spectators"
    text: str  # the `line` message, sent as is to the room's readers
    author: int  # the author's user id (a troll's line reaches the troll alone)
    shadow: bool
    finished: bool  # the match was over when it was said (players read the spectators' room)
    sender: str  # the writer's own channel, which sent its copy first


class ModeratedMessage(TypedDict):
    type: str  # "match.moderated": a line deleted, or a member timed out, in a room
    room: str  # "players" or "spectators"
    text: str  # the `deleted` or `timed_out` message as the room's readers get it
    own: str  # as the member concerned gets it (a timeout's reason: theirs alone)
    member: int  # the line's author, or the member timed out
    line: int | None  # the deleted line's id (None for a timeout)
    finished: bool  # the match was over (the players read the spectators' room)
