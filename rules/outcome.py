"""How a frame or a match ended, kept apart from what the referee said about a request.

As python-chess has `Outcome(termination, winner)`: a `Ruling` says what happened (fouls,
points, re-spots), an `End` says how a frame or the match finished and who won it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.state import Player


class Termination(StrEnum):
    # A frame ends ...
    POTTED_BLACK = "potted_black"  # ... on the last black potted (§7)
    FOUL_ON_BLACK = "foul_on_black"  # ... on a foul when only the black was left (§7)
    THREE_MISSES = "three_misses"  # ... on a third miss in a row (RULES.md §6)
    # A frame or the match ends ...
    CONCEDED = "conceded"  # ... because a player conceded it
    CLAIMED = "claimed"  # ... because a player away past the grace lost it by claim
    # The match ends ...
    FRAMES = "frames"  # ... when a player has won the frames needed (§8)


@dataclass(frozen=True, slots=True)
class End:
    termination: Termination
    winner: Player
