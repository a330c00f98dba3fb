"""A round robin's league table: the results folded into each entrant's figures, and the
entrants put in order by the club's tie-breaks, each place saying what decided it.

Pure, like the rest of `rules/`: entrants are member ids in the group's seeding order, results
are values. The table is never the only truth: it is a fold over the results (`table`, `add`),
in any order, and the competition's service stores only the results.

The order (issue 39; docs/competitions.md shows it on the page), each criterion asked only
when all the ones before it are level:

1. matches won;
2. frame difference (frames won − frames lost, in all the group's matches);
3. the head-to-head result: matches won in the matches between the entrants still level on
   1 and 2 (two entrants: who won their match; three or more: a little table of their own
   matches; the meetings not yet played count for nobody);
4. frames won;
5. the highest break made in the group;
6. and when all of these are level, the seeding: the entrant drawn or seeded higher in the
   group (their place in `entrants`), so that the table is always a total order.

A walkover (a fixture not played: an opponent withdrawn, a no-show at the deadline, an
organiser's decision) counts as a match won by the frames needed to win it, to nil, with no
break (`walkover`), so that a withdrawal neither helps nor hurts the frame difference of
those who still had to play the withdrawn entrant, compared with those who beat them at the
table. Both out (an organiser's decision on a fixture neither played) is a walkover both lose:
each is credited with a match lost by the frames needed, to nil (`both_lost`). A withdrawal
mid-competition leaves the withdrawn entrant's played results standing
(the opponents played them) and turns their remaining fixtures into walkovers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import reduce

from rules.errors import IllegalRequest


@dataclass(frozen=True, slots=True)
class Result:
    """One match of the group: the frames each won and the highest break each made, the first
    player's first."""

    first: int
    second: int
    frames: tuple[int, int]
    breaks: tuple[int, int] = (0, 0)
    walkover: bool = False
    both_lost: bool = False  # both out: nobody won (`both_lost`)

    @property
    def winner(self) -> int:
        a, b = self.frames
        return self.first if a > b else self.second

    @property
    def players(self) -> tuple[int, int]:
        return self.first, self.second


def walkover(winner: int, loser: int, best_of: int) -> Result:
    """A fixture not played, as the table counts it: won by the frames needed, to nil."""
    return Result(winner, loser, (best_of // 2 + 1, 0), walkover=True)


def both_lost(first: int, second: int, need: int) -> Result:
    """A fixture an organiser put both out of: a walkover each loses, by the frames `need`ed
    to win it, to nil (`frames` holds what each lost by)."""
    return Result(first, second, (need, need), walkover=True, both_lost=True)


@dataclass(frozen=True, slots=True)
class Tally:
    """An entrant's figures in the group so far."""

    member: int
    played: int = 0
    won: int = 0
    lost: int = 0
    frames_won: int = 0
    frames_lost: int = 0
    high_break: int = 0

    @property
    def frame_difference(self) -> int:
        return self.frames_won - self.frames_lost


@dataclass(frozen=True, slots=True)
class Table:
    """A group's figures: one `Tally` per entrant in seeding order, and the results folded
    into them (which the head-to-head criterion reads again)."""

    tallies: tuple[Tally, ...]
    results: tuple[Result, ...] = ()

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(t.member for t in self.tallies)


def empty(entrants: Sequence[int]) -> Table:
    if len(set(entrants)) != len(entrants):
        raise IllegalRequest("duplicate_entrant", "an entrant is listed twice")
    return Table(tuple(Tally(m) for m in entrants))


def _credit(t: Tally, frames: tuple[int, int], brk: int, winner: int) -> Tally:
    return replace(
        t,
        played=t.played + 1,
        won=t.won + (winner == t.member),
        lost=t.lost + (winner != t.member),
        frames_won=t.frames_won + frames[0],
        frames_lost=t.frames_lost + frames[1],
        high_break=max(t.high_break, brk),
    )


def add(table: Table, result: Result) -> Table:
    """The table with one more result."""
    a, b = result.players
    if a == b or a not in table.entrants or b not in table.entrants:
        raise IllegalRequest("not_in_group", f"{a} v {b} is not a match of this group")
    fa, fb = result.frames
    if result.both_lost:
        lost = tuple(
            replace(t, played=t.played + 1, lost=t.lost + 1, frames_lost=t.frames_lost + fa)
            if t.member in (a, b) else t
            for t in table.tallies
        )  # fmt: skip
        return Table(lost, (*table.results, result))
    if fa < 0 or fb < 0 or fa == fb:
        raise IllegalRequest("bad_frames", f"frames {fa}-{fb}: a match has a winner")
    ba, bb = result.breaks
    w = result.winner
    tallies = tuple(
        _credit(t, (fa, fb), ba, w)
        if t.member == a
        else _credit(t, (fb, fa), bb, w)
        if t.member == b
        else t
        for t in table.tallies
    )
    return Table(tallies, (*table.results, result))


def table(entrants: Sequence[int], results: Iterable[Result]) -> Table:
    """The group's table: the results folded, in any order, into `empty(entrants)`."""
    return reduce(add, results, empty(entrants))


# --- the order ----------------------------------------------------------------------------------
class Criterion(StrEnum):
    """What puts an entrant above the next, in the order asked (the module's docstring)."""

    MATCHES_WON = "matches_won"
    FRAME_DIFFERENCE = "frame_difference"
    HEAD_TO_HEAD = "head_to_head"
    FRAMES_WON = "frames_won"
    HIGH_BREAK = "high_break"
    SEED = "seed"


CRITERIA: tuple[Criterion, ...] = tuple(Criterion)


@dataclass(frozen=True, slots=True)
class Row:
    """One place of the table: `head_to_head` is the matches won against the others level
    with this entrant on matches won and frame difference; `decided_by` says which criterion
    puts this row above the next (None for the last row)."""

    place: int
    tally: Tally
    head_to_head: int
    seed: int  # the place in the group's seeding, 1 the first
    decided_by: Criterion | None

    def value(self, criterion: Criterion) -> int:
        """This row's figure for `criterion`, larger being better (the seed: negated)."""
        t = self.tally
        figures = {
            Criterion.MATCHES_WON: t.won,
            Criterion.FRAME_DIFFERENCE: t.frame_difference,
            Criterion.HEAD_TO_HEAD: self.head_to_head,
            Criterion.FRAMES_WON: t.frames_won,
            Criterion.HIGH_BREAK: t.high_break,
            Criterion.SEED: -self.seed,
        }
        return figures[criterion]


def _head_to_head(table: Table) -> dict[int, int]:
    """Each entrant's matches won against those level with them on matches won and frame
    difference."""
    level = {t.member: (t.won, t.frame_difference) for t in table.tallies}
    wins = dict.fromkeys(table.entrants, 0)
    for r in table.results:
        if level[r.first] == level[r.second] and not r.both_lost:
            wins[r.winner] += 1
    return wins


def separating(above: Row, below: Row) -> Criterion:
    """The first criterion on which `above` and `below` differ."""
    for c in CRITERIA:
        if above.value(c) != below.value(c):
            return c
    raise IllegalRequest("same_row", f"{above.tally.member} and {below.tally.member}")


def standings(table: Table) -> tuple[Row, ...]:
    """The table in order: by the criteria (the module's docstring), each row saying which one
    puts it above the next."""
    h2h = _head_to_head(table)
    rows = [Row(0, t, h2h[t.member], seed, None) for seed, t in enumerate(table.tallies, start=1)]
    rows.sort(key=lambda r: tuple(-r.value(c) for c in CRITERIA))
    return tuple(
        replace(
            r,
            place=i + 1,
            decided_by=separating(r, rows[i + 1]) if i + 1 < len(rows) else None,
        )
        for i, r in enumerate(rows)
    )


def order(entrants: Sequence[int], results: Iterable[Result]) -> tuple[int, ...]:
    """The entrants in table order."""
    return tuple(r.tally.member for r in standings(table(entrants, results)))
