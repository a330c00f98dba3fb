"""What the chat tells the apps whose rooms it keeps (their sockets carry the rooms).

`moderated(action=Moderated)` is sent when a moderator deleted a line, timed a member out or
marked a member a troll, inside that transaction: a receiver (game/chat.py for a match's
rooms, club/chat.py for the lobby's, the competitions' and the ladders') broadcasts it to the
room's readers once the transaction commits (so the deleted line, or the troll's lines, leave
every open page without a reload).
A receiver ignores the rooms not its own; a timeout is also told to the member's every page,
whatever its room (game/chat.py, through the member's own group).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.dispatch import Signal

moderated = Signal()


@dataclass(frozen=True)
class Moderated:
    """A moderator's action in a room: `line` deleted (`kind` "hide"); `member` timed out
    until `until` for `reason` (`kind` "timeout"; the room the timeout was given from, ""
    for none); `member` marked a troll (`kind` "troll": one for each room holding lines of
    theirs that others could read until now)."""

    kind: str  # "hide", "timeout" or "troll"
    room_kind: str  # rules.chat.ROOM_KINDS, or "" (a timeout given from no room)
    room_key: str
    member: int  # the line's author, the member timed out, or the troll
    member_name: str
    line: int | None = None
    until: datetime | None = None
    reason: str = ""
