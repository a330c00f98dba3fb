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
