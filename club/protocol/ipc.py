"""What the club's server processes send each other on the channel layer (as the match's,
game/protocol/ipc.py): the lobby's updates to the one lobby group, whose members are the
processes' relays, and a member's notices to their own group (`user_group`, the match's
module's: a member's match sockets are in it too, and ignore the notices, which the page's
notices socket shows)."""

from __future__ import annotations

from typing import TypedDict

LOBBY_GROUP = "lobby"
# What every club socket hears, the notices sockets too: a page showing a ladder or a
# competition reads it again when told it changed (club/process.py).
PAGES_CHANGED = ("lobby.ladder", "lobby.competition")


class TextMessage(TypedDict):
    type: str  # "lobby.update", "lobby.ladder", "lobby.competition" or "club.notice"
    text: str  # sent to the browser as is


class LineMessage(TypedDict):
    """A line of one of the club's rooms, to the room's group: the lobby's (each process's
    relay hands it to the lobby sockets whose reader may see it), or a page's room's (its
    sockets are in it: club/chat.py `ClubRoom.group`)."""

    type: str  # "lobby.line", or "room.line" for a competition's or a ladder's room
    text: str  # the `line` message, as sent
    author: int  # the author's user id: a troll's line reaches the troll alone, and no
    # member who blocked the author
    shadow: bool
    sender: str  # the writer's own channel, which sent its copy first


class ModeratedMessage(TypedDict):
    """A moderator's action in one of the club's rooms, to its group: the member concerned's
    sockets skip a timeout (told them through their own group, with its reason) and a troll
    mark (their lines stay theirs), as the match's (game/protocol/ipc.py)."""

    type: str  # "lobby.moderated", or "room.moderated" for a page's room
    kind: str  # "hide", "timeout" or "troll"
    text: str  # the `deleted`, `timed_out` or `struck` message as the room's readers get it
    member: int
