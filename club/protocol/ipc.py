"""What the club's server processes send each other on the channel layer (as the match's,
game/protocol/ipc.py): the lobby's updates to the one lobby group, whose members are the
processes' relays, and a member's notices to their own group."""

from __future__ import annotations

from typing import TypedDict

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """A member's (or a guest's) own group: every socket of theirs, in every process."""
    return f"user-{user_id}"


class TextMessage(TypedDict):
    type: str  # "lobby.update", "lobby.ladder" or "club.notice"
    text: str  # sent to the browser as is


class LineMessage(TypedDict):
    """A line of the lobby's chat room, to the lobby group (each process's relay hands it to
    the lobby sockets whose reader may see it)."""

    type: str  # "lobby.line"
    text: str  # the `line` message, as sent
    author: int  # the author's user id: a troll's line reaches the troll alone, and no
    # member who blocked the author
    shadow: bool
    sender: str  # the writer's own channel, which sent its copy first


class ModeratedMessage(TypedDict):
    """A moderator's deletion or timeout in the lobby's room, to the lobby group."""

    type: str  # "lobby.moderated"
    text: str  # the `deleted` or `timed_out` message as the room's readers get it
    own: str  # as the member concerned gets it (a timeout's reason: theirs alone)
    member: int


class BlocksMessage(TypedDict):
    """The member blocked or unblocked someone: their club sockets read whom again."""

    type: str  # "club.blocks"
