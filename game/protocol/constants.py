"""The figures the browser needs, from the one place each is defined (docs/protocol.md).

The match page renders `page_constants()` into a `json_script` block; the browser reads it
once and writes no rule, dimension or limit of its own. `python -m game.protocol.constants`
prints it (the browser's unit tests load that output from static/js/tests/fixtures/).
"""

from __future__ import annotations

import json
from typing import Any, Final

from game.protocol import (
    CLOSE_FLOOD,
    CLOSE_FULL,
    CLOSE_MOVED,
    CLOSE_NOT_FOUND,
    CLOSE_UNAVAILABLE,
    PROTOCOL_VERSION,
)
from game.protocol.client_in import MAX_SPEED, MISCUE_LIMIT
from rules import chat, table
from rules.physics import constants as physics
from rules.physics import cushion

# Seconds a finished frame's last position stays on the table before the next frame is
# racked (the page shows its result beside it). The breaker's shot clock starts after it.
FRAME_HOLD: Final = 4.0

# Seconds of the cue's swing at a stroke, as every browser draws it (static/js/cueswing.js):
# back from the address, then through to the cue ball, whose balls move only then; and on
# through its place before the cue is put away (drawn while the balls move). The table is
# still the swing's back and through later than the stroke's balls alone (game/turns.py).
CUE_SWING_BACK: Final = 0.32
CUE_SWING_THROUGH: Final = 0.1
CUE_SWING_FOLLOW: Final = 0.24
CUE_LEAD: Final = CUE_SWING_BACK + CUE_SWING_THROUGH

# The slowest stroke the page's power slider offers, in m/s. Not a rule: the protocol takes
# any speed above 0; below this a stroke barely moves the cue ball.
SLIDER_MIN_SPEED: Final = 0.3


def _wall(wall: table.Wall) -> dict[str, list[float]]:
    return {"a": list(wall.a), "b": list(wall.b), "normal": list(wall.normal)}


def chat_constants() -> dict[str, Any]:
    """The chat's limits, preset phrases and report reasons (rules/chat.py; their words:
    static/js/lang), for every page with a chat panel."""
    return {
        "max_length": chat.MAX_LENGTH,
        "presets": list(chat.PRESETS),
        "report_reasons": list(chat.REPORT_REASONS),
    }


def page_constants() -> dict[str, Any]:
    """The table (rules/table.py), the physics the aim guide needs (rules/physics), the stroke
    limits (client_in) and the protocol's figures."""
    return {
        "protocol": PROTOCOL_VERSION,
        "close_codes": {
            "not_found": CLOSE_NOT_FOUND,
            "flood": CLOSE_FLOOD,
            "full": CLOSE_FULL,
            "moved": CLOSE_MOVED,
            "unavailable": CLOSE_UNAVAILABLE,
        },
        "frame_hold": FRAME_HOLD,
        "cue_swing": {
            "back": CUE_SWING_BACK,
            "through": CUE_SWING_THROUGH,
            "follow": CUE_SWING_FOLLOW,
        },
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
            # The cushion impact (rules/physics/cushion.py), for the guide's rebound.
            "cushion": {
                "sin_theta": physics.SIN_THETA,
                "restitution": physics.E_CUSHION,
                # m/s, as the stroke's speeds (the physics has it in mm/s).
                "hard_speed": physics.HARD_CUSHION_SPEED / 1000.0,
                "friction": physics.MU_CUSHION,
                "bed_friction": physics.MU_SLIDE,
                "steps": cushion.STEPS,
            },
        },
        "chat": chat_constants(),
        "stroke": {
            "min_speed": SLIDER_MIN_SPEED,
            "max_speed": MAX_SPEED,
            "miscue_limit": MISCUE_LIMIT,
        },
    }


if __name__ == "__main__":
    print(json.dumps(page_constants(), indent=2))
