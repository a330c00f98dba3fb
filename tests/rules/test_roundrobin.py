"""Round robins and group stages (rules/roundrobin.py): the circle method, the snake, who
qualifies and how the qualifiers cross."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import bracket, roundrobin, seeding
from rules.errors import IllegalRequest
from rules.standings import Result, table

fields = st.lists(st.integers(1, 999), min_size=2, max_size=24, unique=True)


def test_four_entrants_play_three_rounds_by_the_circle() -> None:
    rounds = roundrobin.schedule([1, 2, 3, 4])
    assert [[p.players for p in r.pairings] for r in rounds] == [
        [(1, 4), (2, 3)],
        [(3, 1), (4, 2)],
        [(1, 2), (3, 4)],
    ]
    assert all(r.bye is None for r in rounds)


def test_an_odd_field_rests_each_entrant_once() -> None:
    rounds = roundrobin.schedule([1, 2, 3, 4, 5])
    assert len(rounds) == 5 and all(len(r.pairings) == 2 for r in rounds)
    assert sorted(r.bye for r in rounds if r.bye is not None) == [1, 2, 3, 4, 5]


def test_twice_round_turns_each_pair_round() -> None:
    rounds = roundrobin.schedule([1, 2, 3], cycles=2)
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]
    first, second = rounds[:3], rounds[3:]
    assert [[p.players[::-1] for p in r.pairings] for r in first] == [
        [p.players for p in r.pairings] for r in second
    ]
    with pytest.raises(IllegalRequest, match="bad_cycles"):
        roundrobin.schedule([1, 2], cycles=0)
    with pytest.raises(IllegalRequest, match="too_few_entrants"):
        roundrobin.schedule([1])


@given(fields, st.integers(1, 2))
def test_every_pair_meets_exactly_once_a_cycle(entrants: list[int], cycles: int) -> None:
    rounds = roundrobin.schedule(entrants, cycles)
    n = len(entrants)
    assert len(rounds) == cycles * (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(p.players) for p in roundrobin.fixtures(rounds))
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(entrants, 2)}
    assert set(met.values()) == {cycles}
    for r in rounds:  # everyone plays once a round, but the one resting
        playing = [m for p in r.pairings for m in p.players]
        assert len(playing) == len(set(playing))
        assert sorted([*playing, *([r.bye] if r.bye is not None else [])]) == sorted(entrants)


@given(fields)
def test_each_entrant_is_first_as_often_as_second(entrants: list[int]) -> None:
    firsts = Counter(p.first for p in roundrobin.fixtures(roundrobin.schedule(entrants)))
    seconds = Counter(p.second for p in roundrobin.fixtures(roundrobin.schedule(entrants)))
    allowed = 1 if len(entrants) % 2 == 0 else 0
    assert all(abs(firsts[m] - seconds[m]) <= allowed for m in entrants)


def test_a_withdrawal_leaves_results_standing_and_walks_over_the_rest() -> None:
    rounds = roundrobin.schedule([1, 2, 3, 4])
    assert [p.players for p in roundrobin.remaining(rounds, [(4, 1)])] == [
        (2, 3),
        (3, 1),
        (4, 2),
        (1, 2),
        (3, 4),
    ]
    walkovers = roundrobin.withdrawn(rounds, [(1, 4), (2, 3)], member=4, best_of=5)
    assert [(w.first, w.second, w.frames, w.walkover) for w in walkovers] == [
        (2, 4, (3, 0), True),
        (3, 4, (3, 0), True),
    ]
    by_round = roundrobin.withdrawn(rounds, [], member=4, best_of={1: 3, 2: 5, 3: 7})
    assert [w.frames for w in by_round] == [(2, 0), (3, 0), (4, 0)]


def test_groups_are_dealt_by_the_snake() -> None:
    assert roundrobin.groups(list(range(1, 13)), 4) == (
        (1, 8, 9),
        (2, 7, 10),
        (3, 6, 11),
        (4, 5, 12),
    )
    assert roundrobin.groups([1, 2, 3, 4, 5], 2) == ((1, 4, 5), (2, 3))
    with pytest.raises(IllegalRequest, match="bad_groups"):
        roundrobin.groups([1, 2, 3], 2)


def test_the_top_of_each_table_qualifies() -> None:
    a = table([1, 2, 3], [Result(1, 2, (0, 3)), Result(1, 3, (3, 0)), Result(2, 3, (3, 1))])
    b = table([4, 5, 6], [Result(4, 5, (3, 0)), Result(4, 6, (3, 0)), Result(5, 6, (0, 3))])
    assert roundrobin.qualifiers([a, b], 2) == ((2, 1), (4, 6))
    with pytest.raises(IllegalRequest, match="bad_advance"):
        roundrobin.qualifiers([a, b], 4)


def test_group_winners_meet_runners_up_of_other_groups() -> None:
    seeds = roundrobin.crossed([(11, 12), (21, 22), (31, 32), (41, 42)])
    assert seeds == (11, 21, 31, 41, 12, 22, 32, 42)
    slots = seeding.place(seeds)
    assert [slots[i : i + 2] for i in range(0, 8, 2)] == [
        (11, 42),
        (41, 12),
        (21, 32),
        (31, 22),
    ]
    # Three groups: the plain order would open with C's winner against C's runner-up.
    seeds = roundrobin.crossed([(11, 12), (21, 22), (31, 32)])
    assert seeds[:3] == (11, 21, 31)
    slots = seeding.place(seeds)
    assert all(
        a is None or b is None or a // 10 != b // 10
        for a, b in zip(slots[::2], slots[1::2], strict=True)
    )


@given(st.integers(2, 16), st.integers(1, 4))
def test_two_of_a_group_never_open_the_knockout(count: int, advance: int) -> None:
    qualified = [tuple(10 * g + r for r in range(advance)) for g in range(1, count + 1)]
    seeds = roundrobin.crossed(qualified)
    assert sorted(seeds) == sorted(m for q in qualified for m in q)
    assert [m % 10 for m in seeds] == sorted(m % 10 for m in seeds)  # winners first, ...
    assert seeds[:count] == tuple(q[0] for q in qualified)  # ... in group order
    slots = seeding.place(seeds)
    pairs = list(zip(slots[::2], slots[1::2], strict=True))
    assert all(a is None or b is None or a // 10 != b // 10 for a, b in pairs)
    with_bye = [(a or b or 0) % 10 for a, b in pairs if a is None or b is None]
    playing = [m % 10 for a, b in pairs if a is not None and b is not None for m in (a, b)]
    assert not with_bye or not playing or max(with_bye) <= min(playing)  # byes: winners first
    if count & (count - 1) == 0 and advance == 2:  # no byes: a winner against a runner-up
        assert all({(a or 0) % 10, (b or 0) % 10} == {0, 1} for a, b in pairs)


@given(st.integers(), st.randoms(use_true_random=False))
def test_sixty_four_in_eight_groups_then_a_knockout_of_sixteen(seed: int, rnd) -> None:  # type: ignore[no-untyped-def]
    ranking = list(range(1000, 1064))
    drawn = seeding.drawn(ranking, seed, seeded=8)
    dealt = roundrobin.groups(drawn, 8)
    assert [g[0] for g in dealt] == ranking[:8]  # one top seed a group
    tables = []
    for group in dealt:
        results = []
        for p in roundrobin.fixtures(roundrobin.schedule(group)):
            frames = (3, rnd.randrange(3)) if rnd.random() < 0.5 else (rnd.randrange(3), 3)
            results.append(Result(p.first, p.second, frames))
        tables.append(table(group, results))
    qualified = roundrobin.qualifiers(tables, 2)
    b = bracket.single(seeding.place(roundrobin.crossed(qualified)), third_place=True)
    group_of = {m: g for g, members in enumerate(dealt) for m in members}
    winners = {q[0] for q in qualified}
    for m in bracket.ready(b):
        a, c = m.players
        assert a is not None and c is not None
        assert group_of[a] != group_of[c]
        assert (a in winners) != (c in winners)


@given(fields, st.integers(1, 4), st.integers(0, 2**48))
def test_a_group_draw_is_pots_drawn_from_its_seed(
    ranking: list[int], count: int, seed: int
) -> None:
    """Each pot of `count` keeps its members, in an order drawn from the seed, the same every
    time; one group is the ranking itself."""
    made = roundrobin.drawn(ranking, count, seed)
    assert made == roundrobin.drawn(ranking, count, seed)
    assert all(
        set(made[i : i + count]) == set(ranking[i : i + count])
        for i in range(0, len(ranking), count)
    )
    assert roundrobin.drawn(ranking, 1, seed) == tuple(ranking)
