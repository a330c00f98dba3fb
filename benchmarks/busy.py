"""A slow day on demand, and the coach's analysis beside play. `--busy N` in bench-strangers
and bench-live keeps N processes spinning at the servers' own priority for the whole run,
standing for the other work of a shared machine (a small club's rented server, other
engineers' test runs here). The figures of a loaded day could only be waited for; two of them
on this machine's two cores give, to within its day-to-day spread, the slow days of
docs/performance.md (the players' quiet ack p50 30 ms behind 1,000 spectators, against 20 on
a quiet day). `--analysing N` in bench-live keeps N processes analysing frames as the
computer's pool does (docs/coach.md)."""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Iterator


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy(processes: int) -> Iterator[None]:
    """`processes` spinning processes while the block runs."""
    spinning = [multiprocessing.get_context("spawn").Process(target=_spin, daemon=True)
                for _ in range(processes)]  # fmt: skip
    for p in spinning:
        p.start()
    try:
        yield
    finally:
        for p in spinning:
            p.terminate()
        for p in spinning:
            p.join(5)


def _analyse(seed: int) -> None:
    """What the computer's pool does for the coach (docs/coach.md): frames analysed stroke by
    stroke, for ever, at the pool's priority (computer.thinking.start_worker: the idle class)."""
    import random
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from computer.thinking import start_worker
    from rules import match as m
    from rules.opponent import CLUB
    from rules.opponent.analysis import analyse_frame
    from rules.opponent.selfplay import Step, play_match

    start_worker()
    steps: list[Step] = []
    play_match({"A": CLUB, "B": CLUB}, random.Random(seed), on_step=steps.append)
    commands = [(s.seat, s.command) for s in steps]
    number = 0
    while True:
        for _ in analyse_frame(m.new_match(1, "A"), commands, 1, f"busy:{number}"):
            pass
        number += 1


@contextlib.contextmanager
def analysing(processes: int) -> Iterator[None]:
    """`processes` analysing frames as the computer's pool does, while the block runs
    (`--analysing N` in bench-live: the members' acks beside a running analysis)."""
    context = multiprocessing.get_context("spawn")
    working = [context.Process(target=_analyse, args=(i,), daemon=True) for i in range(processes)]
    for p in working:
        p.start()
    try:
        yield
    finally:
        for p in working:
            p.terminate()
        for p in working:
            p.join(5)
