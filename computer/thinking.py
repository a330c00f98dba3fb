"""What the computer's pool runs: pure, no Django (a worker process imports only this and the
rules core), its inputs and answer the stored forms."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from rules import commands
from rules.commands import Command
from rules.match import Match, match_from_json
from rules.opponent import LEVELS, Decision, decide
from rules.opponent.analysis import Analysed, analyse_stroke
from rules.state import Player

# The pool's workers run below the server's priority: the computer's thinking (a second of CPU
# a decision) waits for the event loops of the tables, not the other way round. On a loaded
# machine a decision then gets less CPU in its second and plays the best stroke found so far.
# Linux's idle class runs a worker only on a core nobody else wants, and any other task that
# wakes takes the core at once; elsewhere, the lowest niceness.
NICENESS = 19


def start_worker() -> None:
    """The pool's worker initialiser: lower this process's scheduling priority, and end it
    when its server ends. A server killed outright (SIGKILL, a crash) cannot shut its pool
    down, and a worker waiting for its next decision would wait for ever: its parent's
    pid changing (the worker handed to init) is the sign."""
    os.nice(NICENESS)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):  # not allowed here: the niceness stands
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    server = os.getppid()
    threading.Thread(target=_end_with, args=(server,), name="server-watch", daemon=True).start()


PARENT_CHECK = 2.0  # seconds between looks at the worker's parent


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK)
    os._exit(0)


# The idle class keeps a worker off a core that another task wants, not off the core beside
# it: on a small machine's virtual cores a search running beside a server still slowed every
# step of the members' requests (docs/opponent.md, "Beside the humans' tables"). So before
# each simulation a decision also waits while another task is running anywhere on the
# machine, for at most PATIENCE seconds of its THINK_SECONDS: on a busy machine it thinks
# less, as under the idle class, and on a quiet one it thinks between the servers' bursts.
PATIENCE = 0.5  # seconds one decision may wait in all
LOOK_EVERY = 0.001  # seconds between two looks at the machine


def running() -> int:
    """Tasks running or ready to run on the machine now, this one included (Linux's
    /proc/loadavg); 1 where that cannot be read."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return 1


def patience(
    busy: Callable[[], int] = running,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    most: float = PATIENCE,
) -> Callable[[], None]:
    """One decision's pause (rules.opponent.search.Budget): wait while another task runs,
    `most` seconds at most in all."""
    left = most

    def pause() -> None:
        nonlocal left
        while left > 0 and busy() > 1:
            began = clock()
            sleep(LOOK_EVERY)
            left -= max(clock() - began, LOOK_EVERY)

    return pause


def _decide(state: dict[str, Any], seat: Player, level: str, seed: int) -> Decision | None:
    """A decision as a server makes it: bounded by its clock (rules.opponent.search.Budget),
    waiting for the machine (`patience`)."""
    return decide(
        match_from_json(state), seat, LEVELS[level], random.Random(seed), clock=time.monotonic,
        pause=patience(),
    )  # fmt: skip


def think(state: dict[str, Any], seat: Player, level: str, seed: int) -> tuple[str, dict[str, Any]]:
    """The computer's command for the stored match `state`, as (kind, stored form); a
    stroke's meant aim (before the hand's error) travels with it under "meant", and what its
    address time is made of under "look"."""
    decision = _decide(state, seat, level, seed)
    assert decision is not None
    data = commands.to_json(decision.command)
    if decision.meant is not None:
        data["meant"] = commands.to_json(decision.meant)
        # What the address time is made of (rules.opponent.address): the kind of stroke and,
        # for a pot, how long and how thin it is.
        plan = decision.plan
        data["look"] = {
            "kind": decision.kind or "pot",
            "distance": plan.distance if plan is not None else 0.0,
            "cut": plan.cut if plan is not None else 0.0,
        }
    return commands.kind(decision.command), data


def hint(state: dict[str, Any], seat: Player, seed: int) -> dict[str, Any] | None:
    """The stroke the Pro would play for `seat` now, as the browser draws it: the aim it means
    (before any hand's error), the kind of stroke and where it plans to leave the cue ball;
    None when no stroke is due (a decision after a foul, the match over)."""
    decision = _decide(state, seat, "pro", seed)
    if decision is None or decision.meant is None:
        return None
    leave = decision.leave
    return {
        "aim": commands.to_json(decision.meant),
        "kind": decision.kind,
        "leave": None if leave is None else [round(leave[0], 1), round(leave[1], 1)],
    }


def analyse(before: Match, seat: Player, command: Command, index: int, seed: str) -> Analysed:
    """One stroke (or choice) of the coach's analysis (computer/analysis.py), seeded by the
    analysis' seed and the stroke's index."""
    assert isinstance(command, commands.Stroke | commands.Choose)
    return analyse_stroke(before, seat, command, index, f"{seed}:{index}")
