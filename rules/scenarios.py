"""Golden referee scenarios (shared/SCENARIOS.md): load, run and report.

    python -m rules.scenarios PATH [PATH ...]

A PATH is a file or a folder searched for `*.json`; a file holds one scenario or a list. One
line is printed per failed scenario, then `N passed, M failed`; the exit code is 1 if anything
failed or could not be read. Unknown keys anywhere are errors, never silent passes.

Beyond SCENARIOS.md, `expect` may hold `fouls`: the clauses of every foul the referee calls
for the step (`Ruling.fouls`, each rule once, as a set; `[]` when none), e.g.
`["§23.3", "§23.4.3"]`; and a `shot` may hold `jumped` (true: the cue ball jumped over a ball,
§9.9; default false). `before.start` (RULES.md §10) is the match's handicap start: `scores`
default to it and may not be below it.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import referee
from rules.errors import IllegalRequest, StateFormatError
from rules.referee import Ruling
from rules.state import (
    FrameState,
    Shot,
    load_balls,
    load_on,
    load_player,
    load_point,
    load_scores,
    make_balls,
    start_refusal,
)
from rules.table import WHITE

TOLERANCE_MM = 0.5

_TOP_KEYS = {"name", "clause", "before", "steps"}
_BEFORE_KEYS = {
    "balls", "striker", "scores", "on", "in_hand", "free_ball", "opening", "touching",
    "misses", "break", "start",
}  # fmt: skip
_SHOT_KEYS = {
    "nominated", "first_contact", "potted", "off_table", "jumped", "cue_ball", "after",
    "closest_on_mm",
}  # fmt: skip
_ACTIONS = {"shot", "choose", "toss", "concede"}
_EXPECT_KEYS = {
    "foul", "penalty", "miss", "points", "scores", "next", "choices", "on", "in_hand",
    "free_ball", "touching", "warning", "balls", "respotted", "frame_over", "winner",
    "respotted_black", "fouls", "snookers_required",
}  # fmt: skip


class ScenarioError(ValueError):
    """A scenario that cannot be run as written (bad shape or values)."""


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    clause: str
    source: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Outcome:
    scenario: Scenario
    failures: tuple[str, ...]  # empty when it passed

    @property
    def passed(self) -> bool:
        return not self.failures


# --- loading ---------------------------------------------------------------------------------
def _only(keys: set[str], allowed: set[str], where: str) -> None:
    unknown = sorted(keys - allowed)
    if unknown:
        raise ScenarioError(f"{where}: unknown key {unknown[0]!r}")


def _ids(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(f"{where}: expected a list of ball ids")
    return tuple(value)


def load(paths: Sequence[str | Path]) -> Iterator[Scenario | ScenarioError]:
    """Every scenario under these paths; an unreadable file yields its error instead."""
    for path in paths:
        p = Path(path)
        files = sorted(p.rglob("*.json")) if p.is_dir() else [p]
        for file in files:
            try:
                raw = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                yield ScenarioError(f"{file}: {exc}")
                continue
            items = raw if isinstance(raw, list) else [raw]
            for index, item in enumerate(items):
                where = f"{file}[{index}]"
                if not isinstance(item, dict):
                    yield ScenarioError(f"{where}: expected an object")
                    continue
                try:
                    _only(set(item), _TOP_KEYS, where)
                    name, steps = item.get("name"), item.get("steps")
                    if not isinstance(name, str) or not name:
                        raise ScenarioError(f"{where}: 'name' must be a non-empty string")
                    if "before" not in item or not isinstance(steps, list) or not steps:
                        raise ScenarioError(f"{where}: 'before' and a list of 'steps' needed")
                except ScenarioError as exc:
                    yield exc
                    continue
                clause = item.get("clause", "")
                yield Scenario(name, clause if isinstance(clause, str) else "", where, item)


def initial_state(before: object, where: str = "before") -> FrameState:
    """The state a scenario's `before` describes, with SCENARIOS.md's defaults."""
    if not isinstance(before, dict):
        raise ScenarioError(f"{where}: expected an object")
    _only(set(before), _BEFORE_KEYS, where)
    try:
        balls = load_balls(before.get("balls"), f"{where}.balls")
        in_hand = before.get("in_hand", False)
        if in_hand is True:
            balls.pop(WHITE, None)
        on = before.get("on")
        if on is None:
            on = referee.visit_on([b for b in balls if b != WHITE])
        # RULES.md §10: the start is part of the score; with no `scores`, the frame's first.
        raw_start = before.get("start", {"A": 0, "B": 0})
        start = load_scores(raw_start, f"{where}.start")
        refusal = start_refusal(start)
        if refusal is not None:
            raise ScenarioError(f"{where}.start: {refusal}")
        data = {
            "balls": {b: list(p) for b, p in balls.items()},
            "striker": before.get("striker"),
            "scores": before.get("scores", raw_start),
            "on": on,
            **{k: before[k] for k in _BEFORE_KEYS - {"balls", "striker", "scores", "on", "start"}
               if k in before},
        }  # fmt: skip
        state = FrameState.from_json(data)
    except StateFormatError as exc:
        raise ScenarioError(f"{where}: {exc}") from exc
    if state.scores[0] < start[0] or state.scores[1] < start[1]:
        raise ScenarioError(f"{where}.scores: a score below the start {raw_start}")
    return state


def _shot(value: object, where: str) -> Shot:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected an object")
    _only(set(value), _SHOT_KEYS, where)
    try:
        after = value.get("after", {})
        cue = value.get("cue_ball")
        closest = value.get("closest_on_mm")
        if closest is not None and (not isinstance(closest, int | float) or closest < 0):
            raise ScenarioError(f"{where}.closest_on_mm: expected a distance >= 0")
        jumped = value.get("jumped", False)
        if not isinstance(jumped, bool):
            raise ScenarioError(f"{where}.jumped: expected true or false")
        nominated = value.get("nominated")
        if nominated is not None and not isinstance(nominated, str):
            raise ScenarioError(f"{where}.nominated: expected a ball id or null")
        return Shot(
            first_contact=_ids(value.get("first_contact", []), f"{where}.first_contact"),
            potted=_ids(value.get("potted", []), f"{where}.potted"),
            off_table=_ids(value.get("off_table", []), f"{where}.off_table"),
            jumped=jumped,
            nominated=nominated,
            cue_ball=None if cue is None else load_point(cue, f"{where}.cue_ball"),
            after=make_balls(load_balls(after, f"{where}.after")),
            closest_on_mm=None if closest is None else float(closest),
        )
    except StateFormatError as exc:
        raise ScenarioError(f"{where}: {exc}") from exc


# --- running ---------------------------------------------------------------------------------
def _act(state: FrameState, step: dict[str, Any], where: str) -> tuple[FrameState, Ruling]:
    actions = set(step) & _ACTIONS
    _only(set(step), _ACTIONS | {"expect"}, where)
    if len(actions) != 1:
        raise ScenarioError(f"{where}: exactly one of {sorted(_ACTIONS)} per step")
    (action,) = actions
    value = step[action]
    if action == "shot":
        return referee.strike(state, state.striker, _shot(value, f"{where}.shot"))
    if action == "choose":
        if not isinstance(value, str):
            raise ScenarioError(f"{where}.choose: expected an option name")
        holder = state.pending.holder if state.pending else state.striker
        return referee.choose(state, holder or state.striker, value)
    try:
        player = load_player(value, f"{where}.{action}")
    except StateFormatError as exc:
        raise ScenarioError(str(exc)) from exc
    assert player is not None
    if action == "toss":
        return referee.toss(state, player)
    return referee.concede(state, player)


def _near(a: object, b: tuple[float, float]) -> bool:
    return (
        isinstance(a, list | tuple)
        and len(a) == 2
        and math.hypot(float(a[0]) - b[0], float(a[1]) - b[1]) <= TOLERANCE_MM
    )


def _fmt_pos(p: tuple[float, float] | None) -> object:
    return None if p is None else [round(p[0], 2), round(p[1], 2)]


def _check(expect: dict[str, Any], state: FrameState, ruling: Ruling, where: str) -> list[str]:
    _only(set(expect), _EXPECT_KEYS, f"{where}.expect")
    scores = {"A": state.scores[0], "B": state.scores[1]}
    choices = sorted(state.pending.options) if state.pending else []
    simple: dict[str, Callable[[], object]] = {
        "foul": lambda: ruling.foul,
        "penalty": lambda: ruling.penalty,
        "miss": lambda: ruling.miss,
        "points": lambda: ruling.points,
        "scores": lambda: scores,
        "next": lambda: state.to_act,
        "on": lambda: state.on,
        "in_hand": lambda: state.in_hand,
        "free_ball": lambda: state.free_ball,
        "touching": lambda: state.touching,
        "warning": lambda: ruling.warning,
        "frame_over": lambda: state.frame_over,
        "winner": lambda: state.winner,
        "respotted_black": lambda: state.respotted_black,
        # The player behind needs snookers: the deficit, any start included (RULES.md §10),
        # is more than the points left on the table.
        "snookers_required": lambda: referee.needs_snookers(state),
    }
    failures: list[str] = []
    for key, want in expect.items():
        if key in simple:
            got = simple[key]()
            if key == "scores":
                want = load_scores(want, f"{where}.expect.scores")
                got = state.scores
            elif key == "on" and want is not None:
                load_on(want, f"{where}.expect.on")
            if got != want:
                failures.append(f"{key}: expected {want!r}, got {got!r}")
        elif key == "choices":
            if not isinstance(want, list) or sorted(want) != choices:
                failures.append(f"choices: expected {want!r}, got {choices!r}")
        elif key == "balls":
            table = state.ball_map()
            if not isinstance(want, dict):
                raise ScenarioError(f"{where}.expect.balls: expected an object")
            for ball, pos in want.items():
                got_pos = table.get(ball)
                ok = got_pos is None if pos is None else got_pos is not None and _near(pos, got_pos)
                if not ok:
                    failures.append(f"balls.{ball}: expected {pos!r}, got {_fmt_pos(got_pos)!r}")
        elif key == "fouls":
            # The clauses of every foul the referee called (each rule once): a set.
            called = sorted(c.clause for c in ruling.fouls)
            if not isinstance(want, list) or sorted(want) != called:
                failures.append(f"fouls: expected {want!r}, got {called!r}")
        elif key == "respotted":
            placed = dict(ruling.respotted)
            if not isinstance(want, dict):
                raise ScenarioError(f"{where}.expect.respotted: expected an object")
            if set(want) != set(placed) or not all(_near(want[b], placed[b]) for b in want):
                got = {b: _fmt_pos(p) for b, p in placed.items()}
                failures.append(f"respotted: expected {want!r}, got {got!r}")
    return failures


def run(scenario: Scenario) -> Outcome:
    """Play a scenario's steps and compare every expectation; format errors raise."""
    state = initial_state(scenario.data["before"], f"{scenario.source}.before")
    failures: list[str] = []
    for index, step in enumerate(scenario.data["steps"]):
        where = f"{scenario.source}.steps[{index}]"
        if not isinstance(step, dict):
            raise ScenarioError(f"{where}: expected an object")
        try:
            state, ruling = _act(state, step, where)
        except IllegalRequest as exc:
            failures.append(f"step {index + 1}: refused: {exc.code}: {exc.detail}")
            break
        expect = step.get("expect", {})
        if not isinstance(expect, dict):
            raise ScenarioError(f"{where}.expect: expected an object")
        try:
            found = _check(expect, state, ruling, where)
        except StateFormatError as exc:
            raise ScenarioError(f"{where}: {exc}") from exc
        failures += [f"step {index + 1}: {f}" for f in found]
    return Outcome(scenario, tuple(failures))


def main(argv: Sequence[str]) -> int:
    if not argv:
        print("usage: python -m rules.scenarios PATH [PATH ...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for item in load(argv):
        if isinstance(item, ScenarioError):
            print(f"ERROR {item}")
            failed += 1
            continue
        try:
            outcome = run(item)
        except ScenarioError as exc:
            print(f"ERROR {item.name}: {exc}")
            failed += 1
            continue
        if outcome.passed:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {item.name} ({item.source}): " + "; ".join(outcome.failures))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
