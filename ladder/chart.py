"""A member's rating history as a small line chart, drawn as SVG by a template
(templates: ladder/_rating_chart.html): this module only places the points.

SVG in the template rather than a charting library: a line of at most `KEPT` points needs no
script (the pages run under `script-src 'self'`, and a chart script would be the profile's only
one), it is drawn before any script could run, and it is tested as text. Matches are spaced
evenly (one step per rated match, as the ratings move), the rating runs up the side between
the lowest and highest it reached, with at least `MIN_SPAN` points of room so that a small
change does not look like a cliff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH, HEIGHT = 320, 120  # the viewBox
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 8, 8  # room for the rating labels on the left
KEPT = 50  # the latest rated matches drawn
MIN_SPAN = 50.0


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float
    rating: float
    at: datetime | None  # None: the rating before the first match drawn


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    points: str  # for <polyline points="...">
    dots: tuple[Point, ...]
    high: float  # the rating at the top edge
    low: float  # ... and at the bottom
    high_y: float
    low_y: float

    @property
    def last(self) -> Point:
        return self.dots[-1]


def chart(start: float, changes: Sequence[tuple[datetime, float]]) -> Chart | None:
    """The chart of a rating that was `start` before `changes` ((when, rating after) in order,
    the latest `KEPT` drawn); None without any."""
    if not changes:
        return None
    if len(changes) > KEPT:
        start, changes = changes[-KEPT - 1][1], changes[-KEPT:]
    values: list[tuple[datetime | None, float]] = [(None, start), *changes]
    lowest, highest = min(v for _, v in values), max(v for _, v in values)
    middle = (lowest + highest) / 2
    span = max(highest - lowest, MIN_SPAN)
    low, high = middle - span / 2, middle + span / 2
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / (len(values) - 1)

    def y_of(value: float) -> float:
        return round(TOP + (high - value) / (high - low) * inner_h, 1)

    dots = tuple(
        Point(round(LEFT + i * step, 1), y_of(value), value, at)
        for i, (at, value) in enumerate(values)
    )
    return Chart(
        WIDTH, HEIGHT, " ".join(f"{d.x},{d.y}" for d in dots), dots,
        high, low, y_of(high), y_of(low),
    )  # fmt: skip
