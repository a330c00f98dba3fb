"""The organisers' fair-play signal (docs/coach.md, "The fair-play signal"): from the analysed
frames of rated matches, how often a member's strokes are the Pro's own
(`rules.opponent.analysis.agrees`) and how few points they lose a stroke, against what the
computer's levels show of their own play. A member past both marks, over enough strokes, is
listed for the organisers with the matches that put them there. Never shown publicly, never
acted on by itself: it is a reason to look, not a verdict.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Final

from django.contrib.auth import get_user_model

from computer.models import Analysis

# Calibrated on the levels' own play (make bench-analysis --level club|pro, 4 frames each,
# docs/coach.md): the Club's strokes are the Pro's 29 % of the time and lose 3.2 points a
# stroke, the Pro's own 60 % and 1.2 (its hand errs, and its search is sampled). A member
# whose strokes are the Pro's half the time or more and lose 1.6 points or fewer plays the
# Pro's game, over enough strokes that luck does not put them there.
AGREE_AT_LEAST: Final = 0.5
LOST_AT_MOST: Final = 1.6
STROKES_AT_LEAST: Final = 60


@dataclass
class Reading:
    """A member's figures over the analysed frames of their rated matches."""

    member: int
    name: str = ""
    strokes: int = 0
    agreed: int = 0
    lost: float = 0.0
    matches: set[int] = field(default_factory=set)

    @property
    def agreement(self) -> float:
        return self.agreed / self.strokes if self.strokes else 0.0

    @property
    def lost_per_stroke(self) -> float:
        return self.lost / self.strokes if self.strokes else 0.0

    @property
    def flagged(self) -> bool:
        return (
            self.strokes >= STROKES_AT_LEAST
            and self.agreement >= AGREE_AT_LEAST
            and self.lost_per_stroke <= LOST_AT_MOST
        )


def readings() -> list[Reading]:
    """Every member's figures over the analysed frames of rated matches (two queries), the
    most agreeing first."""
    rows = Analysis.objects.filter(status=Analysis.Status.DONE, match__rated=True).values_list(
        "match_id", "match__player_a_id", "match__player_b_id", "strokes"
    )
    found: dict[int, Reading] = {}
    for match_id, player_a, player_b, strokes in rows:
        for stroke in strokes:
            member = player_a if stroke["seat"] == "A" else player_b
            reading = found.setdefault(member, Reading(member))
            reading.strokes += 1
            reading.agreed += bool(stroke.get("agrees"))
            reading.lost += float(stroke["lost"])
            reading.matches.add(match_id)
    users = get_user_model().objects.filter(pk__in=found)
    names = defaultdict(str, users.values_list("pk", "username"))
    for reading in found.values():
        reading.name = names[reading.member]
    return sorted(found.values(), key=lambda r: (-r.agreement, r.lost_per_stroke))


def flagged() -> list[Reading]:
    """The members past the marks, for the organisers' page."""
    return [r for r in readings() if r.flagged]
