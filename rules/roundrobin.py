"""Round robins and group stages: the fixtures of a group round by round, the groups of a
group stage, who qualifies from them and how the qualifiers meet in the knockout.

Pure, like the rest of `rules/`: entrants are member ids in seeding order (`rules.seeding`),
results come in as `rules.standings.Result`.

- **Fixtures** follow the circle method (`schedule`): the first entrant stays, the others turn
  round them one place a round, so that every pair meets exactly once a cycle and every
  entrant plays once a round; an odd field adds a bye, a different entrant resting each
  round. Twice round (`cycles=2`) plays the first cycle's rounds again with each pair's
  order turned round.
- **Who is listed first** in a pairing (the match's first player, who breaks off its first
  frame) is spread evenly: between the i-th and j-th entrants (i < j), the i-th if j − i is
  odd, the j-th if even, so in a cycle every entrant is first as often as second (an even
  field: one more, either way).
- **The draw** (`drawn`): the entrants ranked (by club rating, say) are cut into pots of as
  many as there are groups (the top G, the next G, ...); each pot's order is drawn from the
  stored seed (`rules.seeding.shuffle`, the pot's index added to it), so the groups are as
  even as the ranking allows, the random part can be repeated exactly, and one group is
  simply the ranking.
- **Groups** (`groups`) are filled by the snake: seeds 1 to G into groups A to G, then G+1 to
  2G back from G to A, and so on, so each group's seeds add up as evenly as they can.
- **Qualifiers** (`qualifiers`): the top `advance` of each group's table (`rules.standings`).
- **Crossing** (`crossed`): the qualifiers seeded for the knockout group winners first (group
  A's, B's, ...), then the runners-up, and so on, so that in the standard bracket order a
  winner meets a runner-up of another group and two of one group meet as late as they can
  (when the groups are a power of two: never in the first round).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules import standings
from rules.errors import IllegalRequest
from rules.seeding import bracket_order, bracket_size, shuffle


@dataclass(frozen=True, slots=True)
class Pairing:
    """One fixture: `first` is the match's first player (breaks off its first frame)."""

    round: int  # from 1, counting on through a second cycle
    first: int
    second: int

    @property
    def players(self) -> tuple[int, int]:
        return self.first, self.second


@dataclass(frozen=True, slots=True)
class Round:
    number: int  # from 1
    pairings: tuple[Pairing, ...]
    bye: int | None  # who rests this round (an odd field)


def _check(entrants: Sequence[int]) -> None:
    if len(entrants) < 2:
        raise IllegalRequest("too_few_entrants", "a round robin needs 2 entrants")
    if len(set(entrants)) != len(entrants):
        raise IllegalRequest("duplicate_entrant", "an entrant is listed twice")


def _oriented(entrants: Sequence[int], a: int, b: int) -> tuple[int, int]:
    i, j = sorted((entrants.index(a), entrants.index(b)))
    lo, hi = entrants[i], entrants[j]
    return (lo, hi) if (j - i) % 2 else (hi, lo)


def schedule(entrants: Sequence[int], cycles: int = 1) -> tuple[Round, ...]:
    """The group's rounds by the circle method (the module's docstring), `cycles` times
    round."""
    _check(entrants)
    if cycles < 1:
        raise IllegalRequest("bad_cycles", "a round robin is played at least once round")
    places: list[int | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)
    n = len(places)
    turning = places[1:]
    once: list[tuple[tuple[tuple[int, int], ...], int | None]] = []
    for _ in range(n - 1):
        line = [places[0], *turning]
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for i in range(n // 2):
            a, b = line[i], line[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append(_oriented(entrants, a, b))
        once.append((tuple(pairs), bye))
        turning = [turning[-1], *turning[:-1]]
    rounds: list[Round] = []
    for cycle in range(cycles):
        for met, bye in once:
            number = len(rounds) + 1
            oriented = met if cycle % 2 == 0 else tuple((b, a) for a, b in met)
            rounds.append(Round(number, tuple(Pairing(number, a, b) for a, b in oriented), bye))
    return tuple(rounds)


def fixtures(rounds: Iterable[Round]) -> tuple[Pairing, ...]:
    """Every pairing of the rounds, round by round."""
    return tuple(p for r in rounds for p in r.pairings)


def remaining(rounds: Iterable[Round], played: Iterable[tuple[int, int]]) -> tuple[Pairing, ...]:
    """The pairings not yet played (`played`: the pairs with a result, either order; a pair
    meeting twice round needs two)."""
    left: dict[frozenset[int], int] = {}
    for pair in played:
        key = frozenset(pair)
        left[key] = left.get(key, 0) + 1
    out: list[Pairing] = []
    for p in fixtures(rounds):
        key = frozenset(p.players)
        if left.get(key, 0):
            left[key] -= 1
        else:
            out.append(p)
    return tuple(out)


def withdrawn(
    rounds: Iterable[Round],
    played: Iterable[tuple[int, int]],
    member: int,
    best_of: int | Mapping[int, int],
) -> tuple[standings.Result, ...]:
    """A member withdraws mid-competition: their results so far stand, and each of their
    fixtures not yet played becomes a walkover to the opponent (`standings.walkover`);
    `best_of` the group's, or per round."""
    out: list[standings.Result] = []
    for p in remaining(rounds, played):
        if member in p.players:
            other = p.second if p.first == member else p.first
            frames = best_of if isinstance(best_of, int) else best_of[p.round]
            out.append(standings.walkover(other, member, frames))
    return tuple(out)


# --- group stages --------------------------------------------------------------------------------
def drawn(ranking: Sequence[int], count: int, seed: int) -> tuple[int, ...]:
    """The entrants in seed order for `count` groups (the module's docstring): pots of
    `count` by ranking, each pot's order drawn from `seed`."""
    _check(ranking)
    if count < 1:
        raise IllegalRequest("bad_groups", "a round robin has at least one group")
    out: list[int] = []
    for pot, at in enumerate(range(0, len(ranking), count)):
        out.extend(shuffle(ranking[at : at + count], seed + pot))
    return tuple(out)


def groups(seeds: Sequence[int], count: int) -> tuple[tuple[int, ...], ...]:
    """The entrants (in seed order) dealt into `count` groups by the snake; each group lists
    its entrants in seed order."""
    _check(seeds)
    if not 1 <= count <= len(seeds) // 2:
        raise IllegalRequest("bad_groups", f"{len(seeds)} entrants make 1 to {len(seeds) // 2}")
    out: list[list[int]] = [[] for _ in range(count)]
    for i, member in enumerate(seeds):
        lap, at = divmod(i, count)
        out[at if lap % 2 == 0 else count - 1 - at].append(member)
    return tuple(tuple(g) for g in out)


def qualifiers(tables: Sequence[standings.Table], advance: int) -> tuple[tuple[int, ...], ...]:
    """The top `advance` of each group's table, group by group (A's winner first)."""
    if any(advance > len(t.tallies) for t in tables) or advance < 1:
        raise IllegalRequest("bad_advance", f"{advance} cannot qualify from each group")
    return tuple(tuple(r.tally.member for r in standings.standings(t)[:advance]) for t in tables)


def crossed(qualified: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The knockout's seed order for the groups' qualifiers (group by group, each in table
    order): the group winners (A's, B's, ...), then the runners-up, and so on; where that
    would open the knockout with two of one group (a number of groups that is not a power of
    two), a lower qualifier swaps places with one of the same rank from another group."""
    ranks = max((len(q) for q in qualified), default=0)
    seeds = [q[r] for r in range(ranks) for q in qualified if r < len(q)]
    group = {m: g for g, q in enumerate(qualified) for m in q}
    rank = {m: r for q in qualified for r, m in enumerate(q)}
    if len(seeds) < 2:
        return tuple(seeds)
    order = bracket_order(bracket_size(len(seeds)))
    opposite = {order[i]: order[i ^ 1] for i in range(len(order))}

    def clash(s: int) -> bool:  # seed number s opens against one of its own group
        o = opposite[s]
        return o <= len(seeds) and group[seeds[s - 1]] == group[seeds[o - 1]]

    for s in range(len(seeds), 0, -1):
        if not clash(s) or rank[seeds[s - 1]] < rank[seeds[opposite[s] - 1]]:
            continue
        for t in range(len(seeds), 0, -1):
            if t == s or rank[seeds[t - 1]] != rank[seeds[s - 1]]:
                continue
            seeds[s - 1], seeds[t - 1] = seeds[t - 1], seeds[s - 1]
            if not clash(s) and not clash(t):
                break
            seeds[s - 1], seeds[t - 1] = seeds[t - 1], seeds[s - 1]
    return tuple(seeds)
