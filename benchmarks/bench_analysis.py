"""The coach's analysis, timed: `make bench-analysis` (docs/coach.md, "Cost").

    .venv/bin/python benchmarks/bench_analysis.py --frames 2 --seed 1
    .venv/bin/python benchmarks/bench_analysis.py --short     # CI: runs, prints, asserts nothing

Plays `--frames` seeded frames of a level (`--level`, the Club by default) against itself
from the break-off (a full table: the analysis' slowest case), then analyses each frame
stroke by stroke as the site does (`rules.opponent.analysis.analyse_frame`, the Pro's search
and hand), on one core. It prints the seconds per stroke (mean, 90th percentile, most) and
per frame, the marks found, and what the fair-play signal reads (docs/coach.md): the share
of strokes that agree with the Pro's and the points lost a stroke, the level's own; the last
line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import match as m
from rules.opponent import LEVELS
from rules.opponent.analysis import analyse_frame
from rules.opponent.selfplay import Step, play_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", choices=sorted(LEVELS), default="club")
    parser.add_argument("--short", action="store_true", help="one frame, its first 6 strokes")
    args = parser.parse_args()
    frames, most = (1, 6) if args.short else (args.frames, None)
    per_stroke: list[float] = []
    per_frame: list[float] = []
    marks: Counter[str] = Counter()
    strokes = 0
    agreed = 0
    lost = 0.0
    level = LEVELS[args.level]
    for number in range(frames):
        steps: list[Step] = []
        play_match({"A": level, "B": level}, random.Random(f"{args.seed}:{number}"),
                   on_step=steps.append)  # fmt: skip
        commands = [(s.seat, s.command) for s in steps]
        began = time.perf_counter()
        analysed = analyse_frame(m.new_match(1, "A"), commands, 1, f"bench:{number}")
        for count, _ in enumerate(iter(int, 1)):
            if most is not None and count >= most:
                break
            t = time.perf_counter()
            found = next(analysed, None)
            if found is None:
                break
            per_stroke.append(time.perf_counter() - t)
            strokes += 1
            marks[found.mark.value if found.mark else "none"] += 1
            agreed += found.agrees
            lost += found.lost
        per_frame.append(time.perf_counter() - began)
    ordered = sorted(per_stroke)
    figures = {
        "frames": frames, "strokes": strokes,
        "stroke_mean_s": round(statistics.fmean(ordered), 3),
        "stroke_p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        "stroke_max_s": round(ordered[-1], 3),
        "frame_mean_s": round(statistics.fmean(per_frame), 1),
        "marks": dict(sorted(marks.items())),
        "level": args.level, "agree": round(agreed / strokes, 3),
        "lost_per_stroke": round(lost / strokes, 2),
    }  # fmt: skip
    print(f"bench-analysis: {frames} frame(s), {strokes} strokes analysed on one core")
    print(f"  the {args.level} level's own play: {figures['agree']:.0%} of strokes the Pro's, "
          f"{figures['lost_per_stroke']} points lost a stroke")  # fmt: skip
    print(f"  a stroke: {figures['stroke_mean_s']} s mean, {figures['stroke_p90_s']} s p90, "
          f"{figures['stroke_max_s']} s most; a frame: {figures['frame_mean_s']} s")  # fmt: skip
    print(f"  marks: {figures['marks']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
