"""The index of live positions: where each live match that is not practice stands, so that
engine help is refused for a position being played for real (docs/security.md, "Engine help";
the pure part, what a position is and when two are the same: rules/positions.py).

The index is a column of the match's own row (`Match.position`, under a partial index of the
live matches that are not practice), written by the statement that stores each version
(game/service.py `_store`, game/writes.py): no statement, round trip or transaction more on a
stroke's path, only the key's few bytes and its index entry. A match leaves the index when it
ends or is abandoned (the index's condition) and moves in it with every stroke; every process
reads the same database, so a stroke stored by one is seen by the hint of any other.
"""

from __future__ import annotations

from game.models import Match
from rules import positions
from rules.match import Match as MatchState
from rules.match import match_from_json
from rules.state import FrameState


def key_of(practice: bool, state: MatchState) -> str | None:
    """What `Match.position` holds for a match in `state`: its position's key, or None (a
    practice table, a match over, a frame's opening)."""
    if practice or state.over:
        return None
    found = positions.position_of(state.frame)
    return None if found is None else positions.key(found)


def live_match_at(frame: FrameState, besides: int | None = None) -> int | None:
    """A live match that is not practice (other than `besides`) whose position is `frame`'s
    to within the tolerance, or None. Reads only the few matches filed under the keys such a
    position may have."""
    wanted = positions.position_of(frame)
    if wanted is None:
        return None
    candidates = Match.objects.filter(
        status=Match.Status.LIVE, practice=False, position__in=positions.keys_near(wanted)
    )
    if besides is not None:
        candidates = candidates.exclude(pk=besides)
    for pk, state in candidates.values_list("pk", "state"):
        there = positions.position_of(match_from_json(state).frame)
        if there is not None and positions.near(wanted, there):
            return int(pk)
    return None
