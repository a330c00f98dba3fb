"""`make bench-handicap`'s short mode, as CI runs it: it plays, prints its tables and its JSON
line (issue 40 asks nothing of the figures in CI, only that the calibration runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.bench_handicap import gap_for, logistic_fit, wilson

ROOT = Path(__file__).resolve().parents[1]


def test_the_calibration_runs_and_prints_its_tables() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_handicap.py", "--short"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("bench-handicap: 2 frames"), run.stdout
    assert "| novice-club | 0 | 1 |" in run.stdout
    assert "| novice-club | 40 | 1 |" in run.stdout
    figures = json.loads(lines[-1])
    frames = figures["frame_list"]
    assert [f["start"] for f in frames] == [0, 40]
    cells = figures["pairings"]["novice-club"]["cells"]
    assert [c["frames"] for c in cells] == [1, 1]
    assert all(0 <= c["low"] <= c["high"] <= 1 for c in cells)


def test_the_fit_finds_the_even_start_of_frames_that_follow_a_logistic() -> None:
    """Frames whose chance is exactly 1/(1+exp(-(s-30)/8)): the fit's even start is 30."""
    points = []
    for s in range(0, 61, 10):
        p = 1 / (1 + 2.718281828 ** (-(s - 30) / 8))
        won = round(1000 * p)
        points += [(float(s), True)] * won + [(float(s), False)] * (1000 - won)
    fit = logistic_fit(points)
    assert fit is not None
    assert abs(-fit[0] / fit[1] - 30) < 0.5
    assert logistic_fit([(0.0, True), (40.0, True)]) is None  # every frame won: no even start


def test_the_interval_and_the_gap() -> None:
    low, high = wilson(200, 400)
    assert 0.45 < low < 0.5 < high < 0.55  # 400 frames: within ±5 %
    assert gap_for(0.5) == 0
    assert gap_for(1.0) is None
    assert gap_for(0.68) > gap_for(0.59) > 0  # type: ignore[operator]
