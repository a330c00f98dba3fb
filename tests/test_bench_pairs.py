"""benchmarks/pairs.py's arithmetic: each arm's acks pooled over its runs, and the p99's
change with an interval that holds the true change and not nothing (the runs themselves
are bench_live's, run by hand: docs/chat.md, "Load")."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from pairs import compare


def _runs(rng: random.Random, scale: float, n: int = 4) -> list[list[float]]:
    return [[scale * rng.lognormvariate(3.0, 0.4) for _ in range(300)] for _ in range(n)]


def test_a_change_is_measured_with_its_interval() -> None:
    rng = random.Random(7)
    same = compare(_runs(rng, 1.0), _runs(rng, 1.0))
    low, high = same["p99_change_interval_percent"]
    assert low < 0 < high  # the same load: no change is told apart from none
    slower = compare(_runs(rng, 1.0), _runs(rng, 1.5))
    low, high = slower["p99_change_interval_percent"]
    assert 10 < low < 50 < high  # half as slow again: more than the target's 10 %, surely
    assert slower["a"]["acks"] == 1200 and len(slower["b"]["each_run_p99_ms"]) == 4
