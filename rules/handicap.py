"""The handicap from play: the start that makes two rated members an even frame (RULES.md §10).

The model and its constants are written out in docs/handicaps.md; they are defined here and
nowhere else. In three steps, from the two members' ratings (`rules.ratings.Rating`):

1. **Who is stronger, and by how much.** Glicko-2's expected score of the stronger member in a
   rated match against the weaker, counting both ratings' deviations (a newcomer's uncertain
   rating gives a smaller start): E = 1 / (1 + exp(−g(φ) · (μ_s − μ_w))), φ = √(φ_s² + φ_w²).
2. **From matches to frames.** Ratings are earned in whole matches, most of them best of
   `RATED_BEST_OF` (the ladder's default format); the chance p of winning one frame is the one
   with which a best of `RATED_BEST_OF` is won with chance E (frames taken as independent).
3. **From frames to points.** The stronger member's margin in a frame (their points minus the
   other's, no start) is taken as normal with a standard deviation of `MARGIN_SD` points and a
   mean m such that the stronger wins a frame with chance p: m = MARGIN_SD · Φ⁻¹(p). A start of
   m points for the weaker evens the frame. It is rounded to whole points and capped at the
   club's cap (SNOOKER_HANDICAP_CAP, passed in).

`MARGIN_SD` is the margin's spread, measured by the calibration benchmark (`make
bench-handicap`: the computer's levels against each other at several starts; docs/handicaps.md,
"Calibration": one spread of 33 points, 95 % 30–37, fitted to both pairings' 1,563 frames).
"""

from __future__ import annotations

import math
from statistics import NormalDist

from rules.ratings import SCALE, Rating
from rules.state import NO_START, start_refusal

# The standard deviation, in points, of the margin by which one member beats another in a
# frame (measured: see the module's docstring and docs/handicaps.md, "Calibration").
MARGIN_SD = 33.0
# The deviation an organiser's override is read with (club/handicaps.py): their judgement of a
# member's strength is taken as settled, like a regular player's rating (docs/ratings.md).
OVERRIDE_RD = 50.0
# An override's bounds: within Glicko's usual range, so a slip of the keyboard (16000 for 1600)
# is refused rather than giving every opponent the cap.
OVERRIDE_RANGE = (500.0, 2900.0)
# The format most rated results are played in (the ladder's default, ladder/models.py).
RATED_BEST_OF = 3

_STANDARD = NormalDist()


def expected_score(stronger: Rating, weaker: Rating) -> float:
    """Step 1: Glicko's expected score of `stronger` in a rated match against `weaker`,
    counting both deviations."""
    mu = (stronger.rating - weaker.rating) / SCALE
    phi = math.hypot(stronger.rd, weaker.rd) / SCALE
    g = 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))
    return 1.0 / (1.0 + math.exp(-g * mu))


def match_chance(frame: float, best_of: int) -> float:
    """The chance of winning a best of `best_of` when each frame is won with chance `frame`."""
    need = best_of // 2 + 1
    lose = 1.0 - frame
    return sum(math.comb(need - 1 + k, k) * frame**need * lose**k for k in range(need))


def frame_chance(match: float, best_of: int = RATED_BEST_OF) -> float:
    """Step 2: the frame chance that wins a best of `best_of` with chance `match` (bisection:
    `match_chance` rises with the frame chance)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if match_chance(middle, best_of) < match:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def points_edge(frame: float) -> float:
    """Step 3: the mean margin, in points, of the member who wins a frame with chance
    `frame`."""
    frame = min(max(frame, 1e-9), 1 - 1e-9)
    return MARGIN_SD * _STANDARD.inv_cdf(frame)


def start_for(a: Rating, b: Rating, cap: int) -> tuple[int, int]:
    """The handicap start (A, B) for a match between `a` and `b`: the weaker member's points,
    the stronger's none; none at all for equal ratings. At most `cap`."""
    if cap < 0:
        raise ValueError(f"a cap of {cap} points")
    if a.rating == b.rating:
        return NO_START
    stronger, weaker = (a, b) if a.rating > b.rating else (b, a)
    edge = points_edge(frame_chance(expected_score(stronger, weaker)))
    points = min(cap, max(0, round(edge)))
    start = (0, points) if stronger is a else (points, 0)
    assert start_refusal(start) is None
    return start
