"""Views benchmark: `make bench-views` (or `.venv/bin/python benchmarks/bench_views.py`).

Times, per call, the referee's exact views (rules/geometry.py over rules/visibility.py) against
the sampled ones they replaced (benchmarks/sampled_views.py), on the same positions:

- snookered from a point and from hand (the free ball after a foul, the miss rule);
- clear path from a point and from hand (the three-miss rule).

Positions: the opening rack after an in-off on the break; random mid-frame layouts; hard
layouts (reds behind a wall of colours with gaps from closed to a few millimetres wider than the
cue ball); the issue's narrow strip; and the slowest position found, fourteen reds hidden from
every point of the D. It also counts how often sampling gets the answer wrong, and times the
settlement of whole strokes (`referee.strike`) next to the physics of a break. The last line is
one JSON object with the figures (docs/performance.md, "Views").
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import sampled_views as sampled
from rules import geometry, referee
from rules.physics import simulate
from rules.state import FrameState, Shot, make_balls
from rules.table import BALL_DIAMETER, D_CENTRE, D_RADIUS, SPOTS, WHITE, initial_rack
from tests.physics.shots import break_apex

Point = tuple[float, float]
Layout = dict[str, Point]
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")


def _free(p: Point, balls: Layout) -> bool:
    inside = abs(p[0]) <= 862.75 and abs(p[1]) <= 1758.25
    return inside and all(math.dist(p, q) >= BALL_DIAMETER + 0.01 for q in balls.values())


def random_layout(rng: random.Random) -> Layout:
    """Some reds anywhere, the colours on their spots or anywhere, a cue ball."""
    balls: Layout = {}
    for name in [f"red{i}" for i in range(1, rng.randint(1, 15) + 1)] + list(COLOURS):
        spot = SPOTS.get(name)
        for _ in range(100):
            if spot is not None and rng.random() < 0.5:
                p = spot
            else:
                p = (rng.uniform(-862, 862), rng.uniform(-1758, 1758))
            if _free(p, balls):
                balls[name] = p
                break
    return balls


def walled_layout(rng: random.Random) -> Layout:
    """A red or two behind a wall of colours across the line from a point of the D."""
    red = (rng.uniform(-700, 700), rng.uniform(-500, 1600))
    balls: Layout = {"red1": red}
    second = (red[0] + rng.uniform(-250, 250), red[1] + rng.uniform(-80, 250))
    if rng.random() < 0.5 and _free(second, balls):
        balls["red2"] = second
    r, a = rng.uniform(0, D_RADIUS), rng.uniform(math.pi, 2 * math.pi)
    q = (D_CENTRE[0] + r * math.cos(a), D_CENTRE[1] + r * math.sin(a))
    length = math.dist(q, red)
    ex, ey = (red[0] - q[0]) / length, (red[1] - q[1]) / length
    at = rng.uniform(0.6, 0.95) * length
    count = rng.randint(3, 6)
    across = rng.uniform(-70, 70) - count * BALL_DIAMETER / 2
    for colour in COLOURS[:count]:
        depth = rng.uniform(-20, 20)
        p = (q[0] + ex * (at + depth) - ey * across, q[1] + ey * (at + depth) + ex * across)
        if _free(p, balls):
            balls[colour] = p
        across += BALL_DIAMETER + 0.01 + rng.choice([0.0, 0.3, 1.0, 4.0, 20.0])
    return balls


def fourteen_hidden_reds() -> Layout:
    """The slowest position found: a wall of the six colours, fourteen reds behind it."""
    rng = random.Random(5)
    while True:
        balls: Layout = {}
        wall = rng.uniform(200, 900)
        x = -rng.uniform(100, 200)
        for colour in COLOURS:
            balls[colour] = (x, wall + rng.uniform(-5, 5))
            x += BALL_DIAMETER + rng.uniform(0, 8)
        for i in range(14):
            for _ in range(100):
                p = (rng.uniform(-120, 200), rng.uniform(wall + 60, wall + 400))
                if _free(p, balls):
                    balls[f"red{i + 1}"] = p
                    break
        reds = {b for b in balls if b.startswith("red")}
        if len(reds) == 14 and geometry.snookered(balls, reds, from_hand=True):
            return balls


NARROW_STRIP: Layout = {
    "red1": (350.0, 700.0), "blue": (385.6, 433.7), "pink": (162.2, 334.4),
    "yellow": SPOTS["yellow"], "green": SPOTS["green"], "brown": SPOTS["brown"],
    "black": SPOTS["black"],
}  # fmt: skip


def with_cue(balls: Layout, rng: random.Random) -> Layout:
    for _ in range(1000):
        p = (rng.uniform(-862, 862), rng.uniform(-1758, 1758))
        if _free(p, balls):
            return {**balls, WHITE: p}
    raise RuntimeError("no room for the cue ball")


def reds_on(balls: Layout) -> set[str]:
    reds = {b for b in balls if b.startswith("red")}
    return reds or {min((b for b in balls if b in COLOURS), key=COLOURS.index)}


Query = Callable[[Layout, set[str]], bool]
QUERIES: dict[str, tuple[Query, Query, bool]] = {
    # name: (exact, sampled, needs a cue ball on the table)
    "snookered_from_point": (
        lambda b, on: geometry.snookered(b, on, from_hand=False),
        lambda b, on: sampled.snookered(b, on, from_hand=False),
        True,
    ),
    "snookered_from_hand": (
        lambda b, on: geometry.snookered(b, on, from_hand=True),
        lambda b, on: sampled.snookered(b, on, from_hand=True),
        False,
    ),
    "clear_path_from_point": (
        lambda b, on: geometry.clear_path(b, on, from_hand=False),
        lambda b, on: sampled.clear_path(b, on, from_hand=False),
        True,
    ),
    "clear_path_from_hand": (
        lambda b, on: geometry.clear_path(b, on, from_hand=True),
        lambda b, on: sampled.clear_path(b, on, from_hand=True),
        False,
    ),
}


def per_call_ms(query: Query, cases: list[tuple[Layout, set[str]]], repeat: int) -> list[float]:
    """Milliseconds per call, one figure per case (best of `repeat`)."""
    out = []
    for balls, on in cases:
        best = math.inf
        for _ in range(repeat):
            start = time.perf_counter()
            query(balls, on)
            best = min(best, time.perf_counter() - start)
        out.append(best * 1000.0)
    return out


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "mean_ms": round(statistics.fmean(ordered), 4),
        "median_ms": round(statistics.median(ordered), 4),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 4),
        "max_ms": round(ordered[-1], 4),
    }


Row = dict[str, dict[str, Any]]  # question -> {"exact": ..., "sampled": ..., "sampled_wrong": n}


def views(rng: random.Random) -> dict[str, tuple[int, Row]]:
    """Per set of positions: how many, and the figures of each question."""
    rack = initial_rack()
    sets: dict[str, list[Layout]] = {
        "break_in_off": [rack],
        "random": [random_layout(rng) for _ in range(150)],
        "walled": [walled_layout(rng) for _ in range(150)],
        "narrow_strip": [NARROW_STRIP],
        "fourteen_hidden_reds": [fourteen_hidden_reds()],
    }
    figures: dict[str, tuple[int, Row]] = {}
    for set_name, layouts in sets.items():
        row: Row = {}
        for name, (exact, sample, cue) in QUERIES.items():
            cases = [
                (with_cue(b, rng) if cue else b, reds_on(b))
                for b in layouts
                if not (cue and b is rack)
            ]
            if not cases:
                continue
            repeat = 5 if len(cases) > 1 else 30
            e, s = per_call_ms(exact, cases, repeat), per_call_ms(sample, cases, repeat)
            wrong = sum(exact(b, on) != sample(b, on) for b, on in cases)
            row[name] = {"exact": summary(e), "sampled": summary(s), "sampled_wrong": wrong}
        figures[set_name] = (len(layouts), row)
    return figures


def settlement() -> dict[str, object]:
    """Whole strokes settled by the referee, against the physics of a break."""
    rack = initial_rack()
    hidden = fourteen_hidden_reds()
    strokes: dict[str, tuple[FrameState, Shot]] = {
        "fair_pot": (
            FrameState(make_balls({**rack, WHITE: (0.0, 600.0)}), "A"),
            Shot(("red1",), potted=("red1",)),
        ),
        "break_in_off": (
            FrameState(make_balls(rack), "A", in_hand=True, opening=True),
            Shot(("red1",), potted=(WHITE,), cue_ball=(-150.0, -1184.5)),
        ),
        "miss_from_hand_all_reds_hidden": (
            FrameState(make_balls(hidden), "A", in_hand=True, misses=1),
            Shot((), cue_ball=(100.0, -1200.0), after=((WHITE, (400.0, 0.0)),)),
        ),
        "in_off_all_reds_hidden": (
            FrameState(make_balls({**hidden, WHITE: (600.0, -200.0)}), "A"),
            Shot(("red1",), potted=(WHITE,)),
        ),
    }
    out: dict[str, object] = {}
    for name, (state, shot) in strokes.items():
        best = math.inf
        for _ in range(30):
            start = time.perf_counter()
            referee.strike(state, state.striker, shot)
            best = min(best, time.perf_counter() - start)
        out[name] = round(best * 1000.0, 4)
    balls, strike = break_apex()
    times = []
    for _ in range(20):
        start = time.perf_counter()
        simulate(balls, strike)
        times.append((time.perf_counter() - start) * 1000.0)
    out["physics_break_median"] = round(statistics.median(times), 3)
    return out


def main() -> None:
    rng = random.Random(2026)
    found = views(rng)
    settled = settlement()
    for set_name, (count, row) in found.items():
        print(f"{set_name} ({count} positions)")
        for name, data in row.items():
            e, s = data["exact"], data["sampled"]
            print(
                f"  {name:22s} exact mean {e['mean_ms']:8.4f} ms (max {e['max_ms']:8.4f})"
                f"   sampled mean {s['mean_ms']:8.4f} ms (max {s['max_ms']:8.4f})"
                f"   sampled wrong {data['sampled_wrong']}"
            )
    print("settlement (referee.strike, best of 30), ms:", settled)
    figures = {
        "views": {name: {"positions": count, **row} for name, (count, row) in found.items()},
        "settlement_ms": settled,
    }
    print(json.dumps(figures, separators=(",", ":")))


if __name__ == "__main__":
    main()
