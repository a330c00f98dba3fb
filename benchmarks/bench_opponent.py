"""The computer opponent's strength, measured: `make bench-opponent` (docs/opponent.md).

    .venv/bin/python benchmarks/bench_opponent.py --frames 20 --positions 60

1. Seeded positions (a few reds scattered, the colours on their spots, red on): each level
   plays one stroke from each; its pots are counted by distance and cut.
2. Frames, each level against the one below (Pro–Club, Club–Novice), `--frames` of them, the
   break alternating. Per level: pot success by distance and cut, average and highest break,
   breaks of 50 and 100, safety success (after a safety the opponent is left no pot that a
   Club player would give an even chance), frames per minute, fouls per frame, the slowest
   decision; per pairing: frames won.

Everything is seeded: the same arguments give the same figures (and the same strokes). The last
line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import match as m
from rules.commands import Stroke
from rules.opponent import CLUB, LEVELS, NOVICE, PRO, Level, decide
from rules.opponent.search import best_pots
from rules.opponent.selfplay import Step, play_match
from rules.state import FrameState, Player, make_balls, opponent
from rules.table import BALL_DIAMETER, BALL_RADIUS, HALF_LENGTH, HALF_WIDTH, REDS, SPOTS, WHITE

DISTANCES = ((0, 500), (500, 1000), (1000, 1500), (1500, 10_000))
CUTS = ((0, 15), (15, 30), (30, 45), (45, 90))


@dataclass
class Figures:
    """What one level did."""

    pots: dict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    position_pots: list[int] = field(default_factory=lambda: [0, 0])
    breaks: list[int] = field(default_factory=list)
    safeties: list[int] = field(default_factory=lambda: [0, 0])
    fouls: int = 0
    frames: int = 0
    decisions: list[float] = field(default_factory=list)

    def pot(self, distance: float, cut: float, success: bool) -> None:
        d = next(i for i, (lo, hi) in enumerate(DISTANCES) if lo <= distance < hi)
        c = next(i for i, (lo, hi) in enumerate(CUTS) if lo <= math.degrees(cut) < hi + 1e-9)
        cell = self.pots[(d, c)]
        cell[0] += int(success)
        cell[1] += 1

    def summary(self) -> dict[str, Any]:
        made = sum(c[0] for c in self.pots.values())
        tried = sum(c[1] for c in self.pots.values())
        breaks = self.breaks or [0]
        times = sorted(self.decisions) or [0.0]
        return {
            "pot_success": round(made / tried, 3) if tried else None,
            "pots_tried": tried,
            "positions_pot_success": (
                round(self.position_pots[0] / self.position_pots[1], 3)
                if self.position_pots[1] else None
            ),
            "by_distance_cut": {
                f"{DISTANCES[d][0]}-{DISTANCES[d][1]}mm/{CUTS[c][0]}-{CUTS[c][1]}deg": [made_, n]
                for (d, c), (made_, n) in sorted(self.pots.items())
            },
            "average_break": round(sum(breaks) / len(breaks), 1),
            "highest_break": max(breaks),
            "breaks_50": sum(1 for b in breaks if b >= 50),
            "breaks_100": sum(1 for b in breaks if b >= 100),
            "safety_success": (
                round(self.safeties[0] / self.safeties[1], 3) if self.safeties[1] else None
            ),
            "safeties": self.safeties[1],
            "fouls_per_frame": round(self.fouls / max(1, self.frames), 2),
            "decision_s_p95": round(times[int(0.95 * (len(times) - 1))], 3),
            "decision_s_max": round(times[-1], 3),
        }  # fmt: skip


def potted(step: Step) -> bool:
    """The stroke meant as a pot put its ball down, fairly."""
    plan = step.decision.plan if step.decision else None
    shot = step.outcome.shot
    return (
        plan is not None and shot is not None and plan.ball in shot.potted
        and not step.outcome.ruling.foul
    )  # fmt: skip


class Recorder:
    """Follows a match's steps into each level's figures."""

    def __init__(self, figures: dict[Player, Figures]) -> None:
        self.figures = figures
        self.running: dict[Player, int] = {"A": 0, "B": 0}

    def close(self, seat: Player) -> None:
        if self.running[seat] > 0:
            self.figures[seat].breaks.append(self.running[seat])
        self.running[seat] = 0

    def __call__(self, step: Step) -> None:
        outcome = step.outcome
        if step.seat is not None and step.decision is not None:
            self.figures[step.seat].decisions.append(step.seconds)
        if step.seat is not None and isinstance(step.command, Stroke):
            seat = step.seat
            fig = self.figures[seat]
            plan = step.decision.plan if step.decision else None
            if plan is not None and plan.kind == "pot":
                fig.pot(plan.distance, plan.cut, potted(step))
            if outcome.ruling.foul:
                fig.fouls += 1
            if outcome.ruling.points > 0 and not outcome.ruling.foul:
                self.running[seat] = outcome.settled.brk
            else:
                self.close(seat)
            if plan is not None and plan.kind in ("safety", "break") and not outcome.ruling.foul:
                after = outcome.settled
                if not after.frame_over and after.striker == opponent(seat):
                    open_pots = [p for p in best_pots(after, CLUB) if p.chance >= 0.5]
                    fig.safeties[0] += int(not open_pots)
                    fig.safeties[1] += 1
        if outcome.frame_end is not None:
            for seat in ("A", "B"):
                self.close(seat)  # type: ignore[arg-type]
                self.figures[seat].frames += 1  # type: ignore[index]


def positions(n: int, seed: int) -> list[FrameState]:
    """Seeded layouts: 3 to 8 reds and the cue ball scattered, colours on their spots."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        balls = dict(SPOTS)
        for ball in (WHITE, *REDS[: rng.randint(3, 8)]):
            for _ in range(100):
                p = (
                    rng.uniform(-HALF_WIDTH + BALL_RADIUS + 5, HALF_WIDTH - BALL_RADIUS - 5),
                    rng.uniform(-HALF_LENGTH + BALL_RADIUS + 5, HALF_LENGTH - BALL_RADIUS - 5),
                )
                if all(math.dist(p, q) > BALL_DIAMETER + 2 for q in balls.values()):
                    balls[ball] = p
                    break
        out.append(FrameState(balls=make_balls(balls), striker="A"))
    return out


def run_positions(level: Level, layouts: list[FrameState], seed: int, fig: Figures) -> None:
    rng = random.Random(seed)
    for frame in layouts:
        match = m.Match(1, "A", frame)
        started = time.perf_counter()
        decision = decide(match, "A", level, rng)
        fig.decisions.append(time.perf_counter() - started)
        assert decision is not None
        _, outcome = m.apply(match, "A", decision.command)
        plan = decision.plan
        if plan is not None and plan.kind == "pot":
            step = Step("A", decision.command, decision, frame, outcome, 0.0)
            fig.position_pots[0] += int(potted(step))
            fig.position_pots[1] += 1


def run_pairing(
    upper: Level, lower: Level, frames: int, seed: int, figures: dict[str, Figures],
    max_strokes: int,
) -> dict[str, Any]:  # fmt: skip
    """`frames` frames, `upper` in seat A, the break alternating."""
    wins = 0
    started = time.perf_counter()
    for k in range(frames):
        rng = random.Random(seed * 1000 + k)
        seats: dict[Player, Figures] = {"A": figures[upper.name], "B": figures[lower.name]}
        draw: Player = "A" if k % 2 == 0 else "B"
        match = play_match(
            {"A": upper, "B": lower}, rng, draw=draw, max_strokes=max_strokes,
            clock=time.perf_counter, on_step=Recorder(seats),
        )  # fmt: skip
        wins += int(match.winner == "A")
        record = match.frames[-1]
        print(
            f"  {upper.name} v {lower.name} frame {k + 1}: {record.scores[0]}-{record.scores[1]}"
            f" ({record.termination})",
            flush=True,
        )
    seconds = time.perf_counter() - started
    return {
        "upper": upper.name, "lower": lower.name, "frames": frames, "upper_won": wins,
        "seconds": round(seconds, 1), "frames_per_minute": round(frames / seconds * 60, 2),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20, help="frames per pairing")
    parser.add_argument("--positions", type=int, default=60, help="seeded positions per level")
    parser.add_argument("--max-strokes", type=int, default=300, help="strokes before concession")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    started = time.perf_counter()
    figures = {name: Figures() for name in LEVELS}
    layouts = positions(args.positions, args.seed)
    for level in (NOVICE, CLUB, PRO):
        run_positions(level, layouts, args.seed, figures[level.name])
    pairings = []
    for upper, lower in ((PRO, CLUB), (CLUB, NOVICE)):
        pairings.append(
            run_pairing(upper, lower, args.frames, args.seed, figures, args.max_strokes)
        )
    summary = {name: fig.summary() for name, fig in figures.items()}
    print()
    print(
        f"{'level':8} {'pots':>6} {'pos.':>6} {'avg brk':>8} {'high':>5} {'50+':>4} {'100+':>5}"
        f" {'safety':>7} {'fouls/fr':>9} {'p95 s':>6} {'max s':>6}"
    )
    for name, s in summary.items():
        print(
            f"{name:8} {s['pot_success']!s:>6} {s['positions_pot_success']!s:>6}"
            f" {s['average_break']:>8} {s['highest_break']:>5} {s['breaks_50']:>4}"
            f" {s['breaks_100']:>5} {s['safety_success']!s:>7} {s['fouls_per_frame']:>9}"
            f" {s['decision_s_p95']:>6} {s['decision_s_max']:>6}"
        )
    for p in pairings:
        print(
            f"{p['upper']} v {p['lower']}: {p['upper_won']}/{p['frames']} frames,"
            f" {p['frames_per_minute']} frames a minute ({p['seconds']} s)"
        )
    total = round(time.perf_counter() - started, 1)
    print(f"run: {total} s")
    print(
        json.dumps({"levels": summary, "pairings": pairings, "seconds": total, "args": vars(args)})
    )


if __name__ == "__main__":
    main()
