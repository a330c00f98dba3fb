"""The club ladder's rules: who may challenge whom, how a result moves the positions, what a
deadline settles, and the standings as a fold over the ladder's history.

Pure, like the rest of `rules/`: members are ids, an order is the tuple of member ids from the
top (position 1) down, times are passed in. The ladder's service (`ladder/service.py`) loads
the rows under the ladder's lock, asks these functions and stores what they answer. A refusal
is an `IllegalRequest` whose code the pages show (`ladder/text.py`).

- A member on the ladder may challenge anyone up to `places_above` places above them
  (default 3), never below; a member in a pending ladder challenge or match (as either party)
  is *busy*: they neither challenge nor are challenged until it is settled.
- A result moves the winner into the loser's place when the winner was below: a challenger who
  wins takes the defender's place and everyone from there down to the challenger's old place
  moves down one; a defender who wins keeps the place (nothing moves).
- A challenge not answered in time is settled by the ladder's `DefaultRule` (default: the
  challenger takes the win), and so is a match not played when the fixtures' rule leaves it
  to the ladder (below); a declined challenge is a loss
  for the defender if the ladder says so, and otherwise changes nothing.
- Between the same two members, a challenge settled by a result, a decline or a withdrawal
  starts the ladder's cool-down (7 days by default): neither may challenge the other on that
  ladder until it ends (`cooling`, `check_challenge`'s `cooling`).
- A match may get an agreed start time inside its play-by window (`rules.fixtures`: the
  ladder's challenges are fixtures). When the window closes without a result, the fixtures'
  rule decides (`unplayed`, never rewarding avoiding play): a started match by its state, a
  match never started against a player who did not wait or come while the other did; the
  ladder's `DefaultRule` only when both came, or neither, and neither waited, flagged for
  the organisers.
- New members join at the bottom; an organiser may move a member to a position (everyone in
  between shifts by one) or remove them (everyone below moves up one).

The standings are never stored as the only truth: every change is an `Entry` in the ladder's
history, and `replay` folds the entries that stand (not voided) into the order. Voiding a
result is replaying without it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from rules import fixtures
from rules.errors import IllegalRequest

Order = tuple[int, ...]  # member ids, position 1 first

PLACES_ABOVE = 3  # the default challenge range
FORM_LENGTH = 5  # results shown as a member's form, latest first
COOLDOWN = timedelta(days=7)  # the default cool-down between the same two members


class DefaultRule(StrEnum):
    """Who wins a challenge nobody answered in time, or a match not played by its deadline."""

    CHALLENGER_WINS = "challenger_wins"
    DEFENDER_WINS = "defender_wins"
    NO_CHANGE = "no_change"  # settled with no winner: nobody moves


# --- reading an order --------------------------------------------------------------------------
def position(order: Sequence[int], member: int) -> int:
    """The member's position, 1 at the top; `IllegalRequest` if they are not on the ladder."""
    try:
        return order.index(member) + 1
    except ValueError:
        raise IllegalRequest("not_on_ladder", f"member {member} is not on the ladder") from None


def challengeable(
    order: Sequence[int],
    challenger: int,
    busy: Collection[int],
    places_above: int,
    cooling: Collection[int] = (),
) -> tuple[int, ...]:
    """Whom `challenger` may challenge now, nearest first (empty if they are busy or not on
    the ladder); `cooling`: the members in a cool-down with the challenger (`cooling`)."""
    if challenger not in order or challenger in busy:
        return ()
    mine = order.index(challenger)
    above = order[max(0, mine - places_above) : mine]
    return tuple(m for m in reversed(above) if m not in busy and m not in cooling)


def cooling(
    last_met: Mapping[int, datetime], now: datetime, cooldown: timedelta
) -> dict[int, datetime]:
    """The members a member may neither challenge nor be challenged by now, and until when:
    `last_met` maps each other member to when their latest challenge between the two was
    settled by a result (played or by default), a decline or a withdrawal."""
    return {m: at + cooldown for m, at in last_met.items() if at + cooldown > now}


def check_challenge(
    order: Sequence[int],
    challenger: int,
    defender: int,
    busy: Collection[int],
    places_above: int,
    cooling: Collection[int] = (),
) -> None:
    """May `challenger` challenge `defender` now? Raises `IllegalRequest` if not. `cooling`:
    the members in a cool-down with the challenger (`cooling`)."""
    if challenger == defender:
        raise IllegalRequest("same_player", "nobody can challenge themselves")
    if challenger not in order:
        raise IllegalRequest("not_on_ladder", "join the ladder to challenge on it")
    if defender not in order:
        raise IllegalRequest("defender_not_on_ladder", f"member {defender} is not on the ladder")
    mine, theirs = position(order, challenger), position(order, defender)
    if theirs > mine:
        raise IllegalRequest("below", "a ladder challenge goes up, to someone above you")
    if mine - theirs > places_above:
        raise IllegalRequest(
            "out_of_range", f"position {theirs} is more than {places_above} places above {mine}"
        )
    if challenger in busy:
        raise IllegalRequest("busy", "you have a ladder challenge or match to settle first")
    if defender in busy:
        raise IllegalRequest("defender_busy", f"member {defender} has a challenge to settle")
    if defender in cooling:
        raise IllegalRequest(
            "cooling_down", f"members {challenger} and {defender} met on this ladder lately"
        )


# --- changing an order -------------------------------------------------------------------------
def join(order: Sequence[int], member: int) -> Order:
    """A new member joins at the bottom."""
    if member in order:
        raise IllegalRequest("already_on_ladder", f"member {member} is on the ladder already")
    return (*order, member)


def result(order: Sequence[int], winner: int, loser: int) -> Order:
    """The order after `winner` beat `loser`: a winner from below takes the loser's place and
    everyone from the loser down to the winner's old place moves down one; a winner above
    keeps their place (nothing moves)."""
    w, lo = position(order, winner) - 1, position(order, loser) - 1
    if w < lo:
        return tuple(order)
    return (*order[:lo], winner, *order[lo:w], *order[w + 1 :])


def move(order: Sequence[int], member: int, to: int) -> Order:
    """An organiser puts `member` at position `to` (clamped to the ladder); everyone between
    the old and the new place shifts by one."""
    rest = [m for m in order if m != member]
    position(order, member)
    at = min(max(to, 1), len(order)) - 1
    return (*rest[:at], member, *rest[at:])


def remove(order: Sequence[int], member: int) -> Order:
    """A member leaves (or is removed): everyone below moves up one."""
    position(order, member)
    return tuple(m for m in order if m != member)


# --- settling ------------------------------------------------------------------------------------
def default_winner(rule: DefaultRule, challenger: int, defender: int) -> int | None:
    """The winner the rule gives an unanswered challenge or an unplayed match (None: nobody
    moves)."""
    if rule is DefaultRule.CHALLENGER_WINS:
        return challenger
    if rule is DefaultRule.DEFENDER_WINS:
        return defender
    return None


def declined_winner(counts_as_loss: bool, challenger: int) -> int | None:
    """A declined challenge: the challenger wins if the ladder counts a refusal as a loss."""
    return challenger if counts_as_loss else None


# --- a match not played out ---------------------------------------------------------------------
class Absent(StrEnum):
    """Who did not come to an unplayed match (as the ladder's history says it)."""

    CHALLENGER = "challenger"
    DEFENDER = "defender"
    NEITHER = "neither"  # both came (and still no result)
    BOTH = "both"  # neither came


def unplayed(
    rule: DefaultRule,
    challenger: int,
    defender: int,
    attendance: tuple[fixtures.Attendance, fixtures.Attendance],
    started: fixtures.Standing | None,
) -> fixtures.Decision:
    """A ladder match not played out by its deadline: the fixtures' rule
    (`rules.fixtures.unplayed`), the challenger first, the ladder's `DefaultRule` its
    fallback."""
    fallback = default_winner(rule, challenger, defender)
    return fixtures.unplayed(challenger, defender, attendance, started, fallback)


def absent(decision: fixtures.Decision, challenger: int, defender: int) -> Absent | None:
    """Who did not come, in the history's words (None: a started match: nobody was absent)."""
    return in_ladder_words(fixtures.absent(decision, challenger, defender))


_WORDS = {
    fixtures.Absent.FIRST: Absent.CHALLENGER,
    fixtures.Absent.SECOND: Absent.DEFENDER,
    fixtures.Absent.NEITHER: Absent.NEITHER,
    fixtures.Absent.BOTH: Absent.BOTH,
}


def in_ladder_words(gone: fixtures.Absent | None) -> Absent | None:
    """A fixture's absent player in the ladder's words (its first player is the challenger)."""
    return None if gone is None else _WORDS[gone]


# --- the history ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Joined:
    member: int


@dataclass(frozen=True, slots=True)
class Result:
    """A result that counts for the positions: played, by default, or a counted refusal."""

    winner: int
    loser: int


@dataclass(frozen=True, slots=True)
class Moved:
    """An organiser's move of a member to a position."""

    member: int
    to: int


@dataclass(frozen=True, slots=True)
class Removed:
    member: int


Entry = Joined | Result | Moved | Removed


def apply(order: Sequence[int], entry: Entry) -> Order:
    if isinstance(entry, Joined):
        return join(order, entry.member)
    if isinstance(entry, Result):
        # A result between members one of whom has since been removed by an entry that was
        # replayed before it cannot move anyone (only when replaying after a void).
        if entry.winner not in order or entry.loser not in order:
            return tuple(order)
        return result(order, entry.winner, entry.loser)
    if isinstance(entry, Moved):
        return move(order, entry.member, entry.to) if entry.member in order else tuple(order)
    return remove(order, entry.member) if entry.member in order else tuple(order)


def replay(entries: Iterable[Entry]) -> Order:
    """The standings the entries give, from an empty ladder."""
    order: Order = ()
    for entry in entries:
        order = apply(order, entry)
    return order


def form(results: Iterable[Result], member: int, length: int = FORM_LENGTH) -> str:
    """A member's last results, latest first, as "W" and "L" (`results` oldest first)."""
    mine = [("W" if r.winner == member else "L") for r in results if member in (r.winner, r.loser)]
    return "".join(reversed(mine[-length:]))
