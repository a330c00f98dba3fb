"""A member's matches against the computer, apart from their matches with members: never
rated, never on a ladder, shown on their profile by level."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from game.models import Match

RECENT = 500  # the matches read for the record (newest first)


@dataclass(frozen=True, slots=True)
class Record:
    level: str
    played: int
    won: int


def record_of(member: AbstractBaseUser) -> list[Record]:
    """Finished matches against each level, and how many the member won, strongest first."""
    rows = (
        Match.objects.filter(
            status=Match.Status.FINISHED, player_a_id=member.pk, player_b__computer__isnull=False
        )
        .select_related("player_b__computer")
        .order_by("-created")[:RECENT]
    )
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for row in rows:
        level = row.player_b.computer.level
        played[level] = played.get(level, 0) + 1
        state = row.state if isinstance(row.state, dict) else {}
        won[level] = won.get(level, 0) + int(state.get("winner") == "A")
    order = ("pro", "club", "novice")
    return [Record(lv, played[lv], won.get(lv, 0)) for lv in order if lv in played]
