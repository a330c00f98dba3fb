"""`make bench-competitions`'s short mode, as CI runs it: it builds, plays out and measures a
small double elimination and a small round robin, and prints its tables and its JSON line
(nothing is asked of the figures here: docs/competitions.md, "Scale", has them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_runs_and_prints_its_tables() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_competitions.py", "--short"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("bench-competitions: double elimination of 8"), run.stdout
    assert "| double elimination of 8 | end | live |" in run.stdout
    assert "| round robin of 8 in 2 groups | middle | page |" in run.stdout
    figures = json.loads(lines[-1])
    assert figures["double"]["results"] >= 14  # 2N − 2, and the reset if it is played
    assert figures["round_robin"]["results"] == 12  # two groups of four: 6 each
    assert len(figures["pages"]) == 12  # two competitions, three times, two pages
