"""The club's chat rules (issue 41; docs/chat.md): what a line may hold, how often one may
write, who may write in which room, and timeouts. Pure: the chat app (chat/service.py) reads
the author's recent lines and timeouts, asks these functions, and stores what they allow.

After lichess's chat: lines of at most 140 characters, five lines in ten seconds, no near-copy
of either of one's last two lines, players and spectators in separate rooms, preset phrases
for those without an account, timeouts given by the room's moderators with a reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from difflib import SequenceMatcher
from typing import Final, Literal

MAX_LENGTH: Final = 140  # characters of a line, after trimming
FLOOD_LINES: Final = 5  # at most this many lines ...
FLOOD_WINDOW: Final = timedelta(seconds=10)  # ... in this long
COPIES_CHECKED: Final = 2  # a near-copy of either of one's last two lines is refused
NEAR_COPY: Final = 0.9  # how alike two lines (their letters and digits) are to be a near-copy
HISTORY: Final = 100  # the lines of a room a page is sent on arrival and on reconnect

# The phrases a guest may say, by key; their words are the browser's (static/js/lang), in
# the reader's language.
PRESETS: Final = ("good_shot", "good_luck", "thank_you", "well_played", "sorry", "one_moment")

# Why a member reports a line (chat/moderation.py; their words: chat/models.py, static/js/lang).
REPORT_REASONS: Final = ("insult", "spam", "coaching", "other")

# The lengths of a timeout a moderator may give.
TIMEOUTS: Final = {
    "15m": timedelta(minutes=15),
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
}

# The kinds of room: a match's two, the lobby's, a competition's, a ladder's.
RoomKind = Literal["players", "spectators", "lobby", "competition", "ladder"]
ROOM_KINDS: Final[tuple[RoomKind, ...]] = (
    "players", "spectators", "lobby", "competition", "ladder",
)  # fmt: skip

# Refusals, each a stable code of the protocol (docs/protocol.md, "Errors").
Refusal = Literal[
    "chat_empty",  # nothing left after trimming
    "chat_too_long",  # over MAX_LENGTH characters
    "chat_flood",  # too many lines too fast, or a near-copy of a recent one
    "chat_address_flood",  # too many lines from the writer's address, whoever wrote them
    "chat_presets_only",  # a guest (or stranger) may only say a preset phrase
    "chat_not_allowed",  # not a writer in this room (a spectator in the players' room)
    "chat_timed_out",  # timed out of chat by a moderator
    "chat_unknown_preset",  # no such preset phrase
    "chat_no_links",  # a new member's line holds a link
    "chat_panic",  # the lobby is for members of some standing for now (the panic switch)
    "chat_busy",  # the room is past its own rate, whoever writes (SNOOKER_CHAT_ROOM_RATE)
]

# A new member (their first day, or before their first finished match) writes no links, as on
# lichess: a spammer's account is new. A member of some standing (a week and three finished
# matches) still writes in the lobby while an organiser's panic switch is on.
NEW_FOR: Final = timedelta(days=1)
STANDING_FOR: Final = timedelta(days=7)
STANDING_MATCHES: Final = 3
# What a line may not hold from a new member: an address, or a name that reads as one.
_LINK: Final = re.compile(
    r"(?:https?://|www\.|\b[\w-]+\.(?:com|net|org|ru|su|io|gg|me|tv|co|xyz|info|biz|ly|tk|рф)"
    r"\b|t\.me/)",
    re.IGNORECASE,
)

# Characters removed from a line: bidi embeddings, overrides and isolates (which could turn
# the text around them) and zero-width characters. Other format (Cf) characters go too.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")


def _kept(ch: str) -> str:
    """What a character of a line becomes: whitespace a space, a control or format character
    nothing, anything else itself."""
    if ch in _BIDI or ch in _ZERO_WIDTH:
        return ""
    category = unicodedata.category(ch)
    if ch.isspace():
        return " "
    if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return ""
    return ch


def clean(text: str) -> str:
    """A line as it is kept: control, format, bidi and zero-width characters removed, every
    run of whitespace one space, trimmed."""
    kept = "".join(_kept(ch) for ch in text)
    return " ".join(kept.split())


def check_text(line: str) -> Refusal | None:
    """Why a cleaned line is refused (empty, or too long), if it is."""
    if not line:
        return "chat_empty"
    if len(line) > MAX_LENGTH:
        return "chat_too_long"
    return None


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def near_copy(a: str, b: str) -> bool:
    """Whether two lines are the same but for case, spaces, punctuation and a few letters."""
    x, y = _letters(a), _letters(b)
    if x == y:
        return True
    if not x or not y:
        return False
    return SequenceMatcher(None, x, y, autojunk=False).ratio() >= NEAR_COPY


@dataclass(frozen=True)
class Said:
    """One of the author's recent lines, as the flood limit reads it."""

    at: datetime
    text: str


def flood(recent: Sequence[Said], text: str, now: datetime) -> bool:
    """Whether saying `text` at `now` is over the limits, given the author's `recent` lines
    in this room, oldest first: FLOOD_LINES within FLOOD_WINDOW already, or a near-copy of
    one of the last COPIES_CHECKED."""
    within = [s for s in recent if now - FLOOD_WINDOW < s.at <= now]
    if len(within) >= FLOOD_LINES:
        return True
    return any(near_copy(s.text, text) for s in recent[-COPIES_CHECKED:])


@dataclass(frozen=True)
class Writer:
    """Who wants to write, as a room sees them. `member`: has an account of their own (not a
    guest's, nor a stranger); `player`: one of the match's two players (for a match's
    rooms), one of a ladder's members or an organiser (for a ladder's room); `finished`: the
    match is over (for a match's rooms)."""

    member: bool
    player: bool = False
    finished: bool = False
    new: bool = False  # a new member: no links (NEW_FOR)
    standing: bool = True  # of some standing: writes in the lobby during a panic


def is_new(joined: datetime, played: int, now: datetime) -> bool:
    """A member is new in their first day, and until they have finished a match."""
    return now - joined < NEW_FOR or played == 0


def of_standing(joined: datetime, played: int, now: datetime) -> bool:
    """A member of some standing: a week in the club and STANDING_MATCHES finished matches."""
    return now - joined >= STANDING_FOR and played >= STANDING_MATCHES


def has_link(text: str) -> bool:
    """Whether a line holds a web address, or a name that reads as one."""
    return _LINK.search(text) is not None


def counted_per_address(kind: RoomKind) -> bool:
    """Whether a line in a room of `kind` counts against its writer's address too (a rate
    shared by every account and socket of the address: several accounts never multiply the
    flood limit). Every room anyone may write in; not a match's players' room, whose two
    writers are each held to the flood limit and where nobody sharing a player's address (a
    clubhouse's) may keep the player from their opponent."""
    return kind != "players"


def counted_per_room(kind: RoomKind) -> bool:
    """Whether a line in a room of `kind` counts against the room's own rate (slow mode, as
    busy rooms elsewhere have it: the room's cost is bounded however many write in it). Every
    room a crowd may write in; not a match's players' room, whose two writers are each held
    to the flood limit."""
    return kind != "players"


def room_rate(rate: str) -> tuple[int, float]:
    """A room's rate, `count/period` (10/2s, 5/s: a django-ratelimit rate's shape), as a
    bucket's: `count` lines at once, refilled at `count` a `period` (in seconds)."""
    count, period = rate.split("/")
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[-1]]
    seconds = max(1, int(period[:-1] or 1) * unit)
    return int(count), int(count) / seconds


@dataclass(frozen=True)
class Tokens:
    """A room's rate as a token bucket: `left` lines it may take now, as of `at` (seconds,
    any monotonic clock)."""

    left: float
    at: float


def take(tokens: Tokens | None, now: float, burst: int, per_second: float) -> Tokens | None:
    """The bucket once one more line is taken at `now`, or None if it is empty (the line is
    refused); a room never seen starts full (`tokens` None)."""
    left = burst if tokens is None else min(burst, tokens.left + (now - tokens.at) * per_second)
    if left < 1:
        return None
    return Tokens(left - 1, now)


def give_back(tokens: Tokens, burst: int) -> Tokens:
    """The bucket with a line taken from it given back (the line was refused after all)."""
    return Tokens(min(burst, tokens.left + 1), tokens.at)


def may_write(kind: RoomKind, writer: Writer, preset: bool) -> Refusal | None:
    """Why `writer` may not write in a room of `kind` (None: they may). A spectator never
    writes in the players' room, so no one coaches a player during play; a player writes in
    the spectators' room only once the match is over (they cannot read it before); a guest
    says only preset phrases; a ladder's room is written in by its members and the organisers
    (`player`), and read by anyone."""
    if kind in ("players", "ladder") and not writer.player:
        return "chat_not_allowed"
    if kind == "spectators" and writer.player and not writer.finished:
        return "chat_not_allowed"
    if not writer.member and not preset:
        return "chat_presets_only"
    return None


def may_read(kind: RoomKind, player: bool, finished: bool, players_shown: bool = False) -> bool:
    """Whether someone reads a match's room: the players' room, the players (and spectators
    only if both players allow it, a club setting: `players_shown`); the spectators' room,
    the spectators (and the players once the match is over). Other rooms: everyone."""
    if kind == "players":
        return player or players_shown
    if kind == "spectators":
        return not player or finished
    return True


@dataclass(frozen=True)
class Timeout:
    """A member timed out of chat until `until`, for `reason`."""

    until: datetime
    reason: str


def timeout_until(now: datetime, length: str) -> datetime:
    """When a timeout of `length` (a key of TIMEOUTS) given at `now` ends."""
    return now + TIMEOUTS[length]


def timed_out(timeouts: Sequence[Timeout], now: datetime) -> Timeout | None:
    """The timeout in force at `now`, the one ending last, if any."""
    live = [t for t in timeouts if t.until > now]
    return max(live, key=lambda t: t.until) if live else None


@dataclass(frozen=True)
class Line:
    """A line that may be stored: the cleaned text, or a preset's key."""

    text: str
    preset: str | None


def judge(
    kind: RoomKind,
    writer: Writer,
    text: str | None,
    preset: str | None,
    recent: Sequence[Said],
    timeouts: Sequence[Timeout],
    now: datetime,
    panic: bool = False,
) -> Line | Refusal:
    """The line to store, or why not: who may write here (in the lobby during a `panic`, only
    members of some standing), the timeouts, the text's shape (no link from a new member),
    then the flood limits (a preset counts as its key's line)."""
    if preset is not None and preset not in PRESETS:
        return "chat_unknown_preset"
    refused = may_write(kind, writer, preset is not None)
    if refused is not None:
        return refused
    if panic and kind == "lobby" and not writer.standing:
        return "chat_panic"
    if timed_out(timeouts, now) is not None:
        return "chat_timed_out"
    if preset is not None:
        line = Line(text=preset, preset=preset)
    else:
        cleaned = clean(text or "")
        wrong = check_text(cleaned)
        if wrong is not None:
            return wrong
        if writer.new and has_link(cleaned):
            return "chat_no_links"
        line = Line(text=cleaned, preset=None)
    if flood(recent, line.text, now):
        return "chat_flood"
    return line
