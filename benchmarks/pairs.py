"""What one thing costs the players' acks: `make bench-pairs` (or `.venv/bin/python
benchmarks/pairs.py`).

Runs `bench_live.py` with two sets of arguments, A (without the thing) and B (with it),
alternately and back to back (A B, then B A, ...: a machine that drifts during the runs
drifts for both), and pools each arm's players' acks over its runs. One 30-second run of 10
matches acks about 150 requests, so its p99 is its one or two slowest: two such runs of the
same code read 24 and 26 ms here, and 28 and 38 ms with the chat. Pooled over the runs, each
arm's p99 rests on a few percent of its acks, and its 95 % interval (a bootstrap that
resamples the runs, then the acks within each: a run's machine state is shared by its acks)
says whether the change is within a target.

    make bench-pairs BENCH_ARGS='--pairs 4 --common "--matches 10 --spectators 20 --duration 30
        --interval 2 --setups memory --chatters 200 --chat-apart" --a=--silent --b='

(an arm's arguments that begin with "--" are given as `--a=...`).

It prints each run's figures as it goes and, last, one JSON object: each arm's pooled ack p50
and p99 with its interval, and the p99's change from A to B with its interval
(docs/chat.md, "Load"; docs/performance.md, "One member's many sockets").
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from probe import percentile

BENCH = Path(__file__).resolve().parent / "bench_live.py"
RESAMPLES = 2000


def run(common: list[str], arm: list[str]) -> tuple[list[float], float]:
    """One run of the benchmark: its players' ack latencies, in ms, and its servers' CPU
    during play (per cent of a core, summed over the servers)."""
    done = subprocess.run(
        [sys.executable, str(BENCH), *common, *arm], capture_output=True, text=True, check=True
    )
    results: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if len(results) != 1:
        raise SystemExit("give one set-up (--setups memory or redis) in --common")
    [result] = results.values()
    acks: list[float] = result["ack_ms"]
    return acks, sum(result["cpu_percent"])


def pooled(runs: list[list[float]], p: float) -> float:
    value = percentile(sorted(x for r in runs for x in r), p)
    assert value is not None
    return value


def resampled(runs: list[list[float]], rng: random.Random) -> list[list[float]]:
    """The runs drawn again with replacement, and each run's acks within it."""
    drawn = [rng.choice(runs) for _ in runs]
    return [[rng.choice(r) for _ in r] for r in drawn]


def interval(values: list[float]) -> list[float]:
    ordered = sorted(values)
    return [
        round(ordered[int(0.025 * len(ordered))], 1),
        round(ordered[int(0.975 * len(ordered))], 1),
    ]


def compare(
    a: list[list[float]],
    b: list[list[float]],
    seed: int = 41,
    cpu: dict[str, list[float]] | None = None,
) -> dict[str, Any]:
    """Each arm's pooled ack p50 and p99 (with a 95 % interval for the p99), and the p99's
    change from A to B in per cent (with its interval)."""
    rng = random.Random(seed)
    p99s: dict[str, list[float]] = {"a": [], "b": []}
    changes = []
    for _ in range(RESAMPLES):
        ra, rb = pooled(resampled(a, rng), 99), pooled(resampled(b, rng), 99)
        p99s["a"].append(ra)
        p99s["b"].append(rb)
        changes.append(100 * (rb / ra - 1))
    out: dict[str, Any] = {}
    for name, runs in (("a", a), ("b", b)):
        out[name] = {
            "runs": len(runs),
            "acks": sum(len(r) for r in runs),
            "ack_p50_ms": round(pooled(runs, 50), 1),
            "ack_p99_ms": round(pooled(runs, 99), 1),
            "ack_p99_interval_ms": interval(p99s[name]),
            "each_run_p99_ms": [round(percentile(sorted(r), 99) or 0.0, 1) for r in runs],
        }
        if cpu is not None:
            out[name]["each_run_server_cpu_percent"] = cpu[name]
    out["p99_change_percent"] = round(
        100 * (out["b"]["ack_p99_ms"] / out["a"]["ack_p99_ms"] - 1), 1
    )
    out["p99_change_interval_percent"] = interval(changes)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--common", default="", help="arguments of both arms")
    parser.add_argument("--a", default="", help="arm A's own arguments (without)")
    parser.add_argument("--b", default="", help="arm B's own arguments (with)")
    args = parser.parse_args()
    common = shlex.split(args.common)
    arms = {"a": shlex.split(args.a), "b": shlex.split(args.b)}
    runs: dict[str, list[list[float]]] = {"a": [], "b": []}
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    for i in range(args.pairs):
        for name in ("a", "b") if i % 2 == 0 else ("b", "a"):
            acks, used = run(common, arms[name])
            runs[name].append(acks)
            cpu[name].append(used)
            print(f"pair {i + 1}, {name.upper()}: {len(acks)} acks, p99 "
                  f"{percentile(sorted(acks), 99)} ms, servers' CPU {used:.1f} %",
                  flush=True)  # fmt: skip
    print(json.dumps(compare(runs["a"], runs["b"], cpu=cpu)))


if __name__ == "__main__":
    main()
