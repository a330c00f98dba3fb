"""Glicko-2 (rules/ratings.py) against Glickman's worked example ("Example of the Glicko-2
system", 2013): a player rated 1500, RD 200, σ 0.06 plays three opponents in one period."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from rules import ratings
from rules.ratings import NEW, Game, Rating, rate_match, update

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
SCORES = [1.0, 0.0, 0.0]


def test_glickmans_example() -> None:
    after = update(PLAYER, [Game(o, s) for o, s in zip(OPPONENTS, SCORES, strict=True)])
    # The paper: r' = 1464.06, RD' = 151.52, σ' = 0.05999 (it rounds as it goes: computed
    # exactly, r' is 1464.0507).
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_intermediate_values() -> None:
    mu, phi = 0.0, 200 / ratings.SCALE
    assert phi == pytest.approx(1.1513, abs=0.0001)  # step 2
    opponents = [((o.rating - 1500) / ratings.SCALE, o.rd / ratings.SCALE) for o in OPPONENTS]
    assert [round(mu_j, 4) for mu_j, _ in opponents] == [-0.5756, 0.2878, 1.1513]
    g = [ratings._g(phi_j) for _, phi_j in opponents]
    e = [ratings._e(mu, mu_j, phi_j) for mu_j, phi_j in opponents]
    assert [round(x, 4) for x in g] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in e] == [0.639, 0.432, 0.303]
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g, e, strict=True))
    assert v == pytest.approx(1.7785, abs=0.001)  # step 3 (the paper rounds g and E first)
    delta = v * sum(gj * (s - ej) for gj, ej, s in zip(g, e, SCORES, strict=True))
    assert delta == pytest.approx(-0.4834, abs=0.001)  # step 4
    sigma = ratings._volatility(0.06, phi, v, delta, ratings.TAU)
    assert sigma == pytest.approx(0.05999, abs=0.00001)  # step 5


def test_two_newcomers() -> None:
    """Two 1500s, RD 350: the winner gains what the loser loses, and both grow surer."""
    winner, loser = rate_match(NEW, NEW, 1.0)
    assert winner.rating == pytest.approx(1662.31, abs=0.01)
    assert loser.rating == pytest.approx(1337.69, abs=0.01)
    assert winner.rd == loser.rd == pytest.approx(290.32, abs=0.01)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)


def test_an_upset_moves_more_than_the_expected() -> None:
    strong, weak = Rating(1800, 60), Rating(1400, 60)
    expected = rate_match(strong, weak, 1.0)
    upset = rate_match(strong, weak, 0.0)
    assert 0 < expected[0].rating - 1800 < 1800 - upset[0].rating
    assert upset[1].rating - 1400 > 15 > expected[1].rating - 1400 + 15


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(PLAYER, [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(ratings.SCALE * math.sqrt((200 / ratings.SCALE) ** 2 + 0.0036))
    assert update(NEW, []).rd == ratings.NEW_RD  # never past a newcomer's


def test_a_result_changes_the_ratings_only_after_both_played_a_stroke() -> None:
    assert ratings.rated_effect(0, 0, 0, 3) == ratings.Effect.NO_PLAY
    assert ratings.rated_effect(5, 0, 0, 3) == ratings.Effect.NO_PLAY
    assert ratings.rated_effect(0, 5, 0, 3) == ratings.Effect.NO_PLAY
    assert ratings.rated_effect(1, 19, 0, 3) == ratings.Effect.RATED


def test_at_most_cap_results_of_one_pair_in_the_window_change_the_ratings() -> None:
    assert [ratings.rated_effect(10, 10, n, 3) for n in range(5)] == [
        ratings.Effect.RATED, ratings.Effect.RATED, ratings.Effect.RATED,
        ratings.Effect.PAIR_CAP, ratings.Effect.PAIR_CAP,
    ]  # fmt: skip
    # No play is what it says, whatever the pair's count.
    assert ratings.rated_effect(0, 9, 7, 3) == ratings.Effect.NO_PLAY


def test_a_result_needs_a_score_of_strokes_in_all() -> None:
    """Five strokes each, then a concession (the puppet's way), is too little play; a frame
    won in one visit against a player who struck twice is not."""
    assert ratings.rated_effect(5, 5, 0, 3) == ratings.Effect.LITTLE_PLAY
    assert ratings.rated_effect(9, 10, 0, 3) == ratings.Effect.LITTLE_PLAY
    assert ratings.rated_effect(18, 2, 0, 3) == ratings.Effect.RATED
    assert ratings.rated_effect(5, 5, 0, 3, min_strokes=10) == ratings.Effect.RATED
    # Too little play is said before the pair's cap (it would not have counted anyway).
    assert ratings.rated_effect(5, 5, 7, 3) == ratings.Effect.LITTLE_PLAY


def test_a_provisional_rating_is_one_with_a_wide_deviation() -> None:
    assert ratings.provisional(NEW)
    assert not ratings.provisional(ratings.Rating(1500, ratings.PROVISIONAL_RD))
    assert ratings.provisional(ratings.Rating(1500, ratings.PROVISIONAL_RD + 0.1))


def test_the_room_is_the_budget_less_the_gains_in_the_window() -> None:
    now = datetime(2026, 12, 6, tzinfo=UTC)
    week = timedelta(days=7)
    gains = [(now - timedelta(days=8), 60.0), (now - timedelta(days=2), 30.0), (now, 10.0)]
    assert ratings.room(gains, now, week, 75.0) == 35.0  # the eight-day-old gain is out
    assert ratings.room([(now, 100.0)], now, week, 75.0) == 0.0  # never below nothing
    assert ratings.room([(now, -40.0)], now, week, 75.0) == 75.0  # a loss gives no room


def test_a_gain_against_a_provisional_opponent_is_within_the_room() -> None:
    winner, loser = ratings.rate_result(NEW, NEW, 1.0, 75.0, 75.0)
    glicko_winner, glicko_loser = ratings.rate_match(NEW, NEW, 1.0)
    assert winner == ratings.Rating(1575.0, glicko_winner.rd, glicko_winner.volatility)
    assert loser == glicko_loser  # a loss is never limited
    assert ratings.rate_result(NEW, NEW, 1.0, 0.0, 0.0)[0].rating == 1500.0
    # Room to spare: Glicko's gain as it is.
    assert ratings.rate_result(NEW, NEW, 1.0, 500.0, 0.0)[0] == glicko_winner
    # An established opponent's result is Glicko's whatever the room.
    established = ratings.Rating(1700.0, 60.0)
    assert ratings.rate_result(NEW, established, 1.0, 0.0, 0.0) == ratings.rate_match(
        NEW, established, 1.0
    )
    # The established player beating a newcomer: within the room too (B's side here).
    _, b = ratings.rate_result(NEW, established, 0.0, 0.0, 1.0)
    assert 1700.0 < b.rating <= 1701.0


def test_ten_provisional_puppets_give_at_most_the_budget() -> None:
    """The pure fold of the attack: a newcomer beats ten newcomers in a day."""
    now = datetime(2026, 12, 6, tzinfo=UTC)
    week = timedelta(days=7)
    player, gains = NEW, []
    for n in range(10):
        at = now + timedelta(hours=n)
        new, _ = ratings.rate_result(player, NEW, 1.0, ratings.room(gains, at, week), 0.0)
        gains.append((at, new.rating - player.rating))
        player = new
    assert player.rating == 1500.0 + ratings.PROVISIONAL_GAIN
    assert player.rd < 200  # the results were played: the deviation narrows as Glicko says
