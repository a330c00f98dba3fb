"""The handicap's calibration: `make bench-handicap` (docs/handicaps.md, "Calibration").

    .venv/bin/python benchmarks/bench_handicap.py --frames 100 --starts 0,20,40,60,80
    .venv/bin/python benchmarks/bench_handicap.py --short      # CI: runs, prints, asserts nothing

The computer's levels play each other one frame at a time (`rules.opponent.selfplay`, every
request through `rules.match.apply` as a browser's would be), the weaker level given each start
in `--starts` (RULES.md §10), the break alternating. For every pairing and start it prints the
weaker's frames won with a 95 % Wilson interval; for every pairing:

- at no start, the stronger's frame chance p and its frame margin (points scored at the table,
  the stronger's minus the weaker's) as mean and standard deviation: the model's MARGIN_SD
  (rules/handicap.py, step 3) is the margin's spread, measured here;
- the rating gap that p stands for under the model's steps 1–2 (two settled ratings, RD 50),
  and the start `rules.handicap.start_for` gives for that gap, uncapped;
- the start at which the weaker wins half of the frames, from a logistic fit of the weaker's
  win against the start over every frame of the pairing: the calibration's answer, to compare
  with the model's; and the fit's spread, the standard deviation of the margin it implies
  (π/√3 over the fit's slope), to compare with MARGIN_SD. The weaker wins with a start s when
  the stronger's margin at the table is below s, so the win rate against the start is the
  margin's distribution: this measures MARGIN_SD even where the levels are too far apart for
  the weaker to win at no start;
- the same two figures from a probit fit (the margin normal, as the model takes it), each with
  its 95 % profile-likelihood interval, and one spread fitted to every pairing at once (each
  with an even start of its own): the figures docs/handicaps.md quotes.

Every frame is seeded from `--seed`, the pairing, the start and its number, so a run gives the
same figures for any `--jobs`. The last line is one JSON object with every figure.

The full grid is hours of one core's time, more than one sitting of a small machine, so a run
can be spread over several:

    .venv/bin/python benchmarks/bench_handicap.py --out benchmarks/handicap-grid.jsonl \
        --target 0.05 --frames 384 --starts 40,70,100 --pairings novice-club,club-pro --jobs 2

appends each frame to `--out` as it ends and, started again with the same file, plays only the
frames it does not hold (a frame is the same frame whichever run plays it: its seed is its
name). With `--target` it plays a cell's next frame only while that cell's 95 % interval is
wider than ± the target (at most `--frames` a cell), always the widest cell first, so a cell
whose rate is far from a half stops early and a run cut short leaves every cell about as
precise as the others. `--report` prints the tables of what the file holds and plays nothing.
benchmarks/handicap-grid.jsonl is the club's run, kept as it grows (seed 40).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.handicap import MARGIN_SD, match_chance, start_for
from rules.opponent import LEVELS
from rules.opponent.selfplay import play_match
from rules.outcome import Termination
from rules.ratings import SCALE, Rating

PAIRINGS = ("novice-club", "club-pro", "novice-pro")  # weaker-stronger
SETTLED_RD = 50.0  # the deviation of a member who plays regularly (docs/ratings.md)
Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Frame:
    pairing: str
    start: int  # the weaker's
    number: int
    weaker_won: bool
    margin: int  # the stronger's points at the table minus the weaker's (no start)
    conceded: bool
    strokes: int
    seconds: float


def play_one(task: tuple[str, int, int, int, int]) -> Frame:
    """One frame: the weaker level in seat A with `start` points, the break alternating."""
    pairing, start, number, seed, max_strokes = task
    weak, strong = pairing.split("-")
    rng = random.Random(f"{seed}:{pairing}:{start}:{number}")
    strokes = 0

    def count(_: object) -> None:
        nonlocal strokes
        strokes += 1

    began = time.perf_counter()
    match = play_match(
        {"A": LEVELS[weak], "B": LEVELS[strong]},
        rng,
        draw="A" if number % 2 == 0 else "B",
        handicap=(start, 0),
        max_strokes=max_strokes,
        on_step=count,
    )
    record = match.frames[0]
    weak_points, strong_points = record.scores
    return Frame(
        pairing,
        start,
        number,
        record.winner == "A",
        strong_points - (weak_points - start),
        record.termination is Termination.CONCEDED,
        strokes,
        time.perf_counter() - began,
    )


def half_width(wins: int, n: int) -> float:
    low, high = wilson(wins, n)
    return (high - low) / 2


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def logistic_fit(points: list[tuple[float, bool]]) -> tuple[float, float] | None:
    """(a, b) of P(win) = 1 / (1 + exp(−(a + b·s))) by Newton's method on the likelihood, or
    None when the frames cannot place it (every frame won, or lost, or one start only)."""
    if len({s for s, _ in points}) < 2 or len({w for _, w in points}) < 2:
        return None
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for s, won in points:
            p = 1 / (1 + math.exp(-(a + b * s)))
            r = (1.0 if won else 0.0) - p
            ga, gb = ga + r, gb + r * s
            w = p * (1 - p)
            haa, hab, hbb = haa + w, hab + w * s, hbb + w * s * s
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            return None
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-9 and abs(db) < 1e-9:
            break
    return (a, b) if b > 0 else None


# The probit fit's grid: the even start and the spread, in points, at a quarter of a point.
EVEN_GRID = [k / 4 for k in range(0, 4 * 150 + 1)]
SPREAD_GRID = [k / 4 for k in range(4 * 5, 4 * 120 + 1)]
CHI2_95 = Z95**2  # a profile likelihood's 95 % bound: twice the log-likelihood's drop


def probit_surface(points: list[tuple[float, bool]]) -> list[list[float]]:
    """The log-likelihood of P(weaker wins at start s) = Φ((s − m)/σ) (the stronger's margin
    normal with mean m and spread σ) over `EVEN_GRID` × `SPREAD_GRID`. Frames are counted per
    start, so a grid of thousands of frames costs what its few starts cost."""
    cells: dict[float, list[int]] = {}
    for s, won in points:
        cell = cells.setdefault(s, [0, 0])
        cell[0] += 1
        cell[1] += won
    cdf = NormalDist().cdf
    surface = []
    for m in EVEN_GRID:
        row = []
        for sd in SPREAD_GRID:
            total = 0.0
            for s, (n, k) in cells.items():
                q = min(max(cdf((s - m) / sd), 1e-12), 1 - 1e-12)
                total += k * math.log(q) + (n - k) * math.log(1 - q)
            row.append(total)
        surface.append(row)
    return surface


def profile(grid: list[float], likelihood: list[float]) -> tuple[float, float, float] | None:
    """The best value of a grid and its 95 % profile-likelihood interval, or None when the
    interval reaches the grid's edge (the frames cannot place it)."""
    best = max(range(len(grid)), key=lambda i: likelihood[i])
    inside = [i for i, value in enumerate(likelihood) if 2 * (likelihood[best] - value) <= CHI2_95]
    if inside[0] == 0 or inside[-1] == len(grid) - 1:
        return None
    return grid[best], grid[inside[0]], grid[inside[-1]]


def probit_fit(points: list[tuple[float, bool]]) -> dict[str, object]:
    """The even start and the spread of a probit fit, each with its 95 % profile-likelihood
    interval (docs/handicaps.md quotes them), and the spread's profile for pooling."""
    if len({s for s, _ in points}) < 2 or len({w for _, w in points}) < 2:
        return {"even": None, "spread": None, "spread_profile": None}
    surface = probit_surface(points)
    by_even = [max(row) for row in surface]
    by_spread = [max(row[j] for row in surface) for j in range(len(SPREAD_GRID))]
    return {
        "even": profile(EVEN_GRID, by_even),
        "spread": profile(SPREAD_GRID, by_spread),
        "spread_profile": by_spread,
    }


def gap_for(frame: float) -> float | None:
    """The rating gap that makes `frame` the stronger's frame chance under the model's steps
    1–2 (two settled ratings), or None at a certainty."""
    match = match_chance(frame, 3)
    if not 0 < match < 1:
        return None
    phi = math.hypot(SETTLED_RD, SETTLED_RD) / SCALE
    g = 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))
    return math.log(match / (1 - match)) / g * SCALE


def summarise(frames: list[Frame], pairings: list[str], starts: list[int]) -> dict[str, object]:
    out: dict[str, object] = {}
    profiles: list[list[float]] = []  # each pairing's spread profile, for the pooled spread
    for pairing in pairings:
        mine = [f for f in frames if f.pairing == pairing]
        cells = []
        for start in starts:
            cell = [f for f in mine if f.start == start]
            wins = sum(f.weaker_won for f in cell)
            low, high = wilson(wins, len(cell))
            cells.append(
                {"start": start, "frames": len(cell), "weaker_won": wins, "low": low, "high": high}
            )
        level = [f for f in mine if f.start == 0]
        margins = [f.margin for f in level]
        p = (sum(not f.weaker_won for f in level) / len(level)) if level else None
        gap = gap_for(p) if p is not None else None
        model = None
        if gap is not None:
            model = max(start_for(Rating(1500 + gap, SETTLED_RD), Rating(1500, SETTLED_RD), 147))
        fit = logistic_fit([(f.start, f.weaker_won) for f in mine])
        probit = probit_fit([(f.start, f.weaker_won) for f in mine])
        if isinstance(spread_profile := probit["spread_profile"], list):
            profiles.append(spread_profile)
        out[pairing] = {
            "cells": cells,
            "frame_chance": p,
            "margin_mean": statistics.fmean(margins) if margins else None,
            "margin_sd": statistics.stdev(margins) if len(margins) > 1 else None,
            "conceded": sum(f.conceded for f in mine),
            "gap": gap,
            "model_start": model,
            "even_start": (-fit[0] / fit[1]) if fit else None,
            "spread": (math.pi / math.sqrt(3) / fit[1]) if fit else None,
            "probit_even": probit["even"],
            "probit_spread": probit["spread"],
        }
    # One spread for every pairing (MARGIN_SD is one constant): each pairing's even start its
    # own, the spread common, its profile the sum of the pairings'.
    out["pooled_spread"] = (
        profile(SPREAD_GRID, [sum(values) for values in zip(*profiles, strict=True)])
        if profiles
        else None
    )
    return out


def run_grid(args: argparse.Namespace, pairings: list[str], starts: list[int]) -> list[Frame]:
    """Play what `args.out` lacks of the grid, widest cell first; every frame of the grid
    (this run's and earlier runs') in the order played."""
    path = Path(args.out)
    kept: list[Frame] = []
    named: set[tuple[str, int, int]] = set()
    if path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            name = (row["pairing"], row["start"], row["number"])
            # A frame kept twice (two runs on one file at once) counts once: it is one frame.
            if row.pop("seed") == args.seed and name not in named:
                named.add(name)
                kept.append(Frame(**row))
    frames = [f for f in kept if f.pairing in pairings and f.start in starts]
    if args.report:
        return frames
    cells = {
        (p, s): [f for f in frames if f.pairing == p and f.start == s]
        for p in pairings
        for s in starts
    }
    played = {(f.pairing, f.start, f.number) for f in frames}
    busy: dict[tuple[str, int], int] = {cell: 0 for cell in cells}

    def width(cell: tuple[str, int]) -> float:
        mine = cells[cell]
        return half_width(sum(f.weaker_won for f in mine), len(mine) + busy[cell])

    def next_task() -> tuple[str, int, int, int, int] | None:
        open_cells = [
            c
            for c in cells
            if len(cells[c]) + busy[c] < args.frames
            and (args.target is None or width(c) > args.target)
        ]
        if not open_cells:
            return None
        cell = max(open_cells, key=lambda c: (width(c), -len(cells[c]) - busy[c]))
        number = next(n for n in range(args.frames * 2) if (*cell, n) not in played)
        played.add((*cell, number))
        busy[cell] += 1
        return (*cell, number, args.seed, args.max_strokes)

    with Pool(args.jobs) as pool, path.open("a") as out:
        pending = []
        while True:
            while len(pending) < args.jobs and (task := next_task()) is not None:
                pending.append(pool.apply_async(play_one, (task,)))
            if not pending:
                break
            pending[0].wait()
            done = pending.pop(0).get()
            busy[(done.pairing, done.start)] -= 1
            cells[(done.pairing, done.start)].append(done)
            frames.append(done)
            out.write(json.dumps({"seed": args.seed, **asdict(done)}) + "\n")
            out.flush()
    return frames


def show(value: object, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def interval(fitted: object) -> str:
    """A probit figure as "centre (low–high)", or – where the frames cannot place it."""
    if not isinstance(fitted, tuple):
        return "–"
    return f"{fitted[0]:.0f} ({fitted[1]:.0f}–{fitted[2]:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=100, help="frames per pairing and start")
    parser.add_argument("--starts", default="0,20,40,60,80", help="the weaker's starts")
    parser.add_argument("--pairings", default=",".join(PAIRINGS))
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-strokes", type=int, default=300, help="a frame's strokes at most")
    parser.add_argument("--short", action="store_true", help="CI: one frame at two starts")
    parser.add_argument("--out", help="frames kept here (JSON lines), a run resumed from them")
    parser.add_argument(
        "--target", type=float, help="with --out: stop a cell at this half-width (0.05 is ±5 %%)"
    )
    parser.add_argument("--report", action="store_true", help="with --out: only print its tables")
    args = parser.parse_args()
    if args.short:
        args.frames, args.starts, args.pairings, args.jobs = 1, "0,40", "novice-club", 1
        args.max_strokes = 80
    starts = [int(s) for s in args.starts.split(",")]
    pairings = args.pairings.split(",")
    for pairing in pairings:
        if pairing not in PAIRINGS:
            parser.error(f"pairing {pairing!r}: one of {', '.join(PAIRINGS)}")
    began = time.perf_counter()
    if args.out:
        frames = run_grid(args, pairings, starts)
    else:
        tasks = [
            (pairing, start, number, args.seed, args.max_strokes)
            for pairing in pairings
            for start in starts
            for number in range(args.frames)
        ]
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                frames = pool.map(play_one, tasks, chunksize=1)
        else:
            frames = [play_one(t) for t in tasks]
    wall = time.perf_counter() - began
    figures = summarise(frames, pairings, starts)

    print(f"bench-handicap: {len(frames)} frames, seed {args.seed}, {wall:.0f} s on {args.jobs}")
    if args.out:
        print(f"frames kept in {args.out}; this run's wall time only")
    print(f"model: MARGIN_SD {MARGIN_SD:g}, settled RD {SETTLED_RD:g}")
    print()
    print("| pairing (weaker–stronger) | start | frames | weaker won | 95 % interval |")
    print("| --- | --- | --- | --- | --- |")
    for pairing in pairings:
        for cell in figures[pairing]["cells"]:  # type: ignore[index]
            n = cell["frames"]
            share = cell["weaker_won"] / n if n else 0.0
            print(
                f"| {pairing} | {cell['start']} | {n} | {cell['weaker_won']} ({share:.0%}) "
                f"| {cell['low']:.0%}–{cell['high']:.0%} |"
            )
    print()
    print(
        "| pairing | p (no start) | margin mean | margin SD | rating gap | model's start "
        "| even start (fit) | spread (fit) | conceded |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for pairing in pairings:
        f = figures[pairing]
        assert isinstance(f, dict)
        print(
            f"| {pairing} | {show(f['frame_chance'], 2)} | {show(f['margin_mean'])} "
            f"| {show(f['margin_sd'])} | {show(f['gap'], 0)} | {show(f['model_start'])} "
            f"| {show(f['even_start'])} | {show(f['spread'])} | {f['conceded']} |"
        )
    print()
    print("| pairing | even start (probit, 95 %) | spread (probit, 95 %) |")
    print("| --- | --- | --- |")
    for pairing in pairings:
        f = figures[pairing]
        assert isinstance(f, dict)
        print(f"| {pairing} | {interval(f['probit_even'])} | {interval(f['probit_spread'])} |")
    print(f"one spread for all pairings (probit, 95 %): {interval(figures['pooled_spread'])}")
    per_frame = [f.seconds for f in frames]
    print()
    print(
        f"a frame: {statistics.fmean(per_frame):.1f} s mean of one process's time, "
        f"{statistics.fmean(f.strokes for f in frames):.0f} requests"
    )
    print(
        json.dumps(
            {
                "seed": args.seed,
                "frames": args.frames,
                "starts": starts,
                "wall_seconds": round(wall, 1),
                "pairings": figures,
                "frame_list": [asdict(f) for f in frames] if args.short else None,
            }
        )
    )


if __name__ == "__main__":
    main()
