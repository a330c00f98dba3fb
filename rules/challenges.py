"""The club's rules of challenges: who may challenge whom and in what format, who may answer
a challenge, when it has expired, and who breaks first in a rematch.

Pure, like the rest of `rules/`: the parties are ids with a guest flag, times are passed in.
The club's service (`club/service.py`) loads the rows, asks these functions, and stores what
they allow. A refusal is an `IllegalRequest` whose code the pages and the lobby protocol show.

- A *direct* challenge names another member; an *open* one may be taken by any other member;
  an *invitation* is a link that seats whoever follows it first (a visitor as a guest); a
  *rematch* is offered by one player of a finished match to the other.
- A *ladder* challenge names a member on the same ladder (who may be challenged is
  `rules/ladder.py`'s); its match is always rated, in the ladder's format.
- A rated match needs both players' word: the challenger proposes it (`Format.rated`), the
  member who accepts agrees or makes it a friendly (`rated(..., agreed=...)`); a ladder match
  is rated by joining the ladder.
- A guest (someone who came through an invitation) plays only friendlies: never challenges,
  is never challenged, may offer and accept a rematch of their own match, and no match with
  a guest is rated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Literal

from rules.errors import IllegalRequest
from rules.state import Player, opponent

# The formats the club offers: best of an odd number of frames, and an optional shot clock.
BEST_OF: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 17, 19, 25, 35)
SHOT_CLOCKS: tuple[int, ...] = (30, 45, 60, 120)  # seconds per stroke
RATED_SHOT_CLOCK = 120  # a rated match's when its format has none (CLUB["RATED_SHOT_CLOCK"])
# How far the aim guide reaches (static/js/guide.js): "full" off the first cushion and to the
# pocket, "short" to the first ball or cushion. Both players of a match have the same.
GUIDES: tuple[str, ...] = ("full", "short")


class Kind(StrEnum):
    DIRECT = "direct"  # to one member
    OPEN = "open"  # to any other member
    INVITATION = "invitation"  # a link: a visitor plays as a guest
    REMATCH = "rematch"  # to the other player of a finished match
    LADDER = "ladder"  # to a member above on the same ladder (rules/ladder.py)


class Status(StrEnum):
    OPEN = "open"  # waiting for an answer
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"


Answer = Literal["accept", "decline", "withdraw"]


@dataclass(frozen=True, slots=True)
class Party:
    """Someone on either side of a challenge."""

    id: int
    guest: bool = False
    # Nobody a member can challenge: an account closed (deactivated), or the computer's,
    # which is played from its own page, never by challenge (issue 36).
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Format:
    best_of: int
    shot_clock: int | None = None  # seconds per stroke; None: no shot clock
    rated: bool = False
    guide: str | None = None  # one of GUIDES; None: the club's default


@dataclass(frozen=True, slots=True)
class Challenge:
    kind: Kind
    challenger: Party
    target: Party | None  # None: open, or an invitation
    format: Format
    status: Status
    expires: datetime


def check_format(fmt: Format) -> None:
    if fmt.best_of not in BEST_OF:
        raise IllegalRequest("bad_format", f"best of {fmt.best_of} is not a format the club plays")
    if fmt.shot_clock is not None and fmt.shot_clock not in SHOT_CLOCKS:
        raise IllegalRequest("bad_format", f"a shot clock of {fmt.shot_clock} s is not offered")
    if fmt.guide is not None and fmt.guide not in GUIDES:
        raise IllegalRequest("bad_format", f"{fmt.guide!r} is not an aim guide the club offers")


def check_challenge(kind: Kind, challenger: Party, target: Party | None, fmt: Format) -> None:
    """May `challenger` make this challenge? Raises `IllegalRequest` if not."""
    check_format(fmt)
    if challenger.guest and kind is not Kind.REMATCH:
        raise IllegalRequest("members_only", "guests play friendlies they are invited to")
    if kind in (Kind.DIRECT, Kind.REMATCH, Kind.LADDER):
        if target is None:
            raise IllegalRequest("no_opponent", f"a {kind} challenge names the opponent")
        if target.id == challenger.id:
            raise IllegalRequest("same_player", "nobody can challenge themselves")
        if kind in (Kind.DIRECT, Kind.LADDER) and target.guest:
            raise IllegalRequest("target_is_guest", "guests can only be invited by a link")
        if kind in (Kind.DIRECT, Kind.LADDER) and target.closed:
            raise IllegalRequest("not_playable", "nobody plays that account by a challenge")
    elif target is not None:
        raise IllegalRequest("bad_challenge", f"an {kind} challenge names nobody")
    if fmt.rated and not rated(kind, challenger, target, wanted=True):
        raise IllegalRequest("unrated", "a match with a guest or from an invitation is a friendly")
    if kind is Kind.LADDER and not fmt.rated:
        raise IllegalRequest("ladder_rated", "a ladder match is always rated")


def rated(
    kind: Kind, challenger: Party, target: Party | None, *, wanted: bool, agreed: bool = True
) -> bool:
    """Whether the match made from this challenge counts for the club's ratings: only between
    two members, and only if the challenger asked for it (`wanted`) and the member who accepted
    agreed (`agreed`; a ladder match is rated whatever is said on accepting)."""
    guests = challenger.guest or (target is not None and target.guest)
    both = wanted and (agreed or kind is Kind.LADDER)
    return both and kind is not Kind.INVITATION and not guests


def shot_clock_of(fmt: Format, rated: bool, default: int) -> int | None:
    """The shot clock of the match a challenge makes: its format's; a rated match without one
    gets the club's generous `default`. A rated result is worth stalling for: a losing
    player who sits at the table without striking would otherwise hold it live for ever,
    while with a clock each expiry is the time foul (RULES.md §4) and the frame goes on."""
    if fmt.shot_clock is None and rated:
        return default
    return fmt.shot_clock


def expires_at(kind: Kind, made: datetime, ttl: Mapping[Kind, timedelta]) -> datetime:
    return made + ttl[kind]


def expired(challenge: Challenge, now: datetime) -> bool:
    """An open challenge past its time has expired, whether or not it was yet marked so."""
    return challenge.status is Status.EXPIRED or (
        challenge.status is Status.OPEN and now >= challenge.expires
    )


def visible_to(challenge: Challenge, who: Party) -> bool:
    """May `who` know that this challenge exists? Its two parties may, and anyone may know of
    an open challenge (the lobby shows it). Others' direct challenges, rematch offers, ladder
    challenges and invitations are private: to everyone else they do not exist, in every
    state and for every action by id, so that nobody can probe them. (An invitation is
    taken through its signed link only, which `check_answer` judges alone.)"""
    if challenge.kind is Kind.OPEN or who.id == challenge.challenger.id:
        return True
    return challenge.target is not None and who.id == challenge.target.id


def check_answer(challenge: Challenge, who: Party, answer: Answer, now: datetime) -> None:
    """May `who` accept, decline or withdraw this challenge now? Raises `IllegalRequest`."""
    if expired(challenge, now):
        raise IllegalRequest("expired", "the challenge has expired")
    if challenge.status is not Status.OPEN:
        raise IllegalRequest("answered", f"the challenge was already {challenge.status}")
    mine = who.id == challenge.challenger.id
    if answer == "withdraw":
        if not mine:
            raise IllegalRequest("not_yours", "only the challenger withdraws a challenge")
        return
    if mine:
        raise IllegalRequest("own_challenge", "you cannot answer your own challenge")
    target = challenge.target
    if target is not None:
        if who.id != target.id:
            raise IllegalRequest("not_for_you", "this challenge is for another member")
        return
    if answer == "decline":
        raise IllegalRequest("not_for_you", "an open challenge or invitation is not declined")
    if challenge.kind is Kind.OPEN and who.guest:
        raise IllegalRequest("members_only", "open challenges are for members")


def rematch_breaker(first_breaker: Player) -> Player:
    """A rematch keeps the seats, and the first break goes to the other player (§8's
    alternation carried on from match to match)."""
    return opponent(first_breaker)
