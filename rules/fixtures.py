"""Fixtures: a match to be played between two people by a time (a ladder challenge, later a
competition's round), its agreed start, who came, and how it is decided when it was not played
out by its deadline.

Pure, like the rest of `rules/`: the players are ids, the times are passed in, and what the
service saw at the table comes in as values (`Attendance`, `Standing`). The club's fixtures
(`fixtures/service.py`, docs/fixtures.md) ask `unplayed` when a match's window closes, with
the owner's fallback (the ladder's default rule; a competition's own later).

A default must never reward avoiding play (docs/ladder.md, "When a match is not played"):

- A match that **started** (both players were at the table together, at or after any agreed
  time) and did not finish is decided by its state: the frames won, then the score of the
  frame in play; level on both, nobody wins and the organisers decide. Who was at the table
  when the window closed counts for nothing here: in a started match a player left alone
  cannot be told from one who sits without striking until the other gives up and leaves (the
  staller would then be "the one who waited"), and a player whose opponent walks away has
  the claim (`rules/presence.py`). Deciding by the state, a player who is behind never gains
  by stopping; one who is ahead gets what the table shows, flagged for the organisers.
- A match that **never started**: a player who *waited* (was at the table alone, the other
  not there, for `ALONE_LONG` from the agreed start, or at any time in the window without one)
  is never the loser: against one who did not wait they win; if both waited (at different
  moments: they missed each other) nobody wins and the organisers decide. When neither
  waited, one who came wins against one who did not; only when both came, or neither did,
  does the caller's own fallback (the ladder's `DefaultRule`) decide, flagged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from rules.errors import IllegalRequest

# A player counts as having come at the agreed start time if they were at the table at some
# moment from that time to this long after it; so an agreed time must leave this much of the
# play-by window after it.
WAIT_AT_START = timedelta(minutes=10)
# At the table alone (the other not there) for this long is waiting, not looking in: long
# enough that opening the page for a moment, or looking in at the agreed time and leaving,
# is not waiting; short enough that a player a few minutes late still waits it out inside
# the time counted (`alone_counted`).
ALONE_LONG = timedelta(minutes=5)
REMIND_BEFORE = timedelta(minutes=15)  # both players are told this long before the start


# --- the start time ------------------------------------------------------------------------------
def check_start(at: datetime, now: datetime, play_by: datetime) -> None:
    """May a start time `at` be proposed (or accepted) now for a match to be played by
    `play_by`? It lies ahead, and leaves `WAIT_AT_START` of the window after it (the time in
    which each player's coming is recorded)."""
    if at < now:
        raise IllegalRequest("start_passed", "a start time lies ahead")
    if at + WAIT_AT_START > play_by:
        raise IllegalRequest(
            "start_outside_window", f"a start time leaves {WAIT_AT_START} before {play_by}"
        )


def waiting_window(start: datetime) -> tuple[datetime, datetime]:
    """From when until when a player at the table counts as having come at `start`."""
    return start, start + WAIT_AT_START


def alone_counted(start: datetime | None, now: datetime) -> bool:
    """Is time at the table alone counted now? From the agreed start until a player who came
    at the end of its waiting window has had `ALONE_LONG` to wait; without an agreed time,
    all through the window. (Before the agreed time nobody is waiting for the match.)"""
    if start is None:
        return True
    return start <= now <= start + WAIT_AT_START + ALONE_LONG


def alone_after(
    alone: timedelta, seen_alone_before: datetime | None, now: datetime, gap: timedelta
) -> timedelta:
    """A player's time alone at the table after a look that sees them alone now: the time
    since the previous look counts if that look saw them alone too and is less than `gap` ago
    (looks further apart, or a first sighting, add nothing: an unseen stretch is not
    counted)."""
    if seen_alone_before is None or not seen_alone_before <= now <= seen_alone_before + gap:
        return alone
    return alone + (now - seen_alone_before)


def came(start: datetime | None, seen_at_start: bool, arrived: datetime | None) -> bool:
    """Did a player come? With an agreed start time: they were seen at the table in its
    `waiting_window` (by the settling passes), or first arrived inside it. Without one: they
    arrived at the table at all."""
    if start is None:
        return arrived is not None
    begin, end = waiting_window(start)
    return seen_at_start or (arrived is not None and begin <= arrived <= end)


# --- a fixture not played out ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Attendance:
    """What was seen of one player of a match that never started."""

    came: bool  # `came`
    alone: timedelta = timedelta(0)  # at the table while the other was not, while counted

    @property
    def waited(self) -> bool:
        return self.came and self.alone >= ALONE_LONG


NOBODY = Attendance(False)


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a started match stood, the first player's figures first."""

    frames: tuple[int, int]  # frames won
    points: tuple[int, int]  # the score of the frame in play

    def ahead(self) -> int | None:
        """0 if the first player is ahead (on frames, then on the frame's points), 1 if the
        second, None if level."""
        for a, b in (self.frames, self.points):
            if a != b:
                return 0 if a > b else 1
        return None


class How(StrEnum):
    """How a fixture not played out was decided."""

    BY_STATE = "by_state"  # started: the one ahead wins
    LEVEL = "level"  # started, level: nobody wins, the organisers decide
    NO_SHOW = "no_show"  # never started: one came (or waited) and the other did not
    MISSED = "missed"  # never started: both waited, at different times: the organisers decide
    FALLBACK = "fallback"  # never started, both or neither came, neither waited: the caller's


@dataclass(frozen=True, slots=True)
class Decision:
    winner: int | None
    how: How
    absent: tuple[int, ...]  # who did not come (NO_SHOW: or came but did not wait)
    flagged: bool  # the organisers should look


class Absent(StrEnum):
    """Who did not come to a fixture not played out (as the fixture records it)."""

    FIRST = "first"
    SECOND = "second"
    NEITHER = "neither"  # both came (and still no result)
    BOTH = "both"  # neither came


def absent(decision: Decision, first: int, second: int) -> Absent | None:
    """Who did not come (None: a started match: nobody was absent)."""
    if decision.how in (How.BY_STATE, How.LEVEL):
        return None
    gone = set(decision.absent)
    if gone == {first, second}:
        return Absent.BOTH
    if first in gone:
        return Absent.FIRST
    return Absent.SECOND if second in gone else Absent.NEITHER


def unplayed(
    first: int,
    second: int,
    attendance: tuple[Attendance, Attendance],
    started: Standing | None,
    fallback: int | None,
) -> Decision:
    """How a fixture between `first` and `second` not played out by its deadline is decided
    (the module's docstring says why): `started` is where the match stood if it started,
    `attendance` what was seen of each player if it did not, `fallback` the winner the
    caller's own rule gives when both or neither came (None: nobody)."""
    players = (first, second)
    if started is not None:
        ahead = started.ahead()
        if ahead is None:
            return Decision(None, How.LEVEL, (), True)
        return Decision(players[ahead], How.BY_STATE, (), True)
    waited = tuple(a.waited for a in attendance)
    if waited == (True, True):
        return Decision(None, How.MISSED, (), True)
    if True in waited:
        w = waited.index(True)
        # The other looked in, perhaps, but did not wait for the match: to look at if so.
        return Decision(players[w], How.NO_SHOW, (players[1 - w],), attendance[1 - w].came)
    cames = tuple(a.came for a in attendance)
    if cames in ((True, False), (False, True)):
        c = cames.index(True)
        return Decision(players[c], How.NO_SHOW, (players[1 - c],), False)
    absent = () if cames == (True, True) else players
    return Decision(fallback, How.FALLBACK, absent, True)
