"""The club's rooms on its sockets (docs/chat.md): the lobby's, carried on the lobby's socket,
and each competition's and each ladder's, carried on the notices socket of its page (named in
that socket's hello). Members write their own words, a guest only the preset phrases, a
stranger reads; a ladder's room is written in by its members and the organisers only (the
owner of a room kind says who: `register`). The room, its lines and limits are the chat
app's (chat/service.py, rules/chat.py); here is what a line looks like on the club's sockets,
and how it reaches every socket carrying its room.

A line is stored (`say`) before it is told (`tell_line`): through the channel layer to the
room's group (the lobby's, whose members are the processes' relays, club/process.py; a
competition's or ladder's, whose members are the sockets carrying it: a page's room has a
handful of readers, the lobby every visitor), so every process hears a room's lines in the
order each writer said them. A moderator's deletion, timeout or troll mark in a room is told
the same way once it commits (`moderated`, connected in club/apps.py), and a member's block
(or unblock) to their own group (`blocks_changed`): every socket of theirs that carries a
room, the club's and the matches', reads whom they block again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from channels.layers import BaseChannelLayer, get_channel_layer

from accounts.visitors import Visitor
from chat import service as chat
from chat.models import Room
from chat.signals import Moderated
from club.protocol import server_out
from club.protocol.ipc import LOBBY_GROUP, LineMessage, ModeratedMessage
from game.broadcast import on_commit
from game.chat import line_out, played
from game.protocol.constants import chat_constants
from game.protocol.ipc import BlocksMessage, user_group
from rules.chat import HISTORY

Kind = Literal["lobby", "competition", "ladder"]


@dataclass(frozen=True)
class ClubRoom:
    """A room of the club's sockets: the lobby's (`key` ""), or a competition's or a ladder's
    (`key` its id)."""

    kind: Kind
    key: str = ""

    @property
    def group(self) -> str:
        """Its channel-layer group: the lobby's one (the relays'), or one per page's room."""
        return LOBBY_GROUP if self.kind == "lobby" else f"chat.{self.kind}.{self.key}"

    @property
    def prefix(self) -> str:
        """Its messages' type prefix: `lobby.line` for the relays, `room.line` for sockets
        (the consumer's `room_line`)."""
        return "lobby" if self.kind == "lobby" else "room"


LOBBY = ClubRoom("lobby")

# Whether `user` writes in the room keyed `key` of a kind (None: no such room, or not one
# `user` may read): registered by the app owning the kind (ladder/chat.py,
# competitions/chat.py; the club cannot import its sibling apps).
Owner = Callable[[int, Visitor], "bool | None"]
_owners: dict[str, Owner] = {}


def register(kind: Kind, owner: Owner) -> None:
    _owners[kind] = owner


def page_room(kind: Kind, key: int, user: Visitor) -> ClubRoom | None:
    """The room of a competition's or ladder's page `user` may read (None: no such page)."""
    owner = _owners.get(kind)
    if owner is None or owner(key, user) is None:
        return None
    return ClubRoom(kind, str(key))


def page_context(kind: Kind, key: int, user: Visitor, writer: bool | None = None) -> dict[str, Any]:
    """What a competition's or ladder's page needs to show its room
    (templates/chat/_page_room.html, static/js/site.js): the room, the reader's voice (a
    member's own words, a guest's phrases, a visitor's none), whether they are one of its
    writers (`writer`, when the page knows it already: else its owner is asked), the chat's
    limits."""
    voice = ""
    if user is not None and user.is_authenticated:
        voice = "member" if chat.is_member(user) else "guest"
    if writer is None:
        writer = _writes(ClubRoom(kind, str(key)), user) if kind == "ladder" else True
    return {
        "kind": kind, "key": key, "voice": voice, "writes": voice != "" and writer,
        "limits": chat_constants(),
    }  # fmt: skip


def _writes(where: ClubRoom, user: Visitor) -> bool:
    """Whether `user` is one of a page room's writers (rules.chat `Writer.player`): the lobby
    asks nothing of it."""
    if where.kind == "lobby":
        return False
    owner = _owners.get(where.kind)
    return bool(owner is not None and owner(int(where.key), user))


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer


def stored_room(where: ClubRoom) -> Room:
    return chat.room(where.kind, where.key)


def say(
    where: ClubRoom, user: Visitor, text: str | None, preset: str | None, now: datetime,
    sender: str, address: str,
) -> LineMessage:  # fmt: skip
    """Store `user`'s line in the room (or raise `chat.ChatRefused`: during the panic switch
    only members of some standing write in the lobby, `chat_panic`; in a ladder's only its
    members and the organisers, `chat_not_allowed`; `chat_address_flood` past the rate of the
    socket's client `address`): the message for the room's group, its `text` the `line` the
    writer is sent first."""
    said = chat.say(
        stored_room(where), user, text, now, preset=preset, player=_writes(where, user),
        played=lambda: played(user), address=address,
    )  # fmt: skip
    text_out = server_out.Line(room=where.kind, line=line_out(said)).text()
    return {
        "type": f"{where.prefix}.line", "text": text_out, "author": said.author_id,
        "shadow": said.shadow, "sender": sender,
    }  # fmt: skip


async def tell_line(where: ClubRoom, message: LineMessage) -> None:
    """Send a stored line to every socket carrying its room, in every process."""
    await _layer().group_send(where.group, dict(message))


def history(where: ClubRoom, reader: Visitor, blocked: frozenset[int]) -> str:
    """The `lines` message a socket carrying the room is sent after its welcome: the room's
    last lines `reader` may see (none deleted; a troll's only to the troll; none of a member
    the reader blocked)."""
    lines = chat.recent(stored_room(where), reader, HISTORY, blocked)
    return server_out.Lines(room=where.kind, lines=[line_out(s) for s in lines]).text()


def moderated_message(where: ClubRoom, action: Moderated) -> ModeratedMessage:
    """The room group's message of a moderator's action in it (the member concerned hears a
    timeout through their own group, with its reason: game/chat.py)."""
    if action.kind == "hide":
        assert action.line is not None
        text = server_out.Deleted(room=where.kind, ids=[action.line]).text()
    elif action.kind == "troll":
        text = server_out.Struck(room=where.kind, author=action.member_name).text()
    else:
        assert action.until is not None
        told = server_out.TimedOut(
            room=where.kind, member=action.member_name, until=action.until, reason=None
        )
        text = told.text()
    return {"type": f"{where.prefix}.moderated", "kind": action.kind, "text": text,
            "member": action.member}  # fmt: skip


def moderated(sender: Any, action: Moderated, **kwargs: Any) -> None:
    """A moderator's action in one of the club's rooms (chat.signals): told to the room's
    group once its transaction commits."""
    if action.room_kind not in ("lobby", "competition", "ladder"):
        return
    where = ClubRoom(action.room_kind, action.room_key)  # type: ignore[arg-type]
    message = moderated_message(where, action)

    async def send() -> None:
        await _layer().group_send(where.group, dict(message))

    on_commit(send)


def blocks_changed(blocker_id: int) -> None:
    """`blocker_id` blocked or unblocked a member: their lobby and match sockets read whom
    they block again (once the change commits), so the blocked member's lines stop at once."""
    message: BlocksMessage = {"type": "member.blocks"}

    async def send() -> None:
        await _layer().group_send(user_group(blocker_id), dict(message))

    on_commit(send)
