"""A match's two chat rooms (docs/chat.md), carried on the match's socket: the players' room
(the two players write and read it; spectators read it too, never writing, when the club and
both players allow it: `players_shown`) and the spectators' room (those watching; the players
read it, and write in it, once the match is over). The rooms, lines and limits are the chat
app's (chat/service.py, rules/chat.py); here is who is who at this match, and what a line
looks like on the match's socket.

A line is stored (by `say`) before the socket tells it to the match's group (`tell_line`).
A moderator's deletion, timeout or troll mark in one of the rooms is told to the match's group
once it commits (`moderated`, connected in game/apps.py), so the line (or the troll's lines)
leaves every open page; a timeout, from whatever room, is told to the member's own group too
(every socket of theirs, a match's or the club's), with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q

from accounts.visitors import Visitor
from chat import service as chat
from chat.signals import Moderated
from game.broadcast import _layer, on_commit
from game.chatheld import KEPT, HeldLine, HeldRooms
from game.models import Match
from game.protocol import server_out
from game.protocol.ipc import (
    LineMessage,
    ModeratedMessage,
    TimedOutMessage,
    group_name,
    user_group,
)
from game.service import ServiceError, seat_of
from rules import chat as rules
from rules.chat import HISTORY

Room = server_out.ChatRoom
ROOMS: tuple[Room, ...] = ("players", "spectators")


@dataclass(frozen=True)
class Told:
    """A line stored, ready for the match's group."""

    message: LineMessage


def line_out(said: chat.Said) -> server_out.LineOut:
    return server_out.LineOut(
        id=said.id,
        author=said.author,
        words=said.shown,
        mild=said.mild,
        preset=said.preset,
        at=said.at,
    )


def _finished(row: Match) -> bool:
    return row.status != Match.Status.LIVE


def players_shown(row: Match) -> bool:
    """Whether the match's spectators read its players' room: the club allows it at all
    (settings.CLUB, off unless the club turns it on) and both players let them
    (chat.Preference); read at each players' line and at each read of what a process holds
    for the spectators (game/chatheld.py), so a player's change applies from then."""
    if not settings.CLUB["SPECTATORS_READ_PLAYERS"]:
        return False
    return chat.shown_to_spectators({row.player_a_id, row.player_b_id})


def played(user: Visitor) -> int:
    """The matches `user` has finished at a table with someone else (the chat's rules on new
    members' links and the lobby's panic switch read it)."""
    if user is None or not user.is_authenticated:
        return 0
    mine = Q(player_a_id=user.pk) | Q(player_b_id=user.pk)
    return Match.objects.filter(mine, status=Match.Status.FINISHED, practice=False).count()


def say(
    match_id: int, user: Visitor, room: Room, text: str | None, preset: str | None,
    now: datetime, sender: str, address: str,
) -> Told:  # fmt: skip
    """Store `user`'s line in the match's `room`, or raise `chat.ChatRefused` (or a
    `ServiceError` for a match that is not there); `address`: the socket's client, whose
    rate the line counts against (chat.service.say)."""
    # Not the match's state (its balls and frames, decoded): a practice table's seat alone
    # reads it (`seat_of`, then loading it).
    row = (
        Match.objects.filter(pk=match_id).only("status", "practice", "player_a", "player_b").first()
    )
    if row is None:
        raise ServiceError("not_found", "no such match")
    player = seat_of(row, user) is not None
    finished = _finished(row)
    said = chat.say(
        chat.room(room, match_id), user, text, now, preset=preset, player=player,
        finished=finished, played=lambda: played(user), address=address,
    )  # fmt: skip
    text_out = server_out.Line(room=room, line=line_out(said)).text()
    message: LineMessage = {
        "type": "match.line", "room": room, "text": text_out, "author": said.author_id,
        "shadow": said.shadow, "finished": finished,
        "players_shown": room == "players" and players_shown(row), "sender": sender,
    }  # fmt: skip
    return Told(message)


async def tell_line(match_id: int, told: Told) -> None:
    """Send a stored line to every socket of the match, in every process."""
    await _layer().group_send(group_name(match_id), dict(told.message))


def reads(room: Room, player: bool, finished: bool, shown: bool = False) -> bool:
    """Whether a socket reads `room` (the players' room: a spectator only when it is
    `shown`, `players_shown`)."""
    return rules.may_read(room, player, finished, shown)


def _held(room: Room, match_id: int) -> list[HeldLine]:
    lines = chat.latest(chat.room(room, match_id), KEPT)
    return [
        HeldLine(s.id, s.author_id, s.shadow, line_out(s).model_dump(mode="json", by_alias=True))
        for s in lines
    ]


def spectators_rooms(match_id: int) -> HeldRooms:
    """What the spectators read, for a process to hold (game/chatheld.py): the spectators'
    room's latest lines, trolls' included, and the players' room's when it is shown to them
    (else none of it is read)."""
    row = Match.objects.filter(pk=match_id).only("player_a", "player_b").first()
    shown = row is not None and players_shown(row)
    players = _held("players", match_id) if shown else []
    return HeldRooms(shown, _held("spectators", match_id), players)


def history(
    match_id: int, reader: Visitor, player: bool, blocked: frozenset[int] = frozenset()
) -> list[str]:
    """The `lines` messages a player's socket is sent after its welcome: each room they
    read, its last lines (a troll's only to the troll; none a moderator deleted, none of a
    member the reader `blocked`). A spectator's come from what the process holds
    (game/chatheld.py)."""
    row = Match.objects.filter(pk=match_id).only("status").first()
    finished = row is not None and _finished(row)
    texts = []
    for room in ROOMS:
        if not reads(room, player, finished):
            continue
        lines = chat.recent(chat.room(room, match_id), reader, HISTORY, blocked)
        texts.append(server_out.Lines(room=room, lines=[line_out(s) for s in lines]).text())
    return texts


def timeout_of(user: Visitor, now: datetime) -> rules.Timeout | None:
    """The chat timeout `user` is under, to tell them why and until when."""
    return chat.timed_out(user, now)


def moderated_message(action: Moderated, finished: bool) -> ModeratedMessage:
    """The match group's message of a moderator's action in one of its rooms."""
    room: Room = "players" if action.room_kind == "players" else "spectators"
    if action.kind == "hide":
        assert action.line is not None
        text = server_out.Deleted(room=room, ids=[action.line]).text()
    elif action.kind == "troll":
        text = server_out.Struck(room=room, author=action.member_name).text()
    else:
        assert action.until is not None
        told = server_out.TimedOut(
            room=room, member=action.member_name, until=action.until, reason=None
        )
        text = told.text()
    return {
        "type": "match.moderated", "kind": action.kind, "room": room, "text": text,
        "member": action.member, "line": action.line, "finished": finished,
    }  # fmt: skip


def timed_out_message(action: Moderated) -> TimedOutMessage:
    """The member's own group's message of their timeout: each page of theirs says it."""
    assert action.until is not None
    return {
        "type": "member.timed_out", "member": action.member_name,
        "until": action.until.timestamp(), "reason": action.reason,
        "room_kind": action.room_kind, "room_key": action.room_key,
    }  # fmt: skip


def moderated(sender: Any, action: Moderated, **kwargs: Any) -> None:
    """A moderator's action (chat.signals), told once its transaction commits: a timeout to
    the member's every page, whatever room it was given from (their own group); an action in
    one of a match's rooms to the match's group."""
    if action.kind == "timeout":
        told = timed_out_message(action)

        async def tell_member() -> None:
            await _layer().group_send(user_group(action.member), dict(told))

        on_commit(tell_member)
    if action.room_kind not in ROOMS:
        return
    match_id = int(action.room_key)
    row = Match.objects.filter(pk=match_id).only("status").first()
    message = moderated_message(action, row is not None and _finished(row))

    async def send() -> None:
        await _layer().group_send(group_name(match_id), dict(message))

    on_commit(send)
