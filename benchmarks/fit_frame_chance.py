"""The frame-winning chance's fit: `make fit-frame-chance` (docs/coach.md, "Winning chances").

    .venv/bin/python benchmarks/fit_frame_chance.py --frames 300 --seed 1
    .venv/bin/python benchmarks/fit_frame_chance.py --short     # CI: plays, fits, prints

The computer's Club level plays `--frames` seeded frames against itself (`rules.opponent.
selfplay`, every request through `rules.match.apply`); before each stroke and choice it notes
the lead of the player at the table, the points left on it, and whether that player went on
to win the frame. It fits the model of `rules.opponent.chances`:

    P(the player at the table wins) = σ(TABLE + LEAD · lead / √(left + SPREAD))

by maximum likelihood (Newton's method for TABLE and LEAD at each SPREAD of a grid, the best
kept), and prints the fit, its log-loss, and the model's and the frames' win rates in bins of
the lead, to compare. The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import referee
from rules.commands import Choose, Stroke
from rules.opponent import CLUB
from rules.opponent.selfplay import Step, play_match

SPREADS = (2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
Sample = tuple[int, int, int]  # the lead of the player at the table, the points left, won (1/0)


def samples(frames: int, seed: int) -> list[Sample]:
    out: list[Sample] = []
    for number in range(frames):
        steps: list[Step] = []
        match = play_match({"A": CLUB, "B": CLUB}, random.Random(f"{seed}:{number}"),
                           on_step=steps.append)  # fmt: skip
        winner = match.frames[0].winner
        for step in steps:
            if step.seat is None or not isinstance(step.command, Stroke | Choose):
                continue
            a, b = step.before.scores
            lead = a - b if step.seat == "A" else b - a
            left = referee.points_remaining(step.before)
            out.append((lead, left, int(step.seat == winner)))
    return out


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def fit(data: list[Sample], spread: float) -> tuple[float, float, float]:
    """(TABLE, LEAD, mean log-loss) for one SPREAD, by Newton's method."""
    table, lead = 0.0, 0.1
    xs = [(1.0, d / math.sqrt(r + spread), y) for d, r, y in data]
    for _ in range(50):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x0, x1, y in xs:
            p = _sigmoid(table * x0 + lead * x1)
            g0 += (y - p) * x0
            g1 += (y - p) * x1
            w = p * (1 - p)
            h00 += w * x0 * x0
            h01 += w * x0 * x1
            h11 += w * x1 * x1
        det = h00 * h11 - h01 * h01
        if det <= 1e-12:
            break
        step0 = (h11 * g0 - h01 * g1) / det
        step1 = (h00 * g1 - h01 * g0) / det
        table, lead = table + step0, lead + step1
        if abs(step0) + abs(step1) < 1e-9:
            break
    loss = 0.0
    for x0, x1, y in xs:
        p = min(max(_sigmoid(table * x0 + lead * x1), 1e-12), 1 - 1e-12)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return table, lead, loss / len(xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--short", action="store_true", help="three frames")
    args = parser.parse_args()
    frames = 3 if args.short else args.frames
    data = samples(frames, args.seed)
    fits = {s: fit(data, s) for s in SPREADS}
    spread = min(fits, key=lambda s: fits[s][2])
    table, lead, loss = fits[spread]
    print(f"fit-frame-chance: {frames} frames, {len(data)} positions (Club against Club)")
    print(f"  TABLE = {table:.3f}, LEAD = {lead:.3f}, SPREAD = {spread:g}; log-loss {loss:.4f}")
    print("  | lead | positions | won | model |")
    bins = ((-200, -40), (-40, -20), (-20, -8), (-8, 0), (0, 1), (1, 8), (8, 20), (20, 40),
            (40, 200))  # fmt: skip
    rows = []
    for low, high in bins:
        inside = [(d, r, y) for d, r, y in data if low <= d < high]
        if not inside:
            continue
        won = sum(y for _, _, y in inside) / len(inside)
        model = sum(_sigmoid(table + lead * d / math.sqrt(r + spread)) for d, r, _ in inside)
        rows.append({"lead": [low, high], "n": len(inside), "won": round(won, 3),
                     "model": round(model / len(inside), 3)})  # fmt: skip
        print(f"  | {low}..{high} | {len(inside)} | {won:.2f} | {model / len(inside):.2f} |")
    print(json.dumps({"frames": frames, "positions": len(data), "table": round(table, 4),
                      "lead": round(lead, 4), "spread": spread, "log_loss": round(loss, 4),
                      "bins": rows}))  # fmt: skip


if __name__ == "__main__":
    main()
