"""What the chat tells the apps whose rooms it keeps (their sockets carry the rooms).

`moderated(action=Moderated)` is sent when a moderator deleted a line or timed a member out,
inside that transaction: a receiver (game/chat.py for a match's rooms, club/chat.py for the
lobby's) broadcasts it to the room's readers once the transaction commits (so the deleted
line leaves every open page without a reload). A receiver ignores the rooms not its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.dispatch import Signal

moderated = Signal()


@dataclass(frozen=True)
class Moderated:
    """A moderator's action in a room: `line` deleted (`kind` "hide"), or `member` timed out
    until `until` for `reason` (`kind` "timeout"; the room the timeout was given from)."""

    kind: str  # "hide" or "timeout"
    room_kind: str  # rules.chat.ROOM_KINDS
    room_key: str
    member: int  # the line's author, or the member timed out
    member_name: str
    line: int | None = None
    until: datetime | None = None
    reason: str = ""
