"""The chat's service: a line said, checked by the rules (rules/chat.py) and stored; a room's
recent lines; the moderators' timeouts and deleted lines. Broadcasting is the caller's, after
`say` returns (the line is stored first, as a match's events are).

The chat knows no match: whoever carries a room (game/consumers.py for a match's two) says
whether the writer is one of its players and whether its match is over.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import cast

import redis.exceptions
from django.conf import settings
from django.db import transaction

from accounts import limits
from accounts.visitors import Visitor
from chat import words
from chat.models import Action, Line, Panic, Preference, Room, Timeout, Troll
from chat.signals import Moderated, moderated
from rules import chat as rules


class ChatRefused(Exception):
    """A line or an action refused, with its stable code (docs/protocol.md, "Errors")."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message or code


@dataclass(frozen=True)
class Said:
    """A stored line as the rooms' readers get it."""

    id: int
    room: Room
    author: str  # the author's name
    author_id: int
    text: str  # as written (the moderators'); readers get `shown`, or `mild`
    preset: str | None
    at: datetime
    shadow: bool
    shown: str = ""  # the words' strong and mild words masked (chat/words.py)
    mild: str | None = None  # only the strong ones masked, where that differs


class RoomRates:
    """Each room's own rate in this process (`SNOOKER_CHAT_ROOM_RATE`, rules.chat `take`):
    counted in memory, so that a line past it costs no database read, no write and no
    broadcast. Each process counts its own writers' lines: with P processes a room takes at
    most P times the rate, still bounded however many write (docs/chat.md, "Load")."""

    MOST = 10_000  # rooms counted at once; past it, those whose bucket is full again go

    def __init__(self) -> None:
        self.buckets: dict[tuple[str, str], rules.Tokens] = {}

    def take(self, kind: str, key: str, now: float | None = None) -> bool:
        """Whether one more line may go in the room now (it is counted if so)."""
        burst, per_second = rules.room_rate(settings.SNOOKER_CHAT_ROOM_RATE)
        at = time.monotonic() if now is None else now
        taken = rules.take(self.buckets.get((kind, key)), at, burst, per_second)
        if taken is None:
            return False
        if len(self.buckets) >= self.MOST:
            self._forget_idle(at, burst, per_second)
        self.buckets[(kind, key)] = taken
        return True

    def give_back(self, kind: str, key: str) -> None:
        """A line taken that was refused after all (by the rules, or the match not there)."""
        tokens = self.buckets.get((kind, key))
        if tokens is not None:
            burst, _ = rules.room_rate(settings.SNOOKER_CHAT_ROOM_RATE)
            self.buckets[(kind, key)] = rules.give_back(tokens, burst)

    def _forget_idle(self, now: float, burst: int, per_second: float) -> None:
        for room, tokens in list(self.buckets.items()):
            if tokens.left + (now - tokens.at) * per_second >= burst:
                del self.buckets[room]

    def clear(self) -> None:
        self.buckets.clear()


ROOM_RATES = RoomRates()


def take_room_rate(kind: str, key: str | int) -> None:
    """Count a line in its room's rate (every room but a match's players' room), on the
    socket before anything else is done for it: `chat_busy` when the room is past it."""
    if rules.counted_per_room(cast(rules.RoomKind, kind)) and not ROOM_RATES.take(kind, str(key)):
        raise ChatRefused("chat_busy", "the room is busy; try again in a moment")


@contextmanager
def given_back_if_refused(kind: str, key: str | int) -> Iterator[None]:
    """Around the storing of a line counted by `take_room_rate`: refused after all, it gives
    its place back (a refused writer never spends the room's rate; the refusal's code is the
    rules')."""
    try:
        yield
    except Exception:
        ROOM_RATES.give_back(kind, str(key))  # (nothing, for a room not counted: no bucket)
        raise


@contextmanager
def within_room_rate(kind: str, key: str | int) -> Iterator[None]:
    """Both of the above around a line's storing: `chat_busy` before any database work."""
    take_room_rate(kind, key)
    with given_back_if_refused(kind, key):
        yield


def _nobody(reader: int) -> frozenset[int]:
    return frozenset()


# Whom a member blocked: blocking is the club's (club/blocks.py, above the chat), which
# registers its reader here when it starts (club/apps.py); the chat only asks.
_blocked_by: Callable[[int], frozenset[int]] = _nobody


def read_blocks_with(reader: Callable[[int], frozenset[int]]) -> None:
    global _blocked_by
    _blocked_by = reader


def blocked_by(user: Visitor) -> frozenset[int]:
    """The ids of the members `user` blocked: their lines never reach `user`, in any room,
    in the history or live (nobody's for a stranger)."""
    if user is None or not user.is_authenticated or user.pk is None:
        return frozenset()
    return _blocked_by(int(user.pk))


def shown_to(author: int, shadow: bool, reader: int | None, blocked: frozenset[int]) -> bool:
    """Whether a line of `author` reaches `reader` (a user id, or None): a troll's line only
    the troll, a blocked member's never their blocker."""
    if shadow and author != reader:
        return False
    return author not in blocked


def room(kind: rules.RoomKind, key: str | int = "") -> Room:
    """The room of `kind` belonging to `key`, made the first time it is named."""
    found, _ = Room.objects.get_or_create(kind=kind, key=str(key))
    return found


def is_member(user: Visitor) -> bool:
    """A member writes their own words: an account of their own (a guest's, seated by an
    invitation, has no usable password; a stranger has no account)."""
    return bool(user is not None and user.is_authenticated and user.has_usable_password())


def _said(line: Line, name: str) -> Said:
    masked = words.mask(line.text) if not line.preset else words.Masked(line.text, line.text)
    return Said(
        id=line.pk, room=line.room, author=name, author_id=line.author_id, text=line.text,
        preset=line.preset or None, at=line.at, shadow=line.shadow, shown=masked.text,
        mild=masked.strong if masked.strong != masked.text else None,
    )  # fmt: skip


def say(
    where: Room,
    user: Visitor,
    text: str | None,
    now: datetime,
    *,
    preset: str | None = None,
    player: bool = False,
    finished: bool = False,
    played: int | Callable[[], int] = 0,
    address: str | None = None,
) -> Said:
    """Store what `user` says in `where` at `now`, or raise `ChatRefused`. `played`: the
    matches the writer has finished (the carrier counts them: the chat knows no match), for
    the rules on new members' links and the lobby's panic switch (chat/moderation.py); a
    function is asked only when a rule needs it (a line with a link, the lobby's panic).
    `address`: the writer's (accounts.addresses), whose rate every line it sends counts
    against, whatever the account and the socket (`SNOOKER_CHAT_ADDRESS_RATE`), once the
    line passes the rules; None counts nothing (a line from no client: a shell's, a test's).

    The rules read the stored lines and timeouts, then the line is stored on its own, a
    write as short as one row's (SQLite's one writer is the players' strokes' too): two
    lines of one member said at the same instant on two sockets may both pass the flood
    rule, one line over it."""
    if user is None or not user.is_authenticated:
        raise ChatRefused("chat_presets_only", "strangers cannot write; join the club")
    joined = getattr(user, "date_joined", now)
    panic = where.kind == "lobby" and Panic.objects.filter(until__gt=now).exists()
    linked = preset is None and rules.has_link(rules.clean(text or ""))
    if panic or linked:  # the rules that read a member's finished matches
        count = played() if callable(played) else played
        new, standing = rules.is_new(joined, count, now), rules.of_standing(joined, count, now)
    else:
        new, standing = False, True
    writer = rules.Writer(
        member=is_member(user), player=player, finished=finished, new=new, standing=standing
    )
    mine = Line.objects.filter(room=where, author_id=user.pk).order_by("-id")
    recent = [rules.Said(at, t) for at, t in mine.values_list("at", "text")[:10]][::-1]
    timeouts = [
        rules.Timeout(until, reason)
        for until, reason in Timeout.objects.filter(member_id=user.pk, until__gt=now).values_list(
            "until", "reason"
        )
    ]
    kind = cast(rules.RoomKind, where.kind)
    judged = rules.judge(kind, writer, text, preset, recent, timeouts, now, panic)
    if not isinstance(judged, rules.Line):
        raise ChatRefused(judged)
    if address is not None and rules.counted_per_address(kind) and _over(address):
        raise ChatRefused("chat_address_flood")
    shadow = Troll.objects.filter(member_id=user.pk).exists()
    line = Line.objects.create(
        room=where, author_id=user.pk, text=judged.text, preset=judged.preset or "", at=now,
        shadow=shadow,
    )  # fmt: skip
    return _said(line, user.get_username())


def _over(address: str) -> bool:
    """Whether one more line from `address` is past its rate (`SNOOKER_CHAT_ADDRESS_RATE`, in
    the throttle cache). With the cache away (its Redis, for several processes) the line goes,
    as lines are stored and told to their writers while Redis is away (the consumers' `say`):
    each member is still held to the flood limit."""
    try:
        return limits.over_rate("chat", address, settings.SNOOKER_CHAT_ADDRESS_RATE)
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        return False


def latest(where: Room, most: int) -> list[Said]:
    """The room's last `most` lines none deleted, oldest first, trolls' included (`shadow`):
    what a process holds to greet a crowd, choosing each reader's itself."""
    lines = Line.objects.filter(room=where, hidden=False).select_related("author", "room")
    shown = list(lines.order_by("-id")[:most])
    return [_said(line, line.author.get_username()) for line in reversed(shown)]


def recent(
    where: Room,
    reader: Visitor = None,
    most: int = rules.HISTORY,
    blocked: frozenset[int] = frozenset(),
) -> list[Said]:
    """The room's last `most` lines, oldest first: none a moderator deleted, a troll's only
    to the troll, none of a member the reader `blocked`."""
    lines = Line.objects.filter(room=where, hidden=False).select_related("author", "room")
    if blocked:
        lines = lines.exclude(author_id__in=blocked)
    reader_id = reader.pk if reader is not None and reader.is_authenticated else None
    shown = [
        line
        for line in lines.order_by("-id")[: most * 2]
        if shown_to(line.author_id, line.shadow, reader_id, blocked)
    ][:most]
    return [_said(line, line.author.get_username()) for line in reversed(shown)]


def moderates(user: Visitor) -> bool:
    """The club's organisers (staff) moderate every room."""
    return bool(user is not None and user.is_authenticated and getattr(user, "is_staff", False))


def moderator_id(user: Visitor) -> int:
    """The moderator's id, or `ChatRefused` for anyone else."""
    if user is None or not moderates(user) or user.pk is None:
        raise ChatRefused("chat_not_a_moderator")
    return int(user.pk)


def time_out(
    moderator: Visitor,
    member_id: int,
    length: str,
    reason: str,
    now: datetime,
    where: Room | None = None,
) -> Timeout:
    """`moderator` times `member_id` out of chat for `length` (rules.chat.TIMEOUTS), saying
    why; recorded in the audit log. The member's every page is told at once, with why; given
    from a room (`where`: the room of the line it was given for), the room's readers too
    (`chat.signals.moderated`)."""
    by = moderator_id(moderator)
    if length not in rules.TIMEOUTS:
        raise ChatRefused("chat_bad_timeout")
    why = rules.clean(reason)
    if rules.check_text(why) is not None:
        raise ChatRefused("chat_bad_reason")
    with transaction.atomic():
        given = Timeout.objects.create(
            member_id=member_id, by_id=by, reason=why, at=now,
            until=rules.timeout_until(now, length),
        )  # fmt: skip
        Action.objects.create(
            kind=Action.Kind.TIMEOUT, by_id=by, member_id=member_id, reason=why, at=now
        )
        _tell(Moderated(
            kind="timeout", room_kind=where.kind if where is not None else "",
            room_key=where.key if where is not None else "", member=member_id,
            member_name=given.member.get_username(), until=given.until, reason=why,
        ))  # fmt: skip
    return given


def _tell(action: Moderated) -> None:
    """Tell the room's carrier (inside the transaction: it broadcasts once it commits)."""
    moderated.send(sender=Moderated, action=action)


def hide(moderator: Visitor, line_id: int, reason: str, now: datetime) -> None:
    """`moderator` deletes a line (it is kept, hidden, with the record); audit-logged; the
    room's readers are told at once (`chat.signals.moderated`), their pages drop it."""
    by = moderator_id(moderator)
    why = rules.clean(reason)
    if rules.check_text(why) is not None:
        raise ChatRefused("chat_bad_reason")
    with transaction.atomic():
        line = (
            Line.objects.select_for_update(of=("self",))
            .select_related("room", "author")
            .filter(pk=line_id)
            .first()
        )
        if line is None:
            raise ChatRefused("chat_no_such_line")
        line.hidden = True
        line.save(update_fields=["hidden"])
        Action.objects.create(
            kind=Action.Kind.HIDE, by_id=by, member_id=line.author_id, line=line,
            reason=why, at=now,
        )  # fmt: skip
        _tell(Moderated(
            kind="hide", room_kind=line.room.kind, room_key=line.room.key,
            member=line.author_id, member_name=line.author.get_username(), line=line.pk,
        ))  # fmt: skip


def shadow(member_id: int, name: str) -> None:
    """Show `member_id`'s lines written so far (`name` theirs) to themselves alone, as a
    troll's: each room that held lines of theirs others could read is told at once (inside
    the caller's transaction: `chat.signals.moderated`, sent once it commits), and its pages
    drop them. The lines to come are the troll's alone as they are said (`say`)."""
    mine = Line.objects.filter(author_id=member_id, shadow=False)
    rooms = list(Room.objects.filter(pk__in=mine.values("room_id")).order_by("pk"))
    mine.update(shadow=True)
    for where in rooms:
        _tell(Moderated(
            kind="troll", room_kind=where.kind, room_key=where.key, member=member_id,
            member_name=name,
        ))  # fmt: skip


def timed_out(user: Visitor, now: datetime) -> rules.Timeout | None:
    """The timeout `user` is under at `now`, if any: the member is told why and until when."""
    if user is None or not user.is_authenticated:
        return None
    rows = Timeout.objects.filter(member_id=user.pk, until__gt=now).values_list("until", "reason")
    return rules.timed_out([rules.Timeout(u, r) for u, r in rows], now)


def preference(user: Visitor) -> Preference:
    """A member's chat settings (the defaults for anyone else, and for a member who chose
    none: chat on, mild words masked, their table's players' chat theirs alone)."""
    if user is None or not user.is_authenticated:
        return Preference()
    found = Preference.objects.filter(member_id=user.pk).first()
    return found if found is not None else Preference(member_id=user.pk)


def shown_to_spectators(players: set[int]) -> bool:
    """Whether every one of `players` lets spectators read their table's players' chat
    (`Preference.players_shown`; a member who chose nothing does not). The club's own
    setting is the carrier's to ask (game/chat.py)."""
    found = Preference.objects.filter(member_id__in=players, players_shown=True).count()
    return bool(players) and found == len(players)
