"""`make bench-analysis`'s and `make fit-frame-chance`'s short modes, as CI runs them: they run
and print their figures (the figures themselves are docs/coach.md's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_analysis_benchmark_runs_and_prints_its_figures() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_analysis.py", "--short"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    lines = run.stdout.strip().splitlines()
    assert lines[0] == "bench-analysis: 1 frame(s), 6 strokes analysed on one core", run.stdout
    figures = json.loads(lines[-1])
    assert figures["strokes"] == 6 and sum(figures["marks"].values()) == 6
    assert 0 < figures["stroke_mean_s"] <= figures["stroke_max_s"]


def test_the_winning_chance_fit_runs_and_prints_its_figures() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/fit_frame_chance.py", "--short"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("fit-frame-chance: 3 frames, "), run.stdout
    figures = json.loads(lines[-1])
    assert figures["lead"] > 0 and figures["positions"] > 0 and figures["bins"]
