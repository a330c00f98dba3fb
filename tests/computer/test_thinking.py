"""The computer's thinking gives the machine back to anyone who wants it (computer/thinking.py)."""

from __future__ import annotations

from computer.thinking import LOOK_EVERY, patience, running


class Machine:
    """A machine whose other tasks run for the first `busy_for` looks, on a clock that only
    sleeping moves."""

    def __init__(self, busy_for: int) -> None:
        self.looks = 0
        self.busy_for = busy_for
        self.now = 0.0
        self.sleeps = 0

    def running(self) -> int:
        self.looks += 1
        return 3 if self.looks <= self.busy_for else 1

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.now += seconds


def test_alone_on_the_machine_the_search_never_waits() -> None:
    machine = Machine(busy_for=0)
    pause = patience(machine.running, machine.clock, machine.sleep)
    for _ in range(100):
        pause()
    assert machine.sleeps == 0


def test_the_search_waits_while_another_task_runs() -> None:
    machine = Machine(busy_for=3)
    patience(machine.running, machine.clock, machine.sleep)()
    assert machine.sleeps == 3 and machine.looks == 4


def test_a_decision_waits_at_most_its_patience_in_all() -> None:
    machine = Machine(busy_for=10**9)  # the machine is never quiet
    pause = patience(machine.running, machine.clock, machine.sleep, most=0.05)
    pause()
    assert round(machine.now / LOOK_EVERY) == 50
    pause()  # patience spent: the next simulations go ahead
    assert machine.sleeps == 50
    # A new decision has its own.
    patience(machine.running, machine.clock, machine.sleep, most=0.05)()
    assert machine.sleeps == 100


def test_the_machine_counts_this_task_among_those_running() -> None:
    assert running() >= 1
