"""The API the referee and the server rely on: validation, results, determinism, JSON size."""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules.physics import FIRST_CONTACT_TOLERANCE, EventKind, Strike, simulate
from rules.physics.constants import R
from tests.physics.shots import break_apex

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"speed": 0.0},
        {"speed": -1.0},
        {"speed": 10.0001},
        {"speed": math.nan},
        {"angle": math.inf},
        {"side": 0.5, "height": 0.1},
        {"height": -0.51},
        {"cue_ball": (math.nan, 0.0)},
    ],
)
def test_strike_out_of_range_is_refused(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"cue_ball": (0.0, 0.0), "angle": 0.0, "speed": 1.0, **kwargs}
    with pytest.raises(ValueError):
        Strike(**args)  # type: ignore[arg-type]


def test_strike_limits_are_accepted() -> None:
    Strike((0.0, 0.0), 0.0, 10.0, side=0.3, height=-0.4)
    Strike((0.0, 0.0), 0.0, 1e-3, side=-0.5)


@pytest.mark.parametrize(
    "balls",
    [
        {"red1": (10.0, 0.0)},  # overlaps the cue ball
        {"red1": (0.0, 1800.0)},  # beyond the top cushion
        {"red1": (889.0 - R + 0.1, 500.0)},  # into the side cushion
        {"purple": (100.0, 100.0)},  # not a ball
    ],
)
def test_illegal_layouts_are_refused(balls: dict[str, tuple[float, float]]) -> None:
    with pytest.raises(ValueError):
        simulate(balls, Strike((0.0, 0.0), 0.0, 1.0))


def test_white_in_balls_is_overridden_by_the_strike() -> None:
    r = simulate({"white": (500.0, 500.0)}, Strike((0.0, -500.0), math.pi / 2, 0.2))
    assert r.trajectories["white"][0].x0 == 0.0
    assert r.positions["white"][0] == pytest.approx(0.0)


def test_result_shape() -> None:
    balls, strike = break_apex()
    r = simulate(balls, strike)
    assert list(r.positions) == sorted(r.positions)
    assert set(r.closest_approach) == set(balls)
    assert r.duration == r.events[-1].time
    assert all(e.kind in EventKind for e in r.events)
    assert set(r.trajectories) <= set(balls) | {"white"}
    for segments in r.trajectories.values():
        assert segments[0].t0 == 0.0
        assert all(a.t1 == b.t0 for a, b in itertools.pairwise(segments))


def test_two_balls_hit_at_once_are_both_first_contact() -> None:
    # Two reds side by side, the cue ball straight between them: both touched at one instant.
    r = simulate(
        {"red1": (-R - 0.5, 500.0), "red2": (R + 0.5, 500.0)},
        Strike((0.0, 0.0), math.pi / 2, 2.0),
    )
    assert r.first_contact == ("red1", "red2")
    hits = [e for e in r.events if e.kind is EventKind.BALL_BALL][:2]
    assert hits[1].time - hits[0].time <= FIRST_CONTACT_TOLERANCE


def test_no_contact() -> None:
    r = simulate({"red1": (300.0, 0.0)}, Strike((0.0, 0.0), math.pi / 2, 0.5))
    assert r.first_contact == ()
    assert r.closest_approach["red1"] == pytest.approx(300.0 - 2 * R, abs=1e-9)


def test_closest_approach_of_a_ball_passed_by() -> None:
    # Rolling straight up x = 0 past a red 80 mm to the side: the gap is 80 − 2R.
    r = simulate({"red1": (80.0, 0.0)}, Strike((0.0, -800.0), math.pi / 2, 1.5, height=0.4))
    assert r.first_contact == ()
    assert r.closest_approach["red1"] == pytest.approx(80.0 - 2 * R, abs=1e-6)


def test_a_strike_too_soft_to_move_the_cue_ball_moves_nothing() -> None:
    r = simulate({"red1": (0.0, 300.0)}, Strike((0.0, 0.0), math.pi / 2, 1e-10))
    assert r.events == () and not r.trajectories and r.first_contact == ()
    assert dict(r.positions) == {"red1": (0.0, 300.0), "white": (0.0, 0.0)}
    assert r.closest_approach["red1"] == pytest.approx(300.0 - 2 * R)


def test_hard_bounds_are_reported_not_hung() -> None:
    balls, strike = break_apex()
    r = simulate(balls, strike, max_events=10)
    assert r.truncated and len(r.events) == 10
    r = simulate(balls, strike, max_time=0.5)
    assert r.truncated and r.duration == 0.5
    assert all(e.time <= 0.5 for e in r.events)
    with pytest.raises(ValueError):
        simulate(balls, strike, max_events=0)


def test_break_json_is_small() -> None:
    balls, strike = break_apex()
    data = simulate(balls, strike).to_json()
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) < 30_000
    assert set(data["trajectories"]) <= set(balls) | {"white"}


def test_json_has_the_documented_keys() -> None:
    data = simulate(*break_apex()).to_json()
    assert set(data) == {
        "constants", "duration", "truncated", "first_contact", "potted", "positions",
        "closest_approach", "events", "trajectories",
    }  # fmt: skip


SCRIPT = """
import hashlib, json
from rules.physics import simulate
from tests.physics.shots import GOLDEN
out = hashlib.sha256()
for name in sorted(GOLDEN):
    balls, strike = GOLDEN[name]
    r = simulate(balls, strike)
    out.update(repr((r.events, r.positions, sorted(r.closest_approach.items()))).encode())
    out.update(json.dumps(r.to_json(), sort_keys=True).encode())
print(out.hexdigest())
"""


def test_bit_identical_across_processes() -> None:
    digests = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
            check=True,
        )  # fmt: skip
        digests.add(done.stdout.strip())
    assert len(digests) == 1
