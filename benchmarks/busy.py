"""A slow day on demand: `--busy N` in bench-strangers and bench-live keeps N processes
spinning at the servers' own priority for the whole run, standing for the other work of a
shared machine (a small club's rented server, other engineers' test runs here). The figures
of a loaded day could only be waited for; two of them on this machine's two cores give, to
within its day-to-day spread, the slow days of docs/performance.md (the players' quiet ack
p50 30 ms behind 1,000 spectators, against 20 on a quiet day)."""

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
