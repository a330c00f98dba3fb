"""The lobby's chat room (docs/chat.md), carried on the lobby's socket (club/consumers.py):
members write their own words, a guest only the preset phrases, a stranger reads. The room,
its lines and limits are the chat app's (chat/service.py, rules/chat.py); here is what a
line looks like on the lobby's socket, and how it reaches every lobby socket.

A line is stored (`say`) before it is told (`tell_line`): through the channel layer to the
one lobby group, whose members are the processes' relays (club/process.py), so every process
hears the lobby's lines in the order each writer said them. A moderator's deletion, timeout or
troll mark in the lobby's room is told the same way once it commits (`moderated`, connected in
club/apps.py), and a member's block (or unblock) to their own group (`blocks_changed`): every
socket of theirs that carries a room, the lobby's and the matches', reads whom they block
again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from channels.layers import BaseChannelLayer, get_channel_layer

from accounts.visitors import Visitor
from chat import service as chat
from chat.models import Room
from chat.signals import Moderated
from club.protocol import server_out
from club.protocol.ipc import LOBBY_GROUP, LineMessage, ModeratedMessage
from game.broadcast import on_commit
from game.chat import line_out, played
from game.protocol.ipc import BlocksMessage, user_group
from rules.chat import HISTORY


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None
    return layer


def lobby_room() -> Room:
    return chat.room("lobby")


def say(
    user: Visitor, text: str | None, preset: str | None, now: datetime, sender: str, address: str
) -> LineMessage:
    """Store `user`'s line in the lobby's room (or raise `chat.ChatRefused`: during the panic
    switch only members of some standing write here, `chat_panic`; `chat_address_flood` past
    the rate of the socket's client `address`): the message for the lobby group, its `text`
    the `line` the writer is sent first."""
    said = chat.say(
        lobby_room(), user, text, now, preset=preset, played=played(user), address=address
    )
    text_out = server_out.Line(line=line_out(said)).text()
    return {
        "type": "lobby.line", "text": text_out, "author": said.author_id,
        "shadow": said.shadow, "sender": sender,
    }  # fmt: skip


async def tell_line(message: LineMessage) -> None:
    """Send a stored line to every lobby socket, in every process (through their relays)."""
    await _layer().group_send(LOBBY_GROUP, dict(message))


def history(reader: Visitor, blocked: frozenset[int]) -> str:
    """The `lines` message a lobby socket is sent after its welcome: the room's last lines
    `reader` may see (none deleted; a troll's only to the troll; none of a member the reader
    blocked)."""
    lines = chat.recent(lobby_room(), reader, HISTORY, blocked)
    return server_out.Lines(lines=[line_out(s) for s in lines]).text()


def moderated_message(action: Moderated) -> ModeratedMessage:
    """The lobby group's message of a moderator's action in its room (the member concerned
    hears a timeout through their own group, with its reason: game/chat.py)."""
    if action.kind == "hide":
        assert action.line is not None
        text = server_out.Deleted(ids=[action.line]).text()
    elif action.kind == "troll":
        text = server_out.Struck(author=action.member_name).text()
    else:
        assert action.until is not None
        told = server_out.TimedOut(member=action.member_name, until=action.until, reason=None)
        text = told.text()
    return {"type": "lobby.moderated", "kind": action.kind, "text": text,
            "member": action.member}  # fmt: skip


def moderated(sender: Any, action: Moderated, **kwargs: Any) -> None:
    """A moderator's action in the lobby's room (chat.signals): told to the lobby group once
    its transaction commits."""
    if action.room_kind != "lobby":
        return
    message = moderated_message(action)

    async def send() -> None:
        await _layer().group_send(LOBBY_GROUP, dict(message))

    on_commit(send)


def blocks_changed(blocker_id: int) -> None:
    """`blocker_id` blocked or unblocked a member: their lobby and match sockets read whom
    they block again (once the change commits), so the blocked member's lines stop at once."""
    message: BlocksMessage = {"type": "member.blocks"}

    async def send() -> None:
        await _layer().group_send(user_group(blocker_id), dict(message))

    on_commit(send)
