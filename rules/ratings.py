"""Members' ratings: the Glicko-2 system, as Mark Glickman defines it in "Example of the
Glicko-2 system" (Boston University, 2013; http://www.glicko.net/glicko/glicko2.pdf). The
numbered steps below are the paper's.

A rating is (r, RD, σ): the rating, its deviation (how unsure it is: 350 for a newcomer, lower
with every game) and the volatility (how erratic the player's results are). Each rated match is
a rating period of its own, as on online clubs where games are rated one at a time: both
players are updated from the ratings they had before it (`rate_match`). The time between
matches does not widen the deviation (the paper's step 6 for a period without games is
`idle`, unused by the club for now).

Not every rated result changes the ratings (`rated_effect`): a match in which either player
never played a stroke (conceded, claimed or defaulted before it), or in which too few strokes
were played in all, is no evidence of anyone's play, and a pair of members who meet again and
again within days could farm each other's ratings. And what a result against a provisional
opponent (a newcomer, or a fresh account made to lose) can give is limited (`rate_result`):
such gains are budgeted per window, so that puppets cannot pump a rating (docs/ratings.md).

Pure and deterministic: voiding a result is rating every remaining match again, in order,
from newcomers' ratings (`ratings/service.py`), and gives the same numbers every time.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

SCALE = 173.7178  # Glicko's scale: step 2 turns a rating into μ = (r − 1500) / SCALE
BASE = 1500.0
NEW_RD = 350.0
NEW_VOLATILITY = 0.06
TAU = 0.5  # the system constant τ, which limits how fast the volatility moves (0.3 to 1.2)
EPSILON = 0.000001  # step 5's convergence tolerance


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = BASE
    rd: float = NEW_RD
    volatility: float = NEW_VOLATILITY


NEW = Rating()


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a rating period: the opponent's rating before it and the score (1 a win,
    0 a loss, 0.5 a draw, which snooker does not have)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these games (steps 2 to 8)."""
    if not games:
        return idle(player)
    mu, phi = (player.rating - BASE) / SCALE, player.rd / SCALE  # step 2
    opponents = [
        ((g.opponent.rating - BASE) / SCALE, g.opponent.rd / SCALE, g.score) for g in games
    ]
    expected = [(_g(phi_j), _e(mu, mu_j, phi_j), s) for mu_j, phi_j, s in opponents]
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in expected)  # step 3
    improvement = sum(g * (s - e) for g, e, s in expected)
    delta = v * improvement  # step 4
    sigma = _volatility(player.volatility, phi, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(SCALE * mu_new + BASE, SCALE * phi_new, sigma)  # step 8


def idle(player: Rating) -> Rating:
    """A rating period without games: only the deviation grows (step 6), never past a
    newcomer's."""
    phi = player.rd / SCALE
    rd = SCALE * math.sqrt(phi * phi + player.volatility * player.volatility)
    return Rating(player.rating, min(rd, NEW_RD), player.volatility)


def rate_match(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players after a match between them (score_a: 1 if A won, 0 if B won), each from
    the other's rating before it."""
    return update(a, [Game(b, score_a)]), update(b, [Game(a, 1.0 - score_a)])


class Effect(StrEnum):
    """What a rated match's result does to the ratings (the stored value: "" when it counts)."""

    RATED = ""  # both players' ratings change
    NO_PLAY = "no_play"  # either player never played a stroke: unrated
    LITTLE_PLAY = "little_play"  # fewer strokes in all than the minimum: unrated
    PAIR_CAP = "pair_cap"  # the pair's rated results in the window are used up: unrated


PAIR_CAP = 3  # rated results between the same two members that change ratings ...
PAIR_WINDOW_DAYS = 7  # ... in any this many days (ladder settings: RATED_PAIR_*)
MIN_STROKES = 20  # strokes in all (both players') for a result to change ratings
PROVISIONAL_RD = 110.0  # a rating whose deviation is above this is provisional
PROVISIONAL_GAIN = 75.0  # rating gained from provisional opponents in any window, at most


def rated_effect(
    strokes_a: int, strokes_b: int, recent_pair_results: int, cap: int,
    min_strokes: int = MIN_STROKES,
) -> Effect:  # fmt: skip
    """Whether a rated match's result changes the ratings: only if both players played at
    least one stroke and `min_strokes` were played in all (else it is no evidence of play,
    like a game aborted before both sides moved: a concession after a handful of strokes is
    the puppet's way, while a real frame, even one won in a single visit, takes a score of
    strokes), and only if fewer than `cap` results between the same two members changed the
    ratings in the window before it (`recent_pair_results`)."""
    if strokes_a < 1 or strokes_b < 1:
        return Effect.NO_PLAY
    if strokes_a + strokes_b < min_strokes:
        return Effect.LITTLE_PLAY
    if recent_pair_results >= cap:
        return Effect.PAIR_CAP
    return Effect.RATED


def provisional(player: Rating) -> bool:
    """A rating the club knows too little about to trust (a newcomer's, or any account that
    has played a few rated matches): its deviation is above `PROVISIONAL_RD` (lichess's
    line), which takes some ten rated matches to come under."""
    return player.rd > PROVISIONAL_RD


def room(gains: Iterable[tuple[datetime, float]], now: datetime, window: timedelta,
         budget: float = PROVISIONAL_GAIN) -> float:  # fmt: skip
    """How much more rating a player may gain from provisional opponents at `now`: the budget,
    less what they gained from such results (time, points) in the window before it."""
    used = sum(points for at, points in gains if at > now - window and points > 0)
    return max(0.0, budget - used)


def rate_result(
    a: Rating, b: Rating, score_a: float, room_a: float, room_b: float
) -> tuple[Rating, Rating]:
    """Both players after a rated result (the one rule every rated result goes through):
    Glicko-2 (`rate_match`), except that a player's gain against a provisional opponent is at
    most their `room` (`room`). A provisional opponent's loss is no evidence of strength: ten
    fresh accounts that each lose once would take a newcomer from 1500 to about 2000. The
    deviation and volatility move as Glicko says (the result was played), and a loss is
    never limited (a puppet's loss is what the attacker wants, not what it gives)."""
    new_a, new_b = rate_match(a, b, score_a)
    return _within(a, new_a, b, room_a), _within(b, new_b, a, room_b)


def _within(before: Rating, after: Rating, opponent: Rating, allowed: float) -> Rating:
    if not provisional(opponent) or after.rating - before.rating <= allowed:
        return after
    return Rating(before.rating + max(0.0, allowed), after.rd, after.volatility)
