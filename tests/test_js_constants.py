"""The browser writes no rule of its own: its figures come from `page_constants()`.

- The fixture the browser's unit tests load is exactly `page_constants()`.
- No figure of the rules, the table or the protocol appears as a literal in static/js/ or in
  templates/match.html.
- The browser's placement check (in the D, clear of every ball) answers as the referee's
  `placement_refusal` does over a grid of points in and around the D, run under Node.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.protocol.constants import page_constants
from rules.referee import placement_refusal
from rules.table import BALL_RADIUS, BAULK_Y, D_CENTRE, D_RADIUS, SPOTS, Point
from tests.node import node_path

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"
FIXTURE = JS / "tests" / "fixtures" / "constants.json"
SCANNED = [*sorted(JS.rglob("*.js")), ROOT / "templates" / "match.html"]

# A number written in code: not part of a word, a longer number or a hex colour.
NUMBER = re.compile(r"(?<![\w.#])(\d+(?:\.\d+)?)(?![\w.])")

# Round figures (a tenth-multiple up to 100) are also ordinary numbers: a gradient stop, the
# ½ of ½·a·t², a 10-second warning. They count only on a line that speaks of what they
# measure. Small integers (up to 7) are signs and unit vectors everywhere, and count only as
# the protocol version or a ball's value.
POCKET_WORDS = r"pocket|mouth|jaw|knuckle|corner|middle|fall|cushion"
CONTEXT = {
    ("protocol",): r"protocol",
    ("table", "values"): r"(yellow|green|brown|blue|pink|black|red)[\"']?\s*:\s*\d",
    ("table", "pockets"): POCKET_WORDS,
    ("stroke", "miscue_limit"): r"miscue|spin|\btip\b|side|height",
    ("stroke", "min_speed"): r"speed|power",
    ("stroke", "max_speed"): r"speed|power",
}

# Lines that hold a figure by coincidence: (file, a fragment of the line, why it is not a rule).
ALLOWED = [
    (
        "table.js",
        "corner ? 56 : 50",
        "the radius of the hole drawn behind a pocket; the opening itself is drawn by the jaws",
    ),
    ("table.js", "rgba(140,220,150,0.35)", "a colour's red, not a chat line's length"),
    ("zoom.test.js", "pinchOf([140, 300]", "a finger's place on the screen, not a chat line's"),
]


def figures(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], float]]:
    """Every number in the constants, with the keys that lead to it (list indices dropped)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from figures(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            yield from figures(item, path)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield path, abs(float(value))


def context(path: tuple[str, ...]) -> str | None:
    for prefix, words in CONTEXT.items():
        if path[: len(prefix)] == prefix:
            return words
    return None


def watched() -> list[tuple[float, str | None]]:
    """The figures to look for, each with the words a line must hold to count (None: any)."""
    out: set[tuple[float, str | None]] = set()
    for path, value in figures(page_constants()):
        words = context(path)
        if value == 0:
            continue
        if value <= 7 and value.is_integer():
            if path[:1] == ("protocol",) or path[:2] == ("table", "values"):
                out.add((value, words))
        elif value <= 100 and (value * 10).is_integer():
            if words is not None:
                out.add((value, words))
        else:
            out.add((value, None))
    return sorted(out, key=lambda f: (f[0], f[1] or ""))


def literals(text: str, name: str) -> list[str]:
    """The lines of `text` that write one of the watched figures."""
    found = []
    figures_ = watched()
    for number, line in enumerate(text.splitlines(), 1):
        if any(file == name and fragment in line for file, fragment, _ in ALLOWED):
            continue
        for token in NUMBER.findall(line):
            value = float(token)
            for figure, words in figures_:
                if value == figure and (words is None or re.search(words, line, re.IGNORECASE)):
                    found.append(f"{name}:{number}: {token} in {line.strip()}")
    return found


def test_the_fixture_is_page_constants() -> None:
    """To regenerate it:
    .venv/bin/python -m game.protocol.constants > static/js/tests/fixtures/constants.json"""
    assert json.loads(FIXTURE.read_text()) == json.loads(json.dumps(page_constants()))


def test_no_rule_figure_is_written_in_the_browser() -> None:
    found = [hit for path in SCANNED for hit in literals(path.read_text(), path.name)]
    assert not found, "read these from constants.js instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("line", "caught"),
    [
        ("const D_RADIUS = 292;", True),
        ("ctx.arc(0, -1084.5, R, 0, Math.PI);", True),
        ("if (e.code === 4404) stop();", True),
        ("const MAX_SPEED = 10; // m/s", True),
        ("const MISCUE = 0.5;", True),
        ("const MIDDLE_OPENING = 108.0;", True),
        ("const CORNER_KNUCKLE = 15.0;", True),
        ("send({ type: 'hello', protocol: 1 });", True),
        ("const VALUES = { yellow: 2 };", True),
        ("blue: [2, 0], 'Frame 2 to bob'", False),
        ("const BACKOFF = [500, 10000];", False),
        ("wood.addColorStop(0.5, '#7a4724');", False),
        ("el.classList.toggle('low', left <= 10);", False),
        ("const x = 2920; const y = 1.0845;", False),
        ("ctx.fillStyle = '#2920aa';", False),
    ],
)
def test_the_scan(line: str, caught: bool) -> None:
    assert bool(literals(line, "example.js")) is caught


# --- the placement check, JS against the rule --------------------------------------------------


PLACEMENT_JS = """
import { Geometry } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { table, layouts } = JSON.parse(input);
const g = new Geometry(table);
const codes = layouts.map(({ balls, points }) =>
  points.map((p) => { const r = g.placementRefusal(p, balls); return r ? r.code : null; }));
process.stdout.write(JSON.stringify(codes));
"""


def grid_points() -> list[Point]:
    cx, cy = D_CENTRE
    reach = D_RADIUS + 3 * BALL_RADIUS
    steps = 40
    points = [
        (cx - reach + 2 * reach * i / steps, cy - reach + (reach + 2 * BALL_RADIUS) * j / steps)
        for i in range(steps + 1)
        for j in range(steps + 1)
    ]
    # Exactly on the arc and on the baulk line: the line and the arc belong to the D.
    points += [
        (cx + D_RADIUS * math.cos(a), cy + D_RADIUS * math.sin(a))
        for a in (math.pi + math.pi * k / 12 for k in range(13))
    ]
    points += [(cx + D_RADIUS * k / 6, BAULK_Y) for k in range(-7, 8)]
    return points


def layouts() -> list[dict[str, dict[str, Point]]]:
    cx, cy = D_CENTRE
    spots = {c: SPOTS[c] for c in ("yellow", "green", "brown")}
    return [
        {},
        spots,
        {
            **spots,
            "red3": (cx + 40.0, cy - 150.0),  # inside the D
            "red7": (cx - 120.0, cy - D_RADIUS - 20.0),  # just outside the arc
            "blue": (cx + D_RADIUS + 10.0, BAULK_Y + 30.0),  # beyond the baulk line
        },
        # Exactly a diameter from grid points and arc points: touching is refused.
        {"red1": (cx, cy - 2 * BALL_RADIUS), "pink": (cx - D_RADIUS, cy - 2 * BALL_RADIUS)},
    ]


def test_the_browsers_placement_check_is_the_referees() -> None:
    points = grid_points()
    cases = [{"balls": balls, "points": points} for balls in layouts()]
    script = PLACEMENT_JS % json.dumps((JS / "geometry.js").as_uri())
    answer = subprocess.run(
        [node_path(), "--input-type=module", "-e", script],
        input=json.dumps({"table": page_constants()["table"], "layouts": cases}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    browser = json.loads(answer.stdout)
    expected = [[placement_refusal(balls, p) for p in points] for balls in layouts()]
    codes = {c for layout in expected for c in layout}
    assert codes == {None, "cue_ball_outside_d", "cue_ball_overlaps"}  # the grid sees all three
    mismatches = [
        (balls, p, js, py)
        for balls, js_codes, py_codes in zip(layouts(), browser, expected, strict=True)
        for p, js, py in zip(points, js_codes, py_codes, strict=True)
        if js != py
    ]
    assert not mismatches, mismatches[:5]
