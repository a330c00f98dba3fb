"""What travels on the channel layer between server processes (lila-ws's `LilaIn`/`LilaOut`):
one group per match, whose every socket, in every process, hears these messages; and one
group per member, every socket of theirs (a match's, the lobby's, a page's notices: the club's
sockets join it too, club/consumers.py), for what concerns that member wherever they are. The
layer packs them with msgpack, so they hold no datetimes: times go as POSIX stamps. A
consumer's handler is named after the `type` (`match.event` -> `match_event`)."""

from __future__ import annotations

from typing import TypedDict

from rules.state import Player


def group_name(match_id: int) -> str:
    """The match's group: every socket of it, players and spectators, in every process."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """A member's (or a guest's) own group: every socket of theirs, in every process (their
    notices, club/process.py; what the chat tells them wherever they are, below)."""
    return f"user-{user_id}"


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
    # The players' room shown to spectators when it was said (the club's setting and both
    # players': game/chat.py `players_shown`); always False for the spectators' room.
    players_shown: bool
    sender: str  # the writer's own channel, which sent its copy first


class ModeratedMessage(TypedDict):
    """A moderator's action in one of the match's rooms, told to the room's readers. The
    member concerned hears a deletion as everyone does; a timeout comes to them through their
    own group with its reason (`TimedOutMessage`), and a troll's lines stay theirs, so their
    sockets skip those two."""

    type: str  # "match.moderated"
    kind: str  # "hide" (a line deleted), "timeout" or "troll" (a member marked a troll)
    room: str  # "players" or "spectators"
    text: str  # the `deleted`, `timed_out` or `struck` message as the readers get it
    member: int  # the line's author, the member timed out, or the troll
    line: int | None  # the deleted line's id (None for the others)
    finished: bool  # the match was over (the players read the spectators' room)


# --- to a member's own group (`user_group`) ------------------------------------------------------
class BlocksMessage(TypedDict):
    """The member blocked or unblocked someone: each socket of theirs that carries a chat room
    reads whom again, so the blocked member's lines stop (or come again) at once."""

    type: str  # "member.blocks"


class TimedOutMessage(TypedDict):
    """A moderator timed the member out of the chat: each of their pages that carries a room
    tells them until when and why (the room it was given from tells its readers too)."""

    type: str  # "member.timed_out"
    member: str  # their name, as the `timed_out` message says it
    until: float  # POSIX time
    reason: str
    room_kind: str  # where it was given from (rules.chat.ROOM_KINDS; "" from no room)
    room_key: str
