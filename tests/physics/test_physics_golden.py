"""Golden strokes: a break and everyday shots with their full event logs, stored as JSON under
tests/physics/golden/. Any change to the physics that moves an event shows up here.

The test only ever reads the committed files. Regenerate them on purpose, then review the
diff before committing it:
    make physics-goldens    # .venv/bin/python -m tests.physics.test_physics_golden
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.physics import ShotResult, Strike, simulate
from tests.physics.shots import GOLDEN

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def record(
    balls: dict[str, tuple[float, float]], strike: Strike, result: ShotResult
) -> dict[str, Any]:
    return {
        "balls": {k: list(v) for k, v in sorted(balls.items())},
        "strike": {
            "cue_ball": list(strike.cue_ball),
            "angle": strike.angle,
            "speed": strike.speed,
            "side": strike.side,
            "height": strike.height,
        },
        "first_contact": list(result.first_contact),
        "potted": list(result.potted),
        "truncated": result.truncated,
        "duration": round(result.duration, 6),
        "positions": {k: [round(v[0], 3), round(v[1], 3)] for k, v in result.positions.items()},
        "events": [
            [round(e.time, 6), e.kind.value, *e.balls, *([e.where] if e.where else [])]
            for e in result.events
        ],
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one event to a line, for readable diffs."""
    events = data["events"]
    head = json.dumps({k: v for k, v in data.items() if k != "events"}, indent=1)
    lines = ",\n".join("  " + json.dumps(e) for e in events)
    return head[:-2] + ',\n "events": [\n' + lines + "\n ]\n}\n"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_stroke(name: str) -> None:
    balls, strike = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.json"
    actual = record(balls, strike, simulate(balls, strike))
    stored = json.loads(path.read_text())
    assert json.loads(dump(actual)) == actual  # the writer round-trips
    assert stored["balls"] == actual["balls"] and stored["strike"] == actual["strike"]
    for key in ("first_contact", "potted", "truncated", "duration", "positions"):
        assert stored[key] == actual[key], key
    for k, (want, got) in enumerate(zip(stored["events"], actual["events"], strict=False)):
        assert want == got, f"event {k} differs"
    assert len(stored["events"]) == len(actual["events"])


def write_all() -> None:
    """Rewrite every golden file from the physics as it is now (`make physics-goldens`)."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, (balls, strike) in sorted(GOLDEN.items()):
        actual = record(balls, strike, simulate(balls, strike))
        (GOLDEN_DIR / f"{name}.json").write_text(dump(actual))
        print(f"wrote {name}", file=sys.stderr)


if __name__ == "__main__":
    write_all()
