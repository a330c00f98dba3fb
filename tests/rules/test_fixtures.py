"""The fixtures' rules (rules/fixtures.py), without a database: the agreed start, who came,
time alone at the table, and how a match not played out is decided. Players are numbers: 1
is the first (the ladder's challenger), 2 the second."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import fixtures
from rules.errors import IllegalRequest
from rules.fixtures import ALONE_LONG, NOBODY, WAIT_AT_START, Attendance, Decision, How, Standing

START = datetime(2026, 12, 1, 18, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def code(call) -> str | None:  # type: ignore[no-untyped-def]
    try:
        call()
    except IllegalRequest as exc:
        return exc.code
    return None


# --- the start time and who came -----------------------------------------------------------------
def test_a_start_time_lies_ahead_and_leaves_the_waiting_window_before_the_deadline() -> None:
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    play_by = now + timedelta(days=7)
    assert code(lambda: fixtures.check_start(now + timedelta(hours=2), now, play_by)) is None
    assert code(lambda: fixtures.check_start(now, now, play_by)) is None
    assert code(lambda: fixtures.check_start(now - MINUTE, now, play_by)) == "start_passed"
    last = play_by - WAIT_AT_START
    assert code(lambda: fixtures.check_start(last, now, play_by)) is None
    assert code(lambda: fixtures.check_start(last + timedelta(seconds=1), now, play_by)) == (
        "start_outside_window"
    )


def test_who_came() -> None:
    # Without an agreed time: arriving at all.
    assert fixtures.came(None, False, START) and not fixtures.came(None, False, None)
    # With one: seen at the table in the waiting window, or arriving inside it.
    assert fixtures.came(START, True, None)
    assert fixtures.came(START, False, START + 5 * MINUTE)
    assert fixtures.came(START, False, START + WAIT_AT_START)
    assert not fixtures.came(START, False, START + WAIT_AT_START + timedelta(seconds=1))
    assert not fixtures.came(START, False, START - timedelta(hours=1))  # came, and left, before
    assert fixtures.waiting_window(START) == (START, START + WAIT_AT_START)


def test_time_alone_is_counted_from_the_agreed_start_until_a_late_comer_could_wait() -> None:
    assert fixtures.alone_counted(None, START - timedelta(days=3))  # no time: all the window
    assert not fixtures.alone_counted(START, START - MINUTE)  # before it nobody waits for it
    assert fixtures.alone_counted(START, START)
    assert fixtures.alone_counted(START, START + WAIT_AT_START + ALONE_LONG)
    assert not fixtures.alone_counted(START, START + WAIT_AT_START + ALONE_LONG + MINUTE)


def test_time_alone_adds_up_between_looks_that_both_saw_the_player_alone() -> None:
    gap = MINUTE
    zero = timedelta(0)
    assert fixtures.alone_after(zero, None, START, gap) == zero  # a first sighting adds nothing
    assert fixtures.alone_after(zero, START, START + 30 * timedelta(seconds=1), gap) == (
        30 * timedelta(seconds=1)
    )
    assert fixtures.alone_after(MINUTE, START, START + 2 * MINUTE, gap) == MINUTE  # unseen: no
    assert fixtures.alone_after(MINUTE, START + MINUTE, START, gap) == MINUTE  # clock went back


# --- a match not played out: the cases -----------------------------------------------------------
CAME = Attendance(True)  # looked in (for a moment, or at the agreed time) and left
WAITED = Attendance(True, ALONE_LONG)  # alone at the table for long
ALMOST = Attendance(True, ALONE_LONG - timedelta(seconds=1))
FB = 1  # the caller's fallback (the ladder's default rule: "the challenger takes the win")


@pytest.mark.parametrize(
    ("first", "second", "started", "expected"),
    [
        # Started, not finished: the state decides, whoever is at the table.
        (NOBODY, WAITED, Standing((0, 1), (0, 0)), Decision(2, How.BY_STATE, (), True)),
        # The staller: 0-1 down, sitting at the table without striking, alone at last.
        (WAITED, CAME, Standing((0, 1), (7, 0)), Decision(2, How.BY_STATE, (), True)),
        (CAME, CAME, Standing((1, 1), (40, 12)), Decision(1, How.BY_STATE, (), True)),
        (CAME, CAME, Standing((1, 1), (12, 40)), Decision(2, How.BY_STATE, (), True)),
        (WAITED, NOBODY, Standing((0, 0), (0, 0)), Decision(None, How.LEVEL, (), True)),
        # Never started. One waited: never the loser.
        (CAME, WAITED, None, Decision(2, How.NO_SHOW, (1,), True)),  # looked in and left
        (WAITED, NOBODY, None, Decision(1, How.NO_SHOW, (2,), False)),
        (NOBODY, WAITED, None, Decision(2, How.NO_SHOW, (1,), False)),
        (WAITED, WAITED, None, Decision(None, How.MISSED, (), True)),  # they missed each other
        # Neither waited: one who came against one who did not.
        (CAME, NOBODY, None, Decision(1, How.NO_SHOW, (2,), False)),
        (NOBODY, CAME, None, Decision(2, How.NO_SHOW, (1,), False)),
        (ALMOST, CAME, None, Decision(FB, How.FALLBACK, (), True)),  # not quite waiting
        # Both came or neither, and neither waited: the caller's fallback, flagged.
        (CAME, CAME, None, Decision(FB, How.FALLBACK, (), True)),
        (NOBODY, NOBODY, None, Decision(FB, How.FALLBACK, (1, 2), True)),
        # Time alone without having come (at the agreed time) is not waiting.
        (Attendance(False, ALONE_LONG), CAME, None, Decision(2, How.NO_SHOW, (1,), False)),
    ],
)
def test_a_match_not_played_out(
    first: Attendance, second: Attendance, started: Standing | None, expected: Decision
) -> None:
    assert fixtures.unplayed(1, 2, (first, second), started, FB) == expected


# --- the invariants ------------------------------------------------------------------------------
attendances = st.builds(Attendance, st.booleans(), st.timedeltas(timedelta(0), timedelta(hours=2)))
scores = st.tuples(st.integers(0, 9), st.integers(0, 9))
standings = st.none() | st.builds(
    Standing, scores, st.tuples(st.integers(0, 147), st.integers(0, 147))
)
fallbacks = st.sampled_from([1, 2, None])


@given(attendances, attendances, fallbacks)
def test_the_one_who_waited_is_never_the_loser(
    first: Attendance, second: Attendance, fallback: int | None
) -> None:
    decided = fixtures.unplayed(1, 2, (first, second), None, fallback)
    if first.waited:
        assert decided.winner != 2
    if second.waited:
        assert decided.winner != 1


@given(attendances, attendances, fallbacks)
def test_one_who_came_never_loses_to_one_who_did_not(
    first: Attendance, second: Attendance, fallback: int | None
) -> None:
    decided = fixtures.unplayed(1, 2, (first, second), None, fallback)
    if first.came and not second.came:
        assert decided.winner == 1
    if second.came and not first.came:
        assert decided.winner == 2


@given(attendances, attendances, fallbacks)
def test_the_fallback_only_when_both_or_neither_came_and_neither_waited(
    first: Attendance, second: Attendance, fallback: int | None
) -> None:
    decided = fixtures.unplayed(1, 2, (first, second), None, fallback)
    if decided.how is How.FALLBACK:
        assert first.came == second.came and not first.waited and not second.waited
        assert decided.winner == fallback and decided.flagged


@given(attendances, attendances, standings.filter(lambda s: s is not None), fallbacks)
def test_a_started_match_goes_by_its_state_and_never_to_the_one_behind(
    first: Attendance, second: Attendance, started: Standing, fallback: int | None
) -> None:
    decided = fixtures.unplayed(1, 2, (first, second), started, fallback)
    # Who was at the table, and the caller's rule, count for nothing.
    assert decided == fixtures.unplayed(1, 2, (NOBODY, NOBODY), started, None)
    ahead = started.ahead()
    behind = None if ahead is None else (2 if ahead == 0 else 1)
    assert decided.flagged
    if behind is None:
        assert (decided.winner, decided.how) == (None, How.LEVEL)  # level: nobody moves
    else:
        assert decided.winner not in (behind, None)
    if started.frames[0] != started.frames[1]:  # frames first, whatever the frame's points
        assert decided.winner == (1 if started.frames[0] > started.frames[1] else 2)


@given(attendances, attendances, standings, fallbacks)
def test_the_decision_does_not_depend_on_who_is_first(
    first: Attendance, second: Attendance, started: Standing | None, fallback: int | None
) -> None:
    decided = fixtures.unplayed(1, 2, (first, second), started, fallback)
    swapped_state = None
    if started is not None:
        (a, b), (p, q) = started.frames, started.points
        swapped_state = Standing((b, a), (q, p))
    swapped = fixtures.unplayed(2, 1, (second, first), swapped_state, fallback)
    assert (swapped.winner, swapped.how, set(swapped.absent), swapped.flagged) == (
        decided.winner, decided.how, set(decided.absent), decided.flagged,
    )  # fmt: skip
    assert decided.winner in (1, 2, None)
    assert not (decided.winner is None and decided.how is How.NO_SHOW)


def test_the_fixture_names_who_did_not_come() -> None:
    """In the fixture's words (the first player, the second); nobody for a started match."""
    came, stayed = Attendance(True), Attendance(True, ALONE_LONG)
    cases = [
        ((NOBODY, NOBODY), None, fixtures.Absent.BOTH),
        ((came, came), None, fixtures.Absent.NEITHER),
        ((came, stayed), None, fixtures.Absent.FIRST),
        ((stayed, NOBODY), None, fixtures.Absent.SECOND),
        ((NOBODY, NOBODY), Standing((0, 1), (0, 0)), None),
    ]
    for attendance, started, gone in cases:
        decided = fixtures.unplayed(1, 2, attendance, started, None)
        assert fixtures.absent(decided, 1, 2) is gone, (attendance, started)
