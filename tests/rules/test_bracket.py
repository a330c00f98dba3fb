"""A knockout's state (rules/bracket.py): single and double elimination, byes, walkovers and
withdrawals, the third place and the champion."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import bracket, seeding
from rules.bracket import GRAND_FINAL, RESET, THIRD_PLACE, BestOf, How, Key, Side, Stage, State
from rules.errors import IllegalRequest

W = Side.WINNERS
L = Side.LOSERS


def six() -> bracket.Bracket:
    """Seeds 1 to 6 (members 1 to 6): 1 and 2 have byes; 4 v 5 and 3 v 6 open."""
    return bracket.single(seeding.place([1, 2, 3, 4, 5, 6]), third_place=True)


def players(b: bracket.Bracket) -> dict[str, tuple[int | None, int | None]]:
    return {str(k): m.players for k, m in bracket.matches(b).items()}


def test_six_entrants_two_byes_then_quarter_and_semi_finals() -> None:
    b = six()
    every = bracket.matches(b)
    assert every[Key(W, 1, 0)].decision == bracket.Decision(1, How.BYE)
    assert every[Key(W, 1, 2)].decision == bracket.Decision(2, How.BYE)
    assert [m.players for m in bracket.ready(b)] == [(4, 5), (3, 6)]
    assert every[Key(W, 2, 0)].players == (1, None)
    assert every[Key(W, 2, 0)].state is State.WAITING
    b = bracket.advance(b, Key(W, 1, 1), 5)
    b = bracket.advance(b, Key(W, 1, 3), 3, How.WALKOVER)  # 6 did not come
    assert [m.players for m in bracket.ready(b)] == [(1, 5), (2, 3)]
    b = bracket.advance(b, Key(W, 2, 0), 1)
    b = bracket.advance(b, Key(W, 2, 1), 3)
    assert [m.key for m in bracket.ready(b)] == [Key(W, 3, 0), THIRD_PLACE]
    assert bracket.match(b, THIRD_PLACE).players == (5, 2)
    assert bracket.champion(b) is None and not bracket.finished(b)
    b = bracket.advance(b, Key(W, 3, 0), 3)
    b = bracket.advance(b, THIRD_PLACE, 2, How.RECORDED)
    assert bracket.champion(b) == 3 and bracket.finished(b)
    assert bracket.placings(b) == (3, 1, 2)


def test_a_result_only_for_a_match_ready_and_one_of_its_players() -> None:
    b = six()
    for key, winner, code in [
        (Key(W, 1, 0), 1, "match_decided"),  # a bye
        (Key(W, 2, 0), 1, "match_waiting"),
        (Key(W, 1, 1), 1, "not_in_match"),
        (Key(W, 9, 0), 1, "no_such_match"),
    ]:
        with pytest.raises(IllegalRequest, match=code):
            bracket.advance(b, key, winner)
    with pytest.raises(IllegalRequest, match="bad_decision"):
        bracket.advance(b, Key(W, 1, 1), 4, How.BYE)
    b = bracket.advance(b, Key(W, 1, 1), 4)
    with pytest.raises(IllegalRequest, match="match_decided"):
        bracket.advance(b, Key(W, 1, 1), 5)


def test_a_withdrawal_walks_over_every_match_still_to_come() -> None:
    b = bracket.advance(six(), Key(W, 1, 1), 5)
    b = bracket.withdraw(b, 5)  # 5 beat 4, then withdrew
    every = bracket.matches(b)
    assert every[Key(W, 1, 1)].decision == bracket.Decision(5, How.PLAYED)  # it stands
    assert every[Key(W, 2, 0)].decision == bracket.Decision(1, How.WALKOVER)
    with pytest.raises(IllegalRequest, match="match_waiting"):
        bracket.both_out(b, Key(W, 3, 0))
    b = bracket.both_out(b, Key(W, 1, 3))  # neither came to the other quarter-final
    every = bracket.matches(b)
    assert every[Key(W, 1, 3)].decision == bracket.Decision(None, How.BOTH_OUT)
    assert every[Key(W, 2, 1)].decision == bracket.Decision(2, How.BYE)
    # 1 v 2 in the final; the third place: 5 withdrew and the other semi-final had no loser
    assert every[THIRD_PLACE].decision == bracket.Decision(None, How.EMPTY)
    b = bracket.advance(b, Key(W, 3, 0), 2)
    assert bracket.placings(b) == (2, 1, None)
    with pytest.raises(IllegalRequest, match="withdrawn_already"):
        bracket.withdraw(b, 5)
    with pytest.raises(IllegalRequest, match="not_entered"):
        bracket.withdraw(b, 99)


def test_a_walkover_to_the_higher_seed() -> None:
    b = bracket.single(seeding.place([7, 8, 9, 4]), seeds=[7, 8, 9, 4])
    assert bracket.higher_seed(b, Key(W, 1, 1)) == 8  # 8 (seed 2) v 9 (seed 3)
    with pytest.raises(IllegalRequest, match="match_waiting"):
        bracket.higher_seed(b, Key(W, 2, 0))
    with pytest.raises(IllegalRequest, match="seeds_not_entrants"):
        bracket.single(seeding.place([7, 8, 9, 4]), seeds=[7, 8, 9])


def test_a_bracket_needs_two_entrants_in_a_power_of_two() -> None:
    with pytest.raises(IllegalRequest, match="bad_bracket_size"):
        bracket.single((1, 2, 3))
    with pytest.raises(IllegalRequest, match="too_few_entrants"):
        bracket.single((1, None))
    with pytest.raises(IllegalRequest, match="duplicate_entrant"):
        bracket.double((1, 1))


def test_the_rounds_are_named_and_their_frames_set() -> None:
    b = bracket.single(seeding.place(list(range(1, 17))), third_place=True)
    plan = BestOf(5, semi_finals=7, final=9)
    named = [
        (bracket.stage(b, k), bracket.best_of(b, plan, k))
        for k in (Key(W, 1, 0), Key(W, 2, 0), Key(W, 3, 0), THIRD_PLACE, Key(W, 4, 0))
    ]
    assert named == [
        (Stage.ROUND, 5),
        (Stage.QUARTER_FINAL, 5),
        (Stage.SEMI_FINAL, 7),
        (Stage.THIRD_PLACE, 7),
        (Stage.FINAL, 9),
    ]
    d = bracket.double(seeding.place(list(range(1, 9))))
    assert [bracket.stage(d, k) for k in (Key(W, 3, 0), Key(L, 3, 0), Key(L, 4, 0))] == [
        Stage.WINNERS_FINAL,
        Stage.LOSERS_ROUND,
        Stage.LOSERS_FINAL,
    ]
    assert bracket.best_of(d, plan, RESET) == 9
    assert bracket.stage(d, GRAND_FINAL) is Stage.GRAND_FINAL
    with pytest.raises(IllegalRequest, match="bad_best_of"):
        BestOf(4)


def test_double_elimination_of_four_with_the_reset() -> None:
    b = bracket.double((1, 4, 2, 3))
    b = bracket.advance(b, Key(W, 1, 0), 1)
    b = bracket.advance(b, Key(W, 1, 1), 2)
    assert bracket.match(b, Key(L, 1, 0)).players == (4, 3)
    b = bracket.advance(b, Key(W, 2, 0), 1)
    b = bracket.advance(b, Key(L, 1, 0), 3)
    assert bracket.match(b, Key(L, 2, 0)).players == (3, 2)
    b = bracket.advance(b, Key(L, 2, 0), 3)
    assert bracket.match(b, GRAND_FINAL).players == (1, 3)
    b = bracket.advance(b, GRAND_FINAL, 3)  # the losers' champion wins: both have lost once
    assert bracket.match(b, RESET).state is State.READY and bracket.champion(b) is None
    b = bracket.advance(b, RESET, 3)
    assert bracket.champion(b) == 3 and bracket.placings(b) == (3, 1, 2)


def test_no_reset_when_the_winners_champion_wins_the_grand_final() -> None:
    b = bracket.double((1, 2))
    assert bracket.match(b, GRAND_FINAL).state is State.WAITING
    b = bracket.advance(b, Key(W, 1, 0), 1)
    assert bracket.match(b, GRAND_FINAL).players == (1, 2)  # two entrants: a rematch
    b = bracket.advance(b, GRAND_FINAL, 1)
    assert bracket.match(b, RESET).decision == bracket.Decision(1, How.NOT_NEEDED)
    assert bracket.champion(b) == 1 and bracket.finished(b)


# --- properties ---------------------------------------------------------------------------------
def play_out(b: bracket.Bracket, data: st.DataObject, withdrawals: bool = False) -> bracket.Bracket:
    """Decide ready matches in an order and with winners Hypothesis draws (and, if asked,
    withdraw someone now and then) until the bracket is finished."""
    for _ in range(4 * len(b.specs) + 4):
        every = bracket.matches(b).values()
        ready = [m for m in every if m.state is State.READY]
        if not ready:
            assert all(m.state is State.DECIDED for m in every)
            return b
        left = [m for m in b.seeds if m not in b.withdrawn]
        if withdrawals and left and data.draw(st.integers(0, 9)) == 0:
            b = bracket.withdraw(b, data.draw(st.sampled_from(left)))
            continue
        if withdrawals and data.draw(st.integers(0, 19)) == 0:
            b = bracket.both_out(b, data.draw(st.sampled_from(ready)).key)
            continue
        m = data.draw(st.sampled_from(ready))
        winner = data.draw(st.sampled_from(m.players))
        assert winner is not None
        how = data.draw(st.sampled_from([How.PLAYED, How.PLAYED, How.WALKOVER, How.RECORDED]))
        b = bracket.advance(b, m.key, winner, how)
    raise AssertionError("the bracket did not finish")


def meetings(b: bracket.Bracket) -> list[bracket.Match]:
    return [
        m for m in bracket.matches(b).values() if m.decision and m.decision.how in bracket.MEETINGS
    ]


# Playing a bracket out is a few hundred draws; the machine is shared with the whole suite.
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
entries = st.integers(2, 33).map(lambda n: list(range(1, n + 1)))


@SETTINGS
@given(entries, st.integers(), st.data())
def test_a_knockout_of_n_has_n_minus_1_matches_and_one_champion(
    entrants: list[int], seed: int, data: st.DataObject
) -> None:
    d = seeding.draw(entrants, seed)
    b = play_out(bracket.single(d.slots, d.seeds), data)
    played = meetings(b)
    assert len(played) == len(entrants) - 1
    champion = bracket.champion(b)
    assert champion in entrants
    losers = Counter(m.loser for m in played)
    assert set(losers) == set(entrants) - {champion} and set(losers.values()) == {1}
    byes = [m for m in bracket.matches(b).values() if m.decision and m.decision.how is How.BYE]
    assert all(m.key.round == 1 for m in byes)  # byes only in the first round
    assert len(byes) == seeding.byes(len(entrants))


@SETTINGS
@given(entries, st.integers(), st.data())
def test_seeds_1_and_2_can_meet_only_in_the_final(
    entrants: list[int], seed: int, data: st.DataObject
) -> None:
    d = seeding.draw(entrants, seed)
    b = play_out(bracket.single(d.slots, d.seeds, third_place=True), data)
    top = {d.seeds[0], d.seeds[1]}
    for m in bracket.matches(b).values():
        if set(m.players) == top:
            assert m.key in (bracket.final_key(b), THIRD_PLACE)
    # In double elimination: only in the winners' final, in the losers' bracket or the final.
    b = play_out(bracket.double(d.slots, d.seeds), data)
    for m in bracket.matches(b).values():
        if set(m.players) == top and m.key.side is W:
            assert m.key.round == b.rounds


@SETTINGS
@given(entries, st.integers(), st.booleans(), st.data())
def test_a_double_elimination_has_2n_minus_2_or_1_matches(
    entrants: list[int], seed: int, reset: bool, data: st.DataObject
) -> None:
    d = seeding.draw(entrants, seed)
    b = play_out(bracket.double(d.slots, d.seeds, reset), data)
    played = meetings(b)
    reset_played = any(m.key == RESET for m in played)
    assert len(played) == 2 * len(entrants) - 2 + reset_played
    champion = bracket.champion(b)
    assert champion in entrants
    losses = Counter(m.loser for m in played)
    runner_up = bracket.placings(b)[1]
    assert losses[champion] <= 1
    for m in entrants:  # out at the second loss; without the reset, the final's loser at one
        if m != champion:
            assert losses[m] == 2 or (m == runner_up and not reset and losses[m] == 1)
    for m in bracket.matches(b).values():  # nobody plays on after a second loss
        assert m.state is State.DECIDED


@SETTINGS
@given(st.integers(2, 24), st.integers(), st.booleans(), st.data())
def test_withdrawals_still_leave_at_most_one_champion(
    n: int, seed: int, double: bool, data: st.DataObject
) -> None:
    d = seeding.draw(list(range(1, n + 1)), seed)
    make = bracket.double if double else bracket.single
    b = play_out(make(d.slots, d.seeds), data, withdrawals=True)
    champion = bracket.champion(b)
    final = bracket.match(b, bracket.final_key(b))
    if champion is None:  # only if nobody was left to win the final
        assert final.decision is not None
        assert final.decision.how in (How.EMPTY, How.BOTH_OUT) or final.winner in b.withdrawn
    else:
        assert champion not in b.withdrawn
    losses = Counter(m.loser for m in meetings(b))
    for m in set(d.seeds) - b.withdrawn - {champion}:  # nobody is lost without losing
        assert losses[m] >= 1
    for m in bracket.matches(b).values():
        assert m.winner is None or m.winner in m.players


@given(entries, st.integers())
def test_a_replayed_draw_makes_the_same_bracket(entrants: list[int], seed: int) -> None:
    a = seeding.draw(entrants, seed)
    b = seeding.draw(list(entrants), seed)
    assert bracket.double(a.slots, a.seeds) == bracket.double(b.slots, b.seeds)
    assert bracket.matches(bracket.single(a.slots)) == bracket.matches(bracket.single(b.slots))


def test_a_key_reads_back_from_its_text() -> None:
    for key in bracket.matches(bracket.double(seeding.place(list(range(1, 12))))):
        assert bracket.Key.parse(str(key)) == key
    assert str(Key(L, 12, 3)) == "l12.3"
    for text in ("x1.0", "w1", "", "w-1.2", "w01.2", "w1.-1"):
        with pytest.raises(IllegalRequest, match="bad_key"):
            bracket.Key.parse(text)


@pytest.mark.parametrize("size", [8, 16, 32, 64])
def test_the_first_drop_into_the_losers_bracket_avoids_an_early_rematch(size: int) -> None:
    """Losers' round 2 pairs a winner of losers' round 1 (from two first-round matches) with a
    loser of the winners' round 2 from the other half of the draw, so nobody meets again
    there the one they played in the first round."""

    def first_round(key: Key, specs: dict[Key, bracket.Spec]) -> set[Key]:
        if key.side is W and key.round == 1:
            return {key}
        return {
            k
            for s in specs[key].sources
            if not isinstance(s, bracket.Seat)
            for k in first_round(s.key, specs)
        }

    b = bracket.double(seeding.place(list(range(1, size + 1))))
    specs = {s.key: s for s in b.specs}
    for spec in b.specs:
        if spec.key.side is L and spec.key.round == 2:
            up, down = spec.sources
            assert isinstance(up, bracket.WinnerOf) and isinstance(down, bracket.LoserOf)
            assert not first_round(up.key, specs) & first_round(down.key, specs)


def test_the_bracket_as_text() -> None:
    b = bracket.withdraw(bracket.advance(six(), Key(W, 1, 1), 5), 6)
    assert bracket.text(b) == "\n".join(
        [
            "w1.0 1 v - decided 1 bye",
            "w1.1 4 v 5 decided 5 played",
            "w1.2 2 v - decided 2 bye",
            "w1.3 3 v 6 decided 3 walkover",
            "w2.0 1 v 5 ready",
            "w2.1 2 v 3 ready",
            "w3.0 - v - waiting",
            "t1.0 - v - waiting",
            "withdrawn 6",
        ]
    )
    with pytest.raises(IllegalRequest, match=r"w2\.0 1 v 5 ready"):
        bracket.advance(b, Key(W, 1, 1), 4)


def test_a_result_changes_its_match_and_the_ones_it_feeds() -> None:
    before = bracket.double(seeding.place(list(range(1, 9))))
    after = bracket.advance(before, Key(W, 1, 0), 8)
    assert [(str(m.key), m.players, m.state) for m in bracket.changed(before, after)] == [
        ("w1.0", (1, 8), State.DECIDED),
        ("w2.0", (8, None), State.WAITING),
        ("l1.0", (1, None), State.WAITING),
    ]
    assert bracket.changed(after, after) == ()


def test_both_out_of_the_grand_final_leaves_no_champion() -> None:
    b = bracket.double((1, 2, 3, 4))
    for key, winner in [(Key(W, 1, 0), 1), (Key(W, 1, 1), 3), (Key(W, 2, 0), 1)]:
        b = bracket.advance(b, key, winner)
    b = bracket.advance(b, Key(L, 1, 0), 2)
    b = bracket.advance(b, Key(L, 2, 0), 2)
    b = bracket.both_out(b, GRAND_FINAL)
    assert bracket.match(b, GRAND_FINAL).decision == bracket.Decision(None, How.BOTH_OUT)
    assert bracket.match(b, RESET).decision == bracket.Decision(None, How.EMPTY)
    assert bracket.finished(b) and bracket.champion(b) is None
    assert bracket.placings(b) == (None, None, None)


@SETTINGS
@given(st.integers(2, 20), st.integers(), st.booleans(), st.booleans(), st.data())
def test_the_entrants_still_in_are_those_not_yet_out(
    n: int, seed: int, double: bool, reset: bool, data: st.DataObject
) -> None:
    """Until the bracket is finished, those still in (`playing`, whom a withdrawal can still
    change anything for) are the entrants not withdrawn with fewer losses than put them out:
    one in a knockout, two in double elimination; nobody once it is finished."""
    d = seeding.draw(list(range(1, n + 1)), seed)
    b = bracket.double(d.slots, d.seeds, reset) if double else bracket.single(d.slots, d.seeds)
    out_at = 2 if double else 1
    while not bracket.finished(b):
        losses = Counter(m.loser for m in meetings(b))
        left = {s for s in b.seeds if s not in b.withdrawn and losses[s] < out_at}
        assert bracket.playing(b) == left
        ready = bracket.ready(b)
        if data.draw(st.integers(0, 5)) == 0:
            b = bracket.withdraw(b, data.draw(st.sampled_from(sorted(left))))
            continue
        m = data.draw(st.sampled_from(ready))
        b = bracket.advance(b, m.key, data.draw(st.sampled_from([p for p in m.players if p])))
    assert bracket.playing(b) == frozenset()


def test_a_third_place_match_keeps_the_semi_finals_losers_in() -> None:
    b = six()
    for key, winner in [((1, 1), 5), ((1, 3), 3), ((2, 0), 1), ((2, 1), 3)]:
        b = bracket.advance(b, Key(W, *key), winner)
    assert bracket.playing(b) == {1, 3, 5, 2}  # the final, and the third-place match
    b = bracket.withdraw(b, 5)
    assert bracket.playing(b) == {1, 3}
    assert bracket.match(b, THIRD_PLACE).decision == bracket.Decision(2, How.WALKOVER)
