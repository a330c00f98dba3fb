"""A round robin's table (rules/standings.py): the fold over results and the tie-breaks, in
the issue's order (matches won, frame difference, head-to-head, frames won, highest break,
then the seeding)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import standings
from rules.errors import IllegalRequest
from rules.standings import Criterion, Result


def test_the_table_adds_matches_frames_and_the_highest_break() -> None:
    t = standings.table([1, 2, 3], [Result(1, 2, (3, 1), (87, 45)), Result(3, 1, (3, 2), (0, 112))])
    one = t.tallies[0]
    assert (one.played, one.won, one.lost, one.frames_won, one.frames_lost) == (2, 1, 1, 5, 4)
    assert (one.frame_difference, one.high_break) == (1, 112)
    assert t.tallies[1].lost == 1 and t.tallies[2].won == 1


def test_matches_won_come_first_then_frame_difference() -> None:
    rows = standings.standings(
        standings.table(
            [1, 2, 3],
            [Result(1, 2, (3, 2)), Result(1, 3, (0, 3)), Result(2, 3, (3, 0))],
        )
    )
    # all won one match: 2 (+2) above 3 (+0) above 1 (-2)
    assert [r.tally.member for r in rows] == [2, 3, 1]
    assert [r.decided_by for r in rows] == [Criterion.FRAME_DIFFERENCE] * 2 + [None]


def test_three_level_who_each_beat_one_go_on_to_frames_won() -> None:
    level = [Result(1, 2, (2, 3)), Result(1, 3, (3, 2)), Result(2, 3, (2, 3))]
    rows = standings.standings(standings.table([1, 2, 3], level))
    assert all(r.tally.won == 1 and r.tally.frame_difference == 0 for r in rows)
    assert all(r.head_to_head == 1 for r in rows)  # their little table is level too
    assert [(r.tally.member, r.tally.frames_won) for r in rows] == [(1, 5), (2, 5), (3, 5)]
    assert [r.decided_by for r in rows] == [Criterion.SEED, Criterion.SEED, None]
    level = [Result(1, 2, (2, 3)), Result(1, 3, (4, 3)), Result(2, 3, (2, 3))]
    rows = standings.standings(standings.table([1, 2, 3], level))
    assert [(r.tally.member, r.tally.frames_won) for r in rows] == [(1, 6), (3, 6), (2, 5)]
    assert [r.decided_by for r in rows] == [Criterion.SEED, Criterion.FRAMES_WON, None]


def test_two_level_on_matches_and_frames_are_split_by_their_meeting() -> None:
    results = [
        Result(1, 2, (1, 3)),  # 2 beat 1
        Result(1, 3, (3, 0)),
        Result(1, 4, (3, 1)),
        Result(2, 3, (1, 3)),
        Result(2, 4, (3, 0)),
        Result(3, 4, (0, 3)),
    ]
    rows = standings.standings(standings.table([1, 2, 3, 4], results))
    top = rows[:2]
    assert {r.tally.member for r in top} == {1, 2}
    assert top[0].tally.won == top[1].tally.won == 2
    assert top[0].tally.frame_difference == top[1].tally.frame_difference == 3
    assert [r.tally.member for r in top] == [2, 1]
    assert top[0].decided_by is Criterion.HEAD_TO_HEAD
    assert (top[0].head_to_head, top[1].head_to_head) == (1, 0)


def test_then_the_highest_break_then_the_seeding() -> None:
    results = [Result(1, 2, (3, 2), (0, 101)), Result(3, 1, (3, 2)), Result(2, 3, (3, 2))]
    rows = standings.standings(standings.table([1, 2, 3], results))
    # each 1 won, 5-5, each beat one, frames won 5: the highest break, then the seeding
    assert [r.tally.member for r in rows] == [2, 1, 3]
    assert [r.decided_by for r in rows] == [Criterion.HIGH_BREAK, Criterion.SEED, None]
    assert standings.order([1, 2], []) == (1, 2)


def test_a_walkover_is_won_by_the_frames_needed_to_nil() -> None:
    w = standings.walkover(7, 8, best_of=5)
    assert (w.first, w.second, w.frames, w.walkover, w.winner) == (7, 8, (3, 0), True, 7)


def test_both_out_is_a_walkover_both_lose() -> None:
    """An organiser put both out: each lost by the frames needed, to nil; nobody won, so it
    counts for nobody in the head-to-head."""
    table = standings.table([1, 2, 3], [standings.both_lost(1, 2, 2), Result(1, 3, (2, 1))])
    one, two, three = table.tallies
    assert (one.played, one.won, one.lost, one.frames_won, one.frames_lost) == (2, 1, 1, 2, 3)
    assert (two.played, two.won, two.lost, two.frames_won, two.frames_lost) == (1, 0, 1, 0, 2)
    assert three.lost == 1
    assert [r.tally.member for r in standings.standings(table)] == [1, 3, 2]


def test_only_the_groups_matches_count() -> None:
    with pytest.raises(IllegalRequest, match="not_in_group"):
        standings.table([1, 2], [Result(1, 3, (3, 0))])
    with pytest.raises(IllegalRequest, match="not_in_group"):
        standings.table([1, 2], [Result(1, 1, (3, 0))])
    with pytest.raises(IllegalRequest, match="bad_frames"):
        standings.table([1, 2], [Result(1, 2, (3, -1))])
    with pytest.raises(IllegalRequest, match="bad_frames"):
        standings.table([1, 2], [Result(1, 2, (2, 2))])


@st.composite
def groups(draw: st.DrawFn) -> tuple[list[int], list[Result]]:
    """A group and results of some of its pairs (best of 1 to 5), with breaks."""
    entrants = draw(st.lists(st.integers(1, 99), min_size=2, max_size=8, unique=True))
    results = []
    for a, b in itertools.combinations(entrants, 2):
        if draw(st.booleans()):
            loser = draw(st.integers(0, 2))
            first_won = draw(st.booleans())
            frames = (3, loser) if first_won else (loser, 3)
            brk = (draw(st.integers(0, 147)), draw(st.integers(0, 147)))
            results.append(Result(a, b, frames, brk))
    return entrants, results


@given(groups(), st.randoms(use_true_random=False))
def test_the_table_is_a_fold_in_any_order(group, rnd) -> None:  # type: ignore[no-untyped-def]
    entrants, results = group
    shuffled = list(results)
    rnd.shuffle(shuffled)
    a = standings.standings(standings.table(entrants, results))
    b = standings.standings(standings.table(entrants, shuffled))
    assert a == b
    assert sum(r.tally.won for r in a) == len(results) == sum(r.tally.lost for r in a)
    assert sum(r.tally.frame_difference for r in a) == 0


@given(groups())
def test_the_standings_are_a_total_order_consistent_with_the_tie_breaks(group) -> None:  # type: ignore[no-untyped-def]
    entrants, results = group
    rows = standings.standings(standings.table(entrants, results))
    assert sorted(r.tally.member for r in rows) == sorted(entrants)
    assert [r.place for r in rows] == list(range(1, len(entrants) + 1))
    assert rows[-1].decided_by is None
    for above, below in itertools.pairwise(rows):
        c = above.decided_by
        assert c is not None
        earlier = standings.CRITERIA[: standings.CRITERIA.index(c)]
        assert all(above.value(e) == below.value(e) for e in earlier)
        assert above.value(c) > below.value(c)
    # every criterion says the same thing about any two rows, not only neighbours
    for i, j in itertools.combinations(range(len(rows)), 2):
        key = [rows[i].value(c) for c in standings.CRITERIA]
        assert key > [rows[j].value(c) for c in standings.CRITERIA]
