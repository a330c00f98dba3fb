"""A competition's seeding and draw: who is seeded where, who gets the byes, and the random part
of the draw, repeatable from a stored seed.

Pure, like the rest of `rules/`: entrants are member ids, ratings and ladder orders are passed
in, and the only randomness is a `random.Random(seed)` made here from the seed the competition
stores, so a draw can be shown to be fair and repeated exactly (`draw`).

- **Seeding** ranks the entrants: by club rating (`by_rating`, highest first), by ladder
  position (`by_ladder`, the top first, then those not on the ladder by rating) or by hand (an
  organiser's order, checked by `by_hand`); `rank` picks one by the competition's `Method`,
  an organiser's numbers given by hand read by `by_numbers`. A tie is broken by the member id,
  so the ranking is a function of its inputs.
- **The draw** keeps the top `seeded` entrants where the ranking put them and draws the rest
  at random among the remaining seed numbers (`draw`: Fisher–Yates, `shuffle`).
- **The bracket's order** is the standard one (`bracket_order`): in a bracket of 16, seed 1
  meets 16, 8 meets 9, ... and seed 1 and seed 2 are in opposite halves, 1 to 4 in different
  quarters, so the top seeds can meet only late (1 and 2 only in the final).
- **Byes**: a field that is not a power of two is filled up to the next one with byes, and
  the byes take the places of the missing lowest seeds, so they fall to the top seeds, all in
  the first round (a bye never meets a bye: more than half of the places are filled).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import IllegalRequest

Slots = tuple[int | None, ...]  # a bracket's first-round places, in order; None: a bye
MIN_ENTRANTS = 2


# --- ranking --------------------------------------------------------------------------------------
def by_rating(entrants: Sequence[int], ratings: Mapping[int, float]) -> tuple[int, ...]:
    """The entrants ranked by club rating, highest first (a member without one counts as the
    lowest); level ratings by member id."""
    _check_entrants(entrants)
    return tuple(sorted(entrants, key=lambda m: (-ratings.get(m, float("-inf")), m)))


def by_ladder(
    entrants: Sequence[int], order: Sequence[int], ratings: Mapping[int, float]
) -> tuple[int, ...]:
    """The entrants ranked by their ladder position (`order`: member ids from the top), then
    those not on the ladder, by rating (`by_rating`)."""
    _check_entrants(entrants)
    entered, ladder = set(entrants), set(order)
    on = [m for m in order if m in entered]
    off = [m for m in entrants if m not in ladder]
    return (*on, *by_rating(off, ratings)) if off else tuple(on)


def by_hand(entrants: Sequence[int], ranking: Sequence[int]) -> tuple[int, ...]:
    """An organiser's own ranking, checked to be the entrants, each once."""
    _check_entrants(entrants)
    if sorted(ranking) != sorted(entrants):
        raise IllegalRequest("seeding_not_entrants", "a ranking by hand lists every entrant once")
    return tuple(ranking)


class Method(StrEnum):
    """How a competition's entrants are ranked for its draw."""

    RATING = "rating"  # by club rating (`by_rating`)
    LADDER = "ladder"  # by a ladder's positions, then the rest by rating (`by_ladder`)
    HAND = "hand"  # an organiser's order, then those left unnumbered by rating


def by_numbers(numbers: Mapping[int, int]) -> tuple[int, ...]:
    """The members an organiser numbered by hand (member -> number, 1 the top), in the order
    of their numbers; the numbers need not run on (1, 2, 5 is an order), but each is positive
    and given once."""
    if any(n < 1 for n in numbers.values()):
        raise IllegalRequest("bad_seed_number", "a seed number is 1 or more")
    if len(set(numbers.values())) != len(numbers):
        raise IllegalRequest("seed_number_twice", "each seed number is given once")
    return tuple(sorted(numbers, key=lambda m: numbers[m]))


def rank(
    method: Method, entrants: Sequence[int], ratings: Mapping[int, float],
    order: Sequence[int] = (),
) -> tuple[int, ...]:  # fmt: skip
    """The entrants ranked for the draw by `method`: by rating; by ladder position (`order`:
    the ladder's members from the top); or by hand (`order`: the organiser's, `by_numbers`).
    Entrants missing from `order` come after those in it, by rating (a member not on the
    ladder; one who entered after the organiser numbered the rest); members in `order` who
    have not entered are passed over."""
    _check_entrants(entrants)
    if method is Method.RATING:
        return by_rating(entrants, ratings)
    if len(set(order)) != len(order):
        raise IllegalRequest("duplicate_entrant", "a member is ordered twice")
    ranked = by_ladder(entrants, order, ratings)
    if method is Method.LADDER:
        return ranked
    return by_hand(entrants, ranked)


def _check_entrants(entrants: Sequence[int]) -> None:
    if len(set(entrants)) != len(entrants):
        raise IllegalRequest("duplicate_entrant", "an entrant is listed twice")


# --- the bracket's shape --------------------------------------------------------------------------
def bracket_size(entrants: int) -> int:
    """The places in the first round: the smallest power of two that holds every entrant."""
    if entrants < MIN_ENTRANTS:
        raise IllegalRequest("too_few_entrants", f"a draw needs {MIN_ENTRANTS} entrants")
    size = 2
    while size < entrants:
        size *= 2
    return size


def bracket_order(size: int) -> tuple[int, ...]:
    """The seed numbers in the standard order of a bracket of `size` places (a power of two):
    places 2i and 2i+1 meet in the first round, seeds s and size+1−s meet there, and each half
    holds the seeds that would meet in it if the higher seed always won (8: 1 8 4 5 2 7 3 6)."""
    if size < 1 or size & (size - 1):
        raise IllegalRequest("bad_bracket_size", f"{size} is not a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def byes(entrants: int) -> int:
    """How many byes a draw of `entrants` has (they go to seeds 1 to `byes`)."""
    return bracket_size(entrants) - entrants


def default_seeded(entrants: int) -> int:
    """How many entrants a draw seeds unless the organiser says: a quarter of the bracket's
    places, at least two (so that 1 and 2 are apart), at most the field."""
    return min(entrants, max(2, bracket_size(entrants) // 4))


# --- the draw -------------------------------------------------------------------------------------
def shuffle(items: Sequence[int], seed: int) -> tuple[int, ...]:
    """`items` in an order drawn from `seed`: the Fisher–Yates shuffle, from the last place
    down, each place taking one of the items not yet placed, uniformly, from
    `random.Random(seed)` (Python's Mersenne Twister, the same on every platform)."""
    rng = random.Random(seed)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Draw:
    """A knockout's draw: `seeds` are the entrants by seed number (seed 1 first: the seeded
    ones as ranked, the rest as drawn), `slots` the first round's places in bracket order
    (None: a bye), `seed` the number the random part was drawn from."""

    seeds: tuple[int, ...]
    slots: Slots
    seed: int
    seeded: int

    def seed_of(self, member: int) -> int:
        """The member's seed number (1 the top)."""
        try:
            return self.seeds.index(member) + 1
        except ValueError:
            raise IllegalRequest("not_entered", f"member {member} is not in the draw") from None


def place(seeds: Sequence[int]) -> Slots:
    """The first round's places for entrants in seed order: seed numbers in `bracket_order`,
    the missing lowest seeds' places left as byes."""
    size = bracket_size(len(seeds))
    return tuple(seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size))


def drawn(ranking: Sequence[int], seed: int, seeded: int) -> tuple[int, ...]:
    """The entrants by seed number: the first `seeded` of `ranking` as ranked, the rest drawn
    at random (`shuffle` with `seed`) into the numbers after them. A knockout places them
    (`draw`); a group stage deals them into groups (`rules.roundrobin.groups`)."""
    _check_entrants(ranking)
    if not 0 <= seeded <= len(ranking):
        raise IllegalRequest("bad_seeded", f"between 0 and {len(ranking)} entrants may be seeded")
    return (*ranking[:seeded], *shuffle(ranking[seeded:], seed))


def draw(ranking: Sequence[int], seed: int, seeded: int | None = None) -> Draw:
    """The draw of a knockout: the entrants by seed number (`drawn`, the first `seeded`
    (default `default_seeded`) as ranked), placed in the standard order (`place`), byes to the
    top seeds."""
    fixed = default_seeded(len(ranking)) if seeded is None else seeded
    seeds = drawn(ranking, seed, fixed)
    return Draw(seeds=seeds, slots=place(seeds), seed=seed, seeded=fixed)
