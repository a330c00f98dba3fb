"""The frame-winning chance and the accuracy figures of the coach's analysis (docs/coach.md,
"Winning chances and accuracy").

The chance that the player at the table wins the frame, from their lead and the points left
on the table (lichess's winning chances, from the score rather than an engine's evaluation):

    σ(TABLE + LEAD · lead / √(left + SPREAD))

fitted by maximum likelihood on the computer's Club level playing itself
(`benchmarks/fit_frame_chance.py`, `make fit-frame-chance`): a lead counts for more as fewer
points are left, and being at the table is worth `TABLE`. A stroke's value in expected points
(rules/opponent/analysis.py) moves the lead it is worth; the chance it loses against the Pro's
stroke gives its accuracy, by lichess's curve, and a player's frame is the mean of their
strokes' accuracies and their harmonic mean, averaged (lichess also weights by the position's
volatility; a frame of snooker is a few dozen strokes, so each counts once here).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

# The fit (benchmarks/fit_frame_chance.py --frames 200 --seed 1; docs/coach.md has its table).
TABLE: Final = 0.235
LEAD: Final = 0.535
SPREAD: Final = 4.0


def frame_chance(lead: float, left: int, at_table: bool = True) -> float:
    """The chance that a player `lead` points ahead (behind: negative) wins the frame with
    `left` points on the table, at the table or not."""
    z = (TABLE if at_table else -TABLE) + LEAD * lead / math.sqrt(max(left, 0) + SPREAD)
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def stroke_accuracy(chance_lost: float) -> float:
    """A stroke's accuracy, 0–100, from the frame-winning chance it lost (0–1), by lichess's
    curve for a move's accuracy from the winning percentage lost."""
    lost = max(0.0, chance_lost) * 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669))


def frame_accuracy(accuracies: Iterable[float]) -> float | None:
    """A player's accuracy over a frame (or a match): the mean of their strokes' and the
    harmonic mean, averaged, so one blunder weighs more than in a plain mean (None: no
    stroke)."""
    values = list(accuracies)
    if not values:
        return None
    mean = sum(values) / len(values)
    harmonic = len(values) / sum(1.0 / max(v, 1.0) for v in values)
    return (mean + harmonic) / 2


__all__ = ["LEAD", "SPREAD", "TABLE", "frame_accuracy", "frame_chance", "stroke_accuracy"]
