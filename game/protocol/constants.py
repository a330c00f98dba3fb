"""The figures the browser needs, from the one place each is defined (docs/protocol.md).

The match page renders `page_constants()` into a `json_script` block; the browser reads it
once and writes no rule, dimension or limit of its own. `python -m game.protocol.constants`
prints it (the browser's unit tests load that output from static/js/tests/fixtures/).
"""

from __future__ import annotations

import json
from typing import Any, Final

from game.protocol import CLOSE_FLOOD, CLOSE_FULL, CLOSE_NOT_FOUND, PROTOCOL_VERSION
from game.protocol.client_in import MAX_SPEED, MISCUE_LIMIT
from rules import table
from rules.physics import constants as physics

# Seconds a finished frame's last position stays on the table before the next frame is
# racked (the page shows its result beside it). The breaker's shot clock starts after it.
FRAME_HOLD: Final = 4.0

# The slowest stroke the page's power slider offers, in m/s. Not a rule: the protocol takes
# any speed above 0; below this a stroke barely moves the cue ball.
SLIDER_MIN_SPEED: Final = 0.3


def _wall(wall: table.Wall) -> dict[str, list[float]]:
    return {"a": list(wall.a), "b": list(wall.b), "normal": list(wall.normal)}


def page_constants() -> dict[str, Any]:
    """The table (rules/table.py), the physics the aim guide needs (rules/physics), the stroke
    limits (client_in) and the protocol's figures."""
    return {
        "protocol": PROTOCOL_VERSION,
        "close_codes": {"not_found": CLOSE_NOT_FOUND, "flood": CLOSE_FLOOD, "full": CLOSE_FULL},
        "frame_hold": FRAME_HOLD,
        "table": {
            "half_width": table.HALF_WIDTH,
            "half_length": table.HALF_LENGTH,
            "ball_radius": table.BALL_RADIUS,
            "baulk_y": table.BAULK_Y,
            "d_centre": list(table.D_CENTRE),
            "d_radius": table.D_RADIUS,
            "colours": list(table.COLOURS),
            "values": dict(table.VALUES),
            "spots": {ball: list(p) for ball, p in table.SPOTS.items()},
            "pockets": [
                {
                    "name": p.name,
                    "mouth": list(p.mouth),
                    "inward": list(p.inward),
                    "mouth_width": p.mouth_width,
                    "jaws": [{"centre": list(j.centre), "radius": j.radius} for j in p.jaws],
                    "fall_depth": p.fall_depth,
                    "opening": p.opening,
                    "facings": [_wall(w) for w in p.facings],
                    "back": _wall(p.back),
                }
                for p in table.POCKETS
            ],
        },
        # The figures the aim guide (static/js/guide.js) computes a stroke with.
        "physics": {
            "slide_decel": physics.SLIDE_DECEL,
            "roll_decel": physics.ROLL_DECEL,
            "spin_decel": physics.SPIN_DECEL,
            "ball_restitution": physics.E_BALL,
            "ball_friction": [physics.MU_BALL_A, physics.MU_BALL_B, physics.MU_BALL_C],
            "squirt_mass_ratio": physics.SQUIRT_MASS_RATIO,
        },
        "stroke": {
            "min_speed": SLIDER_MIN_SPEED,
            "max_speed": MAX_SPEED,
            "miscue_limit": MISCUE_LIMIT,
        },
    }


if __name__ == "__main__":
    print(json.dumps(page_constants(), indent=2))
