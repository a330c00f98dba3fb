"""The ladder's rules (rules/ladder.py), without a database: members are numbers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import fixtures, ladder
from rules.challenges import Format, Kind, Party, check_challenge, rated
from rules.errors import IllegalRequest
from rules.ladder import DefaultRule, Joined, Moved, Removed, Result

ORDER = (10, 20, 30, 40, 50, 60)  # 10 at the top


def code(call) -> str | None:  # type: ignore[no-untyped-def]
    try:
        call()
    except IllegalRequest as exc:
        return exc.code
    return None


@pytest.mark.parametrize(
    ("challenger", "defender", "busy", "refusal"),
    [
        (50, 40, (), None),  # one place above
        (50, 20, (), None),  # three places above: the default range
        (50, 10, (), "out_of_range"),  # four
        (50, 60, (), "below"),  # a challenge goes up
        (50, 50, (), "same_player"),
        (70, 40, (), "not_on_ladder"),
        (50, 70, (), "defender_not_on_ladder"),
        (50, 40, (50,), "busy"),  # the challenger is in a challenge or match already
        (50, 40, (40,), "defender_busy"),  # so is the defender
        (50, 30, (40,), None),  # someone between being busy changes nothing
    ],
)
def test_who_may_challenge_whom(challenger, defender, busy, refusal) -> None:  # type: ignore[no-untyped-def]
    assert code(lambda: ladder.check_challenge(ORDER, challenger, defender, busy, 3)) == refusal


def test_the_range_is_the_ladders() -> None:
    assert code(lambda: ladder.check_challenge(ORDER, 60, 10, (), 5)) is None
    assert code(lambda: ladder.check_challenge(ORDER, 60, 40, (), 1)) == "out_of_range"
    assert ladder.challengeable(ORDER, 60, (), 1) == (50,)


def test_whom_a_member_may_challenge_nearest_first() -> None:
    assert ladder.challengeable(ORDER, 50, (), 3) == (40, 30, 20)
    assert ladder.challengeable(ORDER, 30, (), 3) == (20, 10)  # near the top
    assert ladder.challengeable(ORDER, 10, (), 3) == ()  # the top challenges nobody
    assert ladder.challengeable(ORDER, 50, (30,), 3) == (40, 20)  # busy members are not free
    assert ladder.challengeable(ORDER, 50, (50,), 3) == ()  # nor is a busy challenger
    assert ladder.challengeable(ORDER, 70, (), 3) == ()  # nor someone off the ladder


@pytest.mark.parametrize(
    ("winner", "loser", "after"),
    [
        # The challenger wins: takes the loser's place; everyone in between moves down one.
        (50, 20, (10, 50, 20, 30, 40, 60)),
        (20, 10, (20, 10, 30, 40, 50, 60)),  # the top changes hands
        (60, 30, (10, 20, 60, 30, 40, 50)),  # from the bottom
        (40, 30, (10, 20, 40, 30, 50, 60)),  # neighbours swap
        # The defender wins: keeps the place; nobody moves.
        (20, 50, ORDER),
        (10, 20, ORDER),
    ],
)
def test_the_position_swap(winner, loser, after) -> None:  # type: ignore[no-untyped-def]
    assert ladder.result(ORDER, winner, loser) == after


@given(st.permutations(range(8)), st.integers(0, 7), st.integers(0, 7))
def test_a_result_moves_only_the_members_between(order, i, j) -> None:  # type: ignore[no-untyped-def]
    order = tuple(order)
    if i == j:
        return
    winner, loser = order[i], order[j]
    after = ladder.result(order, winner, loser)
    assert sorted(after) == sorted(order)  # nobody joins or leaves
    top, bottom = min(i, j), max(i, j)
    assert after[:top] == order[:top] and after[bottom + 1 :] == order[bottom + 1 :]
    if i > j:  # from below: the winner is where the loser was, the rest keep their order
        assert after.index(winner) == j and after.index(loser) == j + 1
        assert [m for m in after if m != winner] == [m for m in order if m != winner]
    else:
        assert after == order


def test_new_members_join_at_the_bottom() -> None:
    assert ladder.join(ORDER, 70) == (*ORDER, 70)
    assert ladder.join((), 70) == (70,)
    assert code(lambda: ladder.join(ORDER, 30)) == "already_on_ladder"


def test_an_organiser_moves_and_removes() -> None:
    assert ladder.move(ORDER, 50, 2) == (10, 50, 20, 30, 40, 60)
    assert ladder.move(ORDER, 20, 5) == (10, 30, 40, 50, 20, 60)
    assert ladder.move(ORDER, 20, 99) == (10, 30, 40, 50, 60, 20)  # clamped to the bottom
    assert ladder.move(ORDER, 20, 0) == (20, 10, 30, 40, 50, 60)
    assert ladder.remove(ORDER, 30) == (10, 20, 40, 50, 60)  # those below move up one
    assert code(lambda: ladder.remove(ORDER, 70)) == "not_on_ladder"
    assert code(lambda: ladder.move(ORDER, 70, 1)) == "not_on_ladder"


def test_default_results() -> None:
    assert ladder.default_winner(DefaultRule.CHALLENGER_WINS, 50, 20) == 50
    assert ladder.default_winner(DefaultRule.DEFENDER_WINS, 50, 20) == 20
    assert ladder.default_winner(DefaultRule.NO_CHANGE, 50, 20) is None
    assert ladder.declined_winner(True, 50) == 50
    assert ladder.declined_winner(False, 50) is None


def test_the_standings_are_the_history_replayed() -> None:
    history = [Joined(1), Joined(2), Joined(3), Joined(4), Result(3, 1), Result(2, 4)]
    assert ladder.replay(history) == (3, 1, 2, 4)
    # Voiding the first result: replaying without it.
    assert ladder.replay([e for e in history if e != Result(3, 1)]) == (1, 2, 3, 4)
    history += [Moved(4, 1), Removed(1), Joined(5)]
    assert ladder.replay(history) == (4, 3, 2, 5)
    # A result against a member removed before it (only when replaying): nobody moves.
    assert ladder.replay([Joined(1), Joined(2), Removed(1), Result(2, 1)]) == (2,)


def test_form_is_the_last_five_results_latest_first() -> None:
    results = [Result(1, 2), Result(2, 1), Result(1, 3), Result(3, 2)] + [Result(1, 4)] * 3
    assert ladder.form(results, 1) == "WWWWL"
    assert ladder.form(results, 2) == "LWL"
    assert ladder.form(results, 5) == ""


def test_a_ladder_challenge_is_a_rated_challenge_between_members() -> None:
    alice, bob, gina = Party(1), Party(2), Party(3, guest=True)
    rated_format = Format(3, rated=True)
    assert code(lambda: check_challenge(Kind.LADDER, alice, bob, rated_format)) is None
    assert code(lambda: check_challenge(Kind.LADDER, alice, bob, Format(3))) == "ladder_rated"
    assert code(lambda: check_challenge(Kind.LADDER, alice, gina, rated_format)) in (
        "target_is_guest",
        "unrated",
    )
    assert code(lambda: check_challenge(Kind.LADDER, gina, alice, rated_format)) == "members_only"
    # Rated only when both say so; a ladder match whatever the one accepting says.
    assert rated(Kind.DIRECT, alice, bob, wanted=True, agreed=True)
    assert not rated(Kind.DIRECT, alice, bob, wanted=True, agreed=False)
    assert not rated(Kind.DIRECT, alice, bob, wanted=False, agreed=True)
    assert rated(Kind.LADDER, alice, bob, wanted=True, agreed=False)


# --- the cool-down between two members ---------------------------------------------------------
def test_the_cool_down_keeps_a_pair_apart_until_it_ends() -> None:
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    week = timedelta(days=7)
    met = {40: now - timedelta(days=6, hours=23), 30: now - week, 20: now - timedelta(days=9)}
    cooling = ladder.cooling(met, now, week)
    assert cooling == {40: now + timedelta(hours=1)}  # ended exactly now for 30: free again
    assert code(lambda: ladder.check_challenge(ORDER, 50, 40, (), 3, cooling)) == "cooling_down"
    assert code(lambda: ladder.check_challenge(ORDER, 50, 30, (), 3, cooling)) is None
    assert ladder.challengeable(ORDER, 50, (), 3, cooling) == (30, 20)
    # Busy is said before the cool-down (the pair's match is still to be settled).
    assert code(lambda: ladder.check_challenge(ORDER, 50, 40, (40,), 3, cooling)) == "defender_busy"
    assert ladder.cooling(met, now, timedelta(0)) == {}  # a ladder without a cool-down


# --- a match not played out (the fixtures' rule: tests/rules/test_fixtures.py) ---------------
@pytest.mark.parametrize("rule", list(DefaultRule))
def test_the_ladders_rule_is_the_fixtures_fallback_and_the_history_names_the_absent(
    rule: DefaultRule,
) -> None:
    """Both came, neither waited: the ladder's own rule; the history's words for who did not
    come."""
    came, stayed, nobody = (
        fixtures.Attendance(True),
        fixtures.Attendance(True, fixtures.ALONE_LONG),
        fixtures.NOBODY,
    )
    both = ladder.unplayed(rule, 1, 2, (came, came), None)
    assert both.winner == ladder.default_winner(rule, 1, 2) and both.flagged
    assert ladder.absent(both, 1, 2) is ladder.Absent.NEITHER
    neither = ladder.unplayed(rule, 1, 2, (nobody, nobody), None)
    assert ladder.absent(neither, 1, 2) is ladder.Absent.BOTH
    waited = ladder.unplayed(rule, 1, 2, (came, stayed), None)
    assert waited.winner == 2 and ladder.absent(waited, 1, 2) is ladder.Absent.CHALLENGER
    started = ladder.unplayed(rule, 1, 2, (nobody, nobody), fixtures.Standing((1, 0), (0, 0)))
    assert started.winner == 1 and ladder.absent(started, 1, 2) is None
