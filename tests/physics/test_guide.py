"""The aim guide (static/js/guide.js) tells the truth: strokes aimed on it go where it said.

The guide is a small JavaScript mirror of the physics' closed forms (the strike and its
squirt, the cloth, the ball-ball impact with its friction). Run under Node over a grid of
cuts, speeds, spins and distances, its first contact, its cue-ball path up to and just after
that contact, and its object-ball direction are held to rules.physics.simulate within 0.3°.
Then cut pots are aimed on the guide alone and played: each drops where it said.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import subprocess
from pathlib import Path
from typing import Any

import pytest

from game.protocol.constants import page_constants
from rules.physics import EventKind, Segment, ShotResult, Strike, simulate
from rules.physics.constants import R
from rules.table import POCKETS
from tests.node import node_path

JS = Path(__file__).resolve().parents[2] / "static" / "js" / "guide.js"
TOLERANCE = math.radians(0.3)

Point = tuple[float, float]

SCRIPT = """
import { Guide } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { table, physics, shots, searches } = JSON.parse(input);
const g = new Guide(table, physics);
const predictions = shots.map(({ cue, aim, balls }) => g.predict(cue, aim, balls));
// Aim at a pocket on the guide alone: the cue angle whose predicted object-ball line passes
// through `target`, by bisection on the side of the line the target lies.
const aimed = searches.map(({ cue, ball, target, speed, side, height, lo, hi }) => {
  const balls = { white: cue, red1: ball };
  const miss = (angle) => {
    const p = g.predict(cue, { angle, speed, side, height }, balls);
    if (p.target !== "red1") return NaN;
    const [dx, dy] = p.objectDir;
    return dx * (target[1] - ball[1]) - dy * (target[0] - ball[0]);
  };
  let a = lo, b = hi, fa = miss(a);
  for (let i = 0; i < 60; i++) {
    const m = 0.5 * (a + b), fm = miss(m);
    if (Math.sign(fm) === Math.sign(fa)) { a = m; fa = fm; } else { b = m; }
  }
  const angle = 0.5 * (a + b);
  return { angle, prediction: g.predict(cue, { angle, speed, side, height }, balls) };
});
process.stdout.write(JSON.stringify({ predictions, aimed }));
"""


def run_guide(shots: list[dict[str, Any]], searches: list[dict[str, Any]]) -> dict[str, Any]:
    constants = page_constants()
    given = {"table": constants["table"], "physics": constants["physics"]}
    answer = subprocess.run(
        [node_path(), "--input-type=module", "-e", SCRIPT % json.dumps(JS.as_uri())],
        input=json.dumps({**given, "shots": shots, "searches": searches}),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: dict[str, Any] = json.loads(answer.stdout)
    return result


def angle_between(u: Point, v: Point) -> float:
    cross = u[0] * v[1] - u[1] * v[0]
    dot = u[0] * v[0] + u[1] * v[1]
    return abs(math.atan2(cross, dot))


def segment_at(segments: tuple[Segment, ...], t: float) -> Segment:
    starts = [s.t0 for s in segments]
    return segments[bisect.bisect_right(starts, t) - 1]


def first_hit(result: ShotResult) -> Any:
    return next(e for e in result.events if e.kind is EventKind.BALL_BALL)


def distance_to_path(p: Point, path: list[list[float]]) -> float:
    best = math.inf
    for a, b in itertools.pairwise(path):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        k = 0.0 if length2 == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
        k = min(1.0, max(0.0, k))
        best = min(best, math.hypot(p[0] - a[0] - k * dx, p[1] - a[1] - k * dy))
    return best


CUE = (0.0, -700.0)
SPINS = [(0.0, 0.0), (0.0, 0.4), (0.0, -0.45), (0.3, 0.0), (-0.35, 0.2), (0.25, -0.3)]


def grid() -> list[tuple[float, float, float, float, float]]:
    """(cut in degrees, distance to the ghost in mm, speed m/s, side, height)."""
    return [
        (cut, dist, speed, side, height)
        for cut in (0.0, 12.0, 30.0, 47.0, 65.0, -25.0)
        for dist in (150.0, 900.0)
        for speed in (0.6, 1.8, 5.0)
        for side, height in SPINS
    ]


def layout(cut: float, dist: float, side: float) -> tuple[Point, float]:
    """The red for a `cut`-degree contact `dist` mm ahead, and the cue angle (squirt allowed
    for) whose cue-ball line reaches it there."""
    ghost = (CUE[0], CUE[1] + dist)
    phi = math.radians(cut)
    red = (ghost[0] + 2 * R * math.sin(phi), ghost[1] + 2 * R * math.cos(phi))
    angle = math.pi / 2 - Strike(CUE, 0.0, 1.0, side=side).squirt()
    return red, angle


def test_the_guide_is_the_physics_over_a_grid_of_strokes() -> None:
    cases = grid()
    shots = []
    for cut, dist, speed, side, height in cases:
        red, angle = layout(cut, dist, side)
        aim = {"angle": angle, "speed": speed, "side": side, "height": height}
        shots.append({"cue": list(CUE), "aim": aim, "balls": {"white": list(CUE), "red1": red}})
    predictions = run_guide(shots, [])["predictions"]
    checked = 0
    for (cut, dist, speed, side, height), shot, pred in zip(cases, shots, predictions, strict=True):
        aim = shot["aim"]
        strike = Strike(CUE, aim["angle"], speed, side=side, height=height)
        result = simulate({"red1": tuple(shot["balls"]["red1"])}, strike)
        where = (cut, dist, speed, side, height)
        if not result.first_contact:
            assert pred["target"] is None, where  # it stops short, as the guide says
            continue
        assert pred["target"] == "red1", where
        hit = first_hit(result)
        cue_at = hit.positions[hit.balls.index("white")]
        # The cue ball's path up to the contact: its line (squirt included) and the ghost.
        assert math.dist(cue_at, pred["ghost"]) < 1e-3, where
        travelled = (cue_at[0] - CUE[0], cue_at[1] - CUE[1])
        assert angle_between(travelled, tuple(pred["dir"])) < TOLERANCE, where
        # The object ball's line (throw included).
        red = segment_at(result.trajectories["red1"], hit.time)
        assert angle_between((red.vx, red.vy), tuple(pred["objectDir"])) < TOLERANCE, where
        # The cue ball just after the contact: its direction, and its path (the slide's curve)
        # up to its next event, within the 600 mm the guide draws.
        white = segment_at(result.trajectories["white"], hit.time)
        after = tuple(pred["cueAfter"]["v"])
        if math.hypot(white.vx, white.vy) > 20.0:
            assert angle_between((white.vx, white.vy), after) < TOLERANCE, where
        for k in range(1, 6):
            t = hit.time + (white.t1 - hit.time) * k / 5
            p = white.position(t)
            if math.dist(p, cue_at) < 450.0:
                assert distance_to_path(p, pred["cuePath"]) < 0.5, (where, k)
        checked += 1
    assert checked > 150


def pocket_target(name: str) -> Point:
    pocket = next(p for p in POCKETS if p.name == name)
    return (
        pocket.mouth[0] + pocket.inward[0] * 20.0,
        pocket.mouth[1] + pocket.inward[1] * 20.0,
    )


CUT_POTS = [
    # (object ball, pocket, cut side: which way of the straight line the cue ball stands)
    ((600.0, 1300.0), "top_right", 20.0),
    ((500.0, 1200.0), "top_right", 32.0),
    ((400.0, 1450.0), "top_right", 40.0),
    ((-450.0, 1350.0), "top_left", -28.0),
    ((600.0, 250.0), "middle_right", 35.0),
    ((-650.0, -300.0), "middle_left", -25.0),
    ((500.0, -1300.0), "bottom_right", 38.0),
    ((-500.0, -1400.0), "bottom_left", -22.0),
    ((300.0, 1500.0), "top_right", 30.0),
]


@pytest.mark.parametrize(
    ("speed", "side", "height"), [(1.2, 0.0, 0.0), (2.0, 0.3, 0.2), (1.8, -0.3, -0.3)]
)
def test_cut_pots_aimed_on_the_guide_drop(speed: float, side: float, height: float) -> None:
    searches = []
    for ball, pocket, cut in CUT_POTS:
        target = pocket_target(pocket)
        along = math.atan2(target[1] - ball[1], target[0] - ball[0])
        # The cue ball 600 mm back along a line `cut` degrees off the pot's line.
        back = along + math.radians(cut)
        ghost = (ball[0] - 2 * R * math.cos(along), ball[1] - 2 * R * math.sin(along))
        cue = (ghost[0] - 600.0 * math.cos(back), ghost[1] - 600.0 * math.sin(back))
        centre = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
        centre -= Strike(cue, 0.0, 1.0, side=side).squirt()
        searches.append({
            "cue": list(cue), "ball": list(ball), "target": list(target), "speed": speed,
            "side": side, "height": height, "lo": centre - 0.035, "hi": centre + 0.035,
        })  # fmt: skip
    aimed = run_guide([], searches)["aimed"]
    for search, answer in zip(searches, aimed, strict=True):
        pred = answer["prediction"]
        assert pred["target"] == "red1", search
        strike = Strike(tuple(search["cue"]), answer["angle"], speed, side=side, height=height)
        result = simulate({"red1": tuple(search["ball"])}, strike)
        hit = first_hit(result)
        red = segment_at(result.trajectories["red1"], hit.time)
        assert angle_between((red.vx, red.vy), tuple(pred["objectDir"])) < TOLERANCE, search
        assert "red1" in result.potted, search
