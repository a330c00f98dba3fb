"""How long the computer stands over the ball before it strikes, and how its cue moves then.

A player lines up (the cue swings in onto the line, wider at first) and then settles (still,
on the line) before striking; both take longer the harder the stroke and the less sure the
player. The computer does the same, so that its watchers see its cue, as they would a member's,
for a time that says what kind of stroke is coming: a tap-in quickly, a long cut, a safety or
an escape from a snooker after a longer look, a Novice fidgeting longer than a Pro.

Pure: the times are in units of `base`, the seconds a plain pot takes a Club player (the
server's `COMPUTER["ADDRESS_SECONDS"]`, 1.0; 0 in tests that need no wait). The figures are in
docs/opponent.md, "Addressing the ball".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

# How long each kind of stroke is looked at, against a plain pot (1.0).
KIND_PACE: Final[dict[str, float]] = {"pot": 1.0, "break": 1.4, "safety": 1.8, "escape": 2.2}
# How long each level takes, against the Club player (1.0), and how far off the line its cue
# starts to swing in (radians): a Novice looks longer and wavers more.
LEVEL_PACE: Final[dict[str, float]] = {"novice": 1.35, "club": 1.0, "pro": 0.8}
LEVEL_WAVER: Final[dict[str, float]] = {"novice": 0.07, "club": 0.04, "pro": 0.02}
# A pot's difficulty: a tap-in (close, straight) is 0, a long thin cut about 1.5. Its pace
# runs from POT_EASIEST (a tap-in) up by POT_HARDER per unit of difficulty.
POT_EASIEST: Final = 0.55
POT_HARDER: Final = 0.6
LONG_POT: Final = 2000.0  # mm to the object ball that count as one unit of difficulty
THIN_CUT: Final = 1.2  # radians of cut that count as one unit
MOST_DIFFICULT: Final = 1.5
LINING_SHARE: Final = 0.6  # of the address time, the cue swinging in; the rest still
STEP: Final = 0.15  # seconds between two aims while lining up (the relay's 10 a second at most)


@dataclass(frozen=True, slots=True)
class Address:
    """One address: `lining` seconds swinging in onto the line, then `settling` still on it;
    `aims` are (seconds from the start, angle) to show in order, the last on the meant line."""

    lining: float
    settling: float
    aims: tuple[tuple[float, float], ...]

    @property
    def seconds(self) -> float:
        return self.lining + self.settling


def difficulty(kind: str, distance: float, cut: float) -> float:
    """How hard the stroke looks: for a pot, from its distance (mm, cue ball to object ball)
    and its cut (radians); 1 for any other kind (its pace is its kind's)."""
    if kind != "pot":
        return 1.0
    return min(MOST_DIFFICULT, max(0.0, distance) / LONG_POT + abs(cut) / THIN_CUT)


def address_seconds(kind: str, level: str, distance: float, cut: float, base: float = 1.0) -> float:
    """Seconds from the first aim shown to the strike: the kind's pace (a pot's from its
    difficulty) times the level's, times `base`."""
    pace = KIND_PACE.get(kind, 1.0)
    if kind == "pot":
        pace = POT_EASIEST + POT_HARDER * difficulty(kind, distance, cut)
    return base * pace * LEVEL_PACE.get(level, 1.0)


def address(
    kind: str, level: str, distance: float, cut: float, angle: float, base: float = 1.0
) -> Address:
    """The address of a stroke meant at `angle`: the cue starts `LEVEL_WAVER` off the line,
    swings across it, each swing smaller, and comes to rest on it for the last
    (1 - LINING_SHARE) of the time."""
    total = address_seconds(kind, level, distance, cut, base)
    lining = total * LINING_SHARE
    sure = min(1.0, 0.5 + difficulty(kind, distance, cut))  # a tap-in wavers half as much
    waver = LEVEL_WAVER.get(level, LEVEL_WAVER["club"]) * sure
    aims: list[tuple[float, float]] = []
    steps = math.ceil(lining / STEP) if lining > 0 else 0
    for i in range(steps):
        left = 1.0 - i / steps  # the swing dies away
        at = round(i * lining / steps, 3)  # at most STEP apart
        aims.append((at, angle + waver * left * math.cos(math.pi * i / 2)))
    aims.append((round(lining, 3), angle))
    return Address(lining=lining, settling=total - lining, aims=tuple(aims))
