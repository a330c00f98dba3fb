"""Physics benchmark: `make bench-physics` (or `.venv/bin/python benchmarks/bench_physics.py`).

(a) the full-rack break from the D at 8 m/s aimed at the apex red, (b) an everyday mid-frame
shot (a red screwed back from a corner pocket), (c) random strokes on random layouts. The last
line printed is one JSON object with the figures (docs/performance.md, "Physics").
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.physics import Strike, simulate
from rules.physics.constants import R
from rules.table import HALF_LENGTH, HALF_WIDTH, OBJECT_BALLS
from tests.physics.shots import break_apex, pot_with_screw

Point = tuple[float, float]


def timed(balls: dict[str, Point], strike: Strike, runs: int) -> tuple[list[float], int, int]:
    times: list[float] = []
    events = 0
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        result = simulate(balls, strike)
        times.append((time.perf_counter() - start) * 1000.0)
        events = len(result.events)
    size = len(json.dumps(result.to_json(), separators=(",", ":")))
    return times, events, size


def random_layout(rng: random.Random) -> tuple[dict[str, Point], Strike]:
    placed: dict[str, Point] = {}
    names = ["white", *rng.sample(OBJECT_BALLS, rng.randint(1, 15))]
    for name in names:
        for _ in range(100):
            p = (
                rng.uniform(-HALF_WIDTH + R, HALF_WIDTH - R),
                rng.uniform(-HALF_LENGTH + R, HALF_LENGTH - R),
            )
            if all(math.dist(p, q) >= 2 * R for q in placed.values()):
                placed[name] = p
                break
    cue = placed.pop("white")
    offset, turn = rng.uniform(0.0, 0.5), rng.uniform(0.0, 2 * math.pi)
    strike = Strike(
        cue,
        rng.uniform(-math.pi, math.pi),
        rng.uniform(0.3, 6.0),
        side=offset * math.cos(turn),
        height=offset * math.sin(turn),
    )
    return placed, strike


def main() -> None:
    simulate(*break_apex())  # warm up
    brk, brk_events, brk_bytes = timed(*break_apex(), runs=30)
    day, day_events, _ = timed(*pot_with_screw(), runs=200)
    rng = random.Random(20261129)
    shots = [random_layout(rng) for _ in range(200)]
    start = time.perf_counter()
    for balls, strike in shots:
        simulate(balls, strike)
    elapsed = time.perf_counter() - start
    figures = {
        "break": {
            "median_ms": round(statistics.median(brk), 3),
            "min_ms": round(min(brk), 3),
            "max_ms": round(max(brk), 3),
            "events": brk_events,
            "trajectory_bytes": brk_bytes,
        },
        "everyday": {"median_ms": round(statistics.median(day), 3), "events": day_events},
        "random_shots_per_s": round(len(shots) / elapsed, 1),
    }
    print(f"python {sys.version.split()[0]}, break {brk_events} events, {brk_bytes} B of JSON")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
