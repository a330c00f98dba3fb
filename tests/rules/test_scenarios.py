"""The golden scenarios under tests/scenarios, and the runner's own contract (SCENARIOS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.scenarios import Scenario, ScenarioError, load, main, run

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
LOADED = list(load([SCENARIOS]))


def test_at_least_150_scenarios_grouped_by_rule() -> None:
    scenarios = [s for s in LOADED if isinstance(s, Scenario)]
    assert len(scenarios) >= 150
    assert len({Path(s.source).parent.name for s in scenarios}) >= 8


def test_every_file_loads() -> None:
    assert [str(e) for e in LOADED if isinstance(e, ScenarioError)] == []


@pytest.mark.parametrize(
    "scenario",
    [s for s in LOADED if isinstance(s, Scenario)],
    ids=lambda s: f"{Path(s.source).parent.name}/{s.name}",
)
def test_scenario(scenario: Scenario) -> None:
    outcome = run(scenario)
    assert outcome.passed, "; ".join(outcome.failures)


EXAMPLE = {
    "name": "in-off while red is on",
    "clause": "§23.1.7",
    "before": {
        "balls": {"white": [0, -1200], "red1": [0, 1000], "black": [0, 1460.5]},
        "striker": "A",
        "scores": {"A": 10, "B": 3},
    },
    "steps": [
        {
            "shot": {"first_contact": ["red1"], "potted": ["white"]},
            "expect": {"foul": True, "penalty": 4, "scores": {"A": 10, "B": 7}, "next": "B",
                       "choices": ["play", "put_back"], "in_hand": True},
        },
        {"choose": "put_back", "expect": {"next": "A", "in_hand": True, "on": "red"}},
    ],
}  # fmt: skip


def _write(tmp_path: Path, data: object, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_runner_passes_the_documented_example(tmp_path: Path, capsys) -> None:
    assert main([str(_write(tmp_path, EXAMPLE))]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"


def test_runner_names_the_failed_field(tmp_path: Path, capsys) -> None:
    wrong = json.loads(json.dumps(EXAMPLE))
    wrong["steps"][0]["expect"]["penalty"] = 5
    assert main([str(_write(tmp_path, [EXAMPLE, wrong]))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 1 failed"
    assert "in-off while red is on" in out[0] and "penalty: expected 5, got 4" in out[0]


def test_runner_checks_the_fouls_called_as_a_set(tmp_path: Path, capsys) -> None:
    right = json.loads(json.dumps(EXAMPLE))
    right["steps"][0]["expect"]["fouls"] = ["§23.1.7"]
    wrong = json.loads(json.dumps(EXAMPLE))
    wrong["name"] = "in-off called as a push"
    wrong["steps"][0]["expect"]["fouls"] = ["§23.1.7", "§23.2.3"]
    assert main([str(_write(tmp_path, [right, wrong]))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 1 failed"
    assert "in-off called as a push" in out[0]
    assert "fouls: expected ['§23.1.7', '§23.2.3'], got ['§23.1.7']" in out[0]


@pytest.mark.parametrize(
    "path",
    [("before", "colour"), ("steps", 0, "shot", "spin"), ("steps", 0, "expect", "calls"),
     ("steps", 1, "jump")],
)  # fmt: skip
def test_unknown_keys_are_errors(tmp_path: Path, capsys, path: tuple[object, ...]) -> None:
    data = json.loads(json.dumps(EXAMPLE))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = 1
    assert main([str(_write(tmp_path, data))]) == 1
    out = capsys.readouterr().out
    assert "unknown key" in out and out.splitlines()[-1] == "0 passed, 1 failed"


def test_unreadable_file_fails(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main([str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 1 failed"


def test_module_entry_point(tmp_path: Path) -> None:
    path = _write(tmp_path, EXAMPLE)
    done = subprocess.run(
        [sys.executable, "-m", "rules.scenarios", str(path)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "1 passed, 0 failed"
