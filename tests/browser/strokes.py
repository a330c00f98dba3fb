"""Finding strokes for the scripted match with the real rules core (pure, no Django).

The browser plays what the server will simulate; these helpers pick an aim whose outcome is
known in advance (physics and referee are deterministic), so the script does not depend on
the exact figures of the physics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rules.commands import Stroke
from rules.referee import Ruling, calls
from rules.state import FrameState
from rules.stroke import play_stroke
from rules.table import BALL_RADIUS, POCKETS, is_red

Point = tuple[float, float]


@dataclass(frozen=True)
class Found:
    angle: float
    speed: float
    ruling: Ruling
    potted: tuple[str, ...]
    calls: tuple[str, ...]  # the referee's words


def frame_of(snapshot: dict[str, Any]) -> FrameState:
    return FrameState.from_json(snapshot["frame"])


def search(
    frame: FrameState,
    seat: str,
    candidates: Iterable[tuple[float, float]],
    want: Callable[[Ruling, Any], bool],
    cue_ball: Point | None = None,
) -> Found:
    for angle, speed in candidates:
        stroke = Stroke(angle=angle, speed=speed, cue_ball=cue_ball)
        after, ruling, result = play_stroke(frame, seat, stroke)  # type: ignore[arg-type]
        if want(ruling, result):
            return Found(angle, speed, ruling, tuple(result.potted), calls(ruling, after))
    raise AssertionError("no stroke found with the wanted outcome")


def around(
    angle: float, speed: float, steps: int = 60, step: float = 0.0005
) -> list[tuple[float, float]]:
    """The angle, then small deviations either side."""
    out = [(angle, speed)]
    for k in range(1, steps):
        out += [(angle + k * step, speed), (angle - k * step, speed)]
    return out


def break_off(frame: FrameState, cue: Point, speed: float) -> Found:
    """A break that first hits a red and is no foul (as the live tests' break)."""
    target = (120.0, 1127.65)
    angle = math.atan2(target[1] - cue[1], target[0] - cue[0])
    return search(frame, frame.striker, around(angle, speed), lambda r, _: not r.foul, cue)


def hit_nothing(frame: FrameState, speed: float) -> Found:
    """A slow stroke into open cloth: the cue ball touches no ball (a foul)."""
    balls = dict(frame.balls)
    cue = balls["white"]

    def clearance(angle: float) -> float:
        dx, dy = math.cos(angle), math.sin(angle)
        best = math.inf
        for ball, p in balls.items():
            if ball == "white":
                continue
            ox, oy = p[0] - cue[0], p[1] - cue[1]
            along = ox * dx + oy * dy
            perp = abs(ox * dy - oy * dx)
            if along > 0 and perp < 2 * BALL_RADIUS + 20:
                best = min(best, along)
        return best

    angles = sorted((k * math.pi / 180 for k in range(-180, 180)), key=clearance, reverse=True)
    return search(
        frame, frame.striker, [(a, speed) for a in angles],
        lambda r, res: r.foul and not res.first_contact,
    )  # fmt: skip


def pot_a_red(
    frame: FrameState,
    speeds: Iterable[float] = (1.6, 2.4, 3.2),
    also: Callable[[Any], bool] = lambda _: True,
) -> Found:
    """A fair stroke that pots at least one red, the straightest first (and, if given, whose
    shot `also` accepts)."""
    balls = dict(frame.balls)
    cue = balls["white"]
    candidates: list[tuple[float, float, float]] = []
    for red, p in balls.items():
        if not is_red(red):
            continue
        for pocket in POCKETS:
            aim_at = (
                pocket.mouth[0] + pocket.inward[0] * 15,
                pocket.mouth[1] + pocket.inward[1] * 15,
            )
            ux, uy = aim_at[0] - p[0], aim_at[1] - p[1]
            n = math.hypot(ux, uy)
            ux, uy = ux / n, uy / n
            ghost = (p[0] - 2 * BALL_RADIUS * ux, p[1] - 2 * BALL_RADIUS * uy)
            gx, gy = ghost[0] - cue[0], ghost[1] - cue[1]
            cut = math.acos(max(-1.0, min(1.0, (gx * ux + gy * uy) / math.hypot(gx, gy))))
            if cut < math.radians(55):
                candidates.append((cut + n / 4000, math.atan2(gy, gx), 0.0))
    candidates.sort()
    tries = [
        (angle + k * 0.0004 * sign, speed)
        for _, angle, _ in candidates[:40]
        for speed in speeds
        for k in range(0, 4)
        for sign in ((1,) if k == 0 else (1, -1))
    ]
    return search(
        frame, frame.striker, tries,
        lambda r, res: not r.foul and r.points >= 1 and "white" not in res.potted and also(res),
    )  # fmt: skip
