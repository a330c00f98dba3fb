"""A competition's seeding and draw (rules/seeding.py), without a database: members are
numbers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import seeding
from rules.errors import IllegalRequest

fields = st.lists(st.integers(1, 10_000), min_size=2, max_size=130, unique=True)


def test_the_standard_order_puts_the_top_seeds_apart() -> None:
    assert seeding.bracket_order(2) == (1, 2)
    assert seeding.bracket_order(4) == (1, 4, 2, 3)
    assert seeding.bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seeding.bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


def test_a_bracket_holds_the_field_in_a_power_of_two() -> None:
    assert [seeding.bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 64, 65)] == [
        2,
        4,
        4,
        8,
        8,
        16,
        64,
        128,
    ]
    with pytest.raises(IllegalRequest, match="too_few_entrants"):
        seeding.bracket_size(1)
    with pytest.raises(IllegalRequest, match="bad_bracket_size"):
        seeding.bracket_order(12)


def test_six_entrants_give_the_two_byes_to_seeds_1_and_2() -> None:
    slots = seeding.place([11, 22, 33, 44, 55, 66])
    assert slots == (11, None, 44, 55, 22, None, 33, 66)
    assert seeding.byes(6) == 2


def test_ranking_by_rating_highest_first_ties_by_id() -> None:
    ratings = {1: 1500.0, 2: 1700.0, 3: 1500.0}
    assert seeding.by_rating([3, 1, 2, 4], ratings) == (2, 1, 3, 4)  # 4 has no rating: last


def test_ranking_by_ladder_then_by_rating() -> None:
    assert seeding.by_ladder([5, 7, 9, 3], order=(9, 1, 5), ratings={3: 1400.0, 7: 1600.0}) == (
        9,
        5,
        7,
        3,
    )


def test_a_ranking_by_hand_lists_every_entrant_once() -> None:
    assert seeding.by_hand([1, 2, 3], [3, 1, 2]) == (3, 1, 2)
    with pytest.raises(IllegalRequest, match="seeding_not_entrants"):
        seeding.by_hand([1, 2, 3], [3, 1, 1])
    with pytest.raises(IllegalRequest, match="duplicate_entrant"):
        seeding.by_rating([1, 1], {})


def test_the_shuffle_is_fisher_yates_from_the_stored_seed() -> None:
    # Pinned: a stored draw must come out the same on every machine and Python version.
    assert seeding.shuffle(range(1, 11), 2026) == (1, 7, 3, 4, 9, 5, 8, 10, 6, 2)
    assert seeding.shuffle([], 1) == ()


def test_the_seeded_keep_their_numbers_and_the_rest_are_drawn() -> None:
    ranking = list(range(101, 117))
    d = seeding.draw(ranking, seed=7)
    assert d.seeded == 4  # a quarter of 16
    assert d.seeds[:4] == (101, 102, 103, 104)
    assert sorted(d.seeds[4:]) == list(range(105, 117))
    assert d.seeds[4:] != tuple(range(105, 117))  # drawn, not as ranked
    assert d.seed_of(101) == 1
    with pytest.raises(IllegalRequest, match="bad_seeded"):
        seeding.draw(ranking, seed=7, seeded=17)
    with pytest.raises(IllegalRequest, match="not_entered"):
        d.seed_of(1)


@given(fields, st.integers())
def test_a_replayed_draw_is_identical(ranking: list[int], seed: int) -> None:
    assert seeding.draw(ranking, seed) == seeding.draw(list(ranking), seed)


@given(fields, st.integers(), st.data())
def test_byes_fall_to_the_top_seeds_and_never_meet(
    ranking: list[int], seed: int, data: st.DataObject
) -> None:
    seeded = data.draw(st.integers(0, len(ranking)))
    d = seeding.draw(ranking, seed, seeded)
    size = seeding.bracket_size(len(ranking))
    assert len(d.slots) == size and sorted(p for p in d.slots if p is not None) == sorted(ranking)
    pairs = [d.slots[i : i + 2] for i in range(0, size, 2)]
    with_bye = [a if b is None else b for a, b in pairs if None in (a, b)]
    assert all(a is not None or b is not None for a, b in pairs)  # a bye never meets a bye
    assert sorted(d.seed_of(m) for m in with_bye if m is not None) == list(
        range(1, seeding.byes(len(ranking)) + 1)
    )


@given(st.integers(1, 8))
def test_in_the_standard_order_seeds_1_to_2n_are_in_different_parts(k: int) -> None:
    order = seeding.bracket_order(2**k)
    for parts in (2**j for j in range(1, k + 1)):
        width = len(order) // parts
        part_of = {s: i // width for i, s in enumerate(order)}
        assert len({part_of[s] for s in range(1, parts + 1)}) == parts


def test_the_group_stages_order_is_the_knockouts() -> None:
    ranking = list(range(1, 21))
    assert seeding.drawn(ranking, 5, seeded=4) == seeding.draw(ranking, 5, seeded=4).seeds
    assert seeding.drawn(ranking, 5, seeded=20) == tuple(ranking)  # all by hand or by rating


# --- the competition's method: rating, ladder position, by hand -------------------------------
ratings_of = st.dictionaries(st.integers(1, 10_000), st.floats(0, 3000), max_size=200)


def test_numbers_given_by_hand_are_an_order() -> None:
    assert seeding.by_numbers({7: 2, 3: 1, 9: 5}) == (3, 7, 9)
    with pytest.raises(IllegalRequest, match="seed_number_twice"):
        seeding.by_numbers({7: 1, 3: 1})
    with pytest.raises(IllegalRequest, match="bad_seed_number"):
        seeding.by_numbers({7: 0})


def test_each_method_ranks_as_its_function() -> None:
    ratings = {1: 1500.0, 2: 1700.0, 3: 1600.0, 4: 1400.0}
    entrants = [1, 2, 3, 4]
    assert seeding.rank(seeding.Method.RATING, entrants, ratings, (4, 1)) == (2, 3, 1, 4)
    # Ladder: 4 then 1 on the ladder (8 is on it but did not enter), the rest by rating.
    assert seeding.rank(seeding.Method.LADDER, entrants, ratings, (4, 8, 1)) == (4, 1, 2, 3)
    assert seeding.rank(seeding.Method.HAND, entrants, ratings, (3, 1, 4, 2)) == (3, 1, 4, 2)
    # One the organiser did not number (entered after): after the numbered, by rating.
    assert seeding.rank(seeding.Method.HAND, entrants, ratings, (1, 4)) == (1, 4, 2, 3)
    with pytest.raises(IllegalRequest, match="duplicate_entrant"):
        seeding.rank(seeding.Method.HAND, entrants, ratings, (1, 1))


@given(fields, ratings_of, st.randoms(use_true_random=False), st.integers())
def test_a_hand_order_is_respected_exactly(
    entrants: list[int], ratings: dict[int, float], rnd: random.Random, seed: int
) -> None:
    """The organiser's order is the ranking, and a draw seeding everyone gives those seed
    numbers exactly; numbers with gaps give the same order."""
    order = list(entrants)
    rnd.shuffle(order)
    assert seeding.rank(seeding.Method.HAND, entrants, ratings, order) == tuple(order)
    numbers = {m: 3 * i + rnd.randrange(1, 3) for i, m in enumerate(order)}
    assert seeding.by_numbers(numbers) == tuple(order)
    d = seeding.draw(seeding.rank(seeding.Method.HAND, entrants, ratings, order), seed,
                     seeded=len(entrants))  # fmt: skip
    assert all(d.seed_of(m) == i for i, m in enumerate(order, start=1))


@given(fields, ratings_of, st.randoms(use_true_random=False), st.data())
def test_ladder_positions_order_the_seeds(
    entrants: list[int], ratings: dict[int, float], rnd: random.Random, data: st.DataObject
) -> None:
    """Ranked by ladder: the entrants on the ladder keep its order, above every entrant not on
    it, who are ranked by rating among themselves; the seeded keep those ranks in the draw."""
    ladder = rnd.sample(entrants, data.draw(st.integers(0, len(entrants))))
    ladder += data.draw(st.lists(st.integers(10_001, 20_000), unique=True, max_size=5))
    rnd.shuffle(ladder)
    ranked = seeding.rank(seeding.Method.LADDER, entrants, ratings, ladder)
    on = [m for m in ladder if m in set(entrants)]
    assert sorted(ranked) == sorted(entrants)
    assert ranked[: len(on)] == tuple(on)
    assert ranked[len(on) :] == seeding.by_rating([m for m in entrants if m not in on], ratings)
    seeded = data.draw(st.integers(0, len(entrants)))
    d = seeding.draw(ranked, data.draw(st.integers()), seeded)
    assert d.seeds[:seeded] == ranked[:seeded]
