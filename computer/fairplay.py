"""No engine help while it matters (docs/security.md, "Engine help"): the Pro's advice is for
practice, never for a match being played for real. Every view that gives a member the engine's
advice (today the practice table's hint) asks `refusal` first.

- A member seated at a live match that is not practice (against a member, a guest or the
  computer) gets no advice anywhere: the match they are playing is where they would use it.
- Nobody gets advice for a position that is, to within the tolerance, the position of a live
  match that is not practice (game/positions.py, the index of live positions): a spectator
  who replays a match's strokes at their own practice table reaches exactly its position.
"""

from __future__ import annotations

from django.db.models import Q

from game import positions
from game.models import Match
from rules.state import FrameState

PLAYING = "playing"
LIVE_POSITION = "live_position"


def refusal(user_id: int, frame: FrameState, table: int | None = None) -> str | None:
    """Why the member `user_id` may not have the engine's advice for `frame` (the position at
    their table `table`), as a refusal code, or None if they may."""
    seated = Match.objects.filter(status=Match.Status.LIVE, practice=False).filter(
        Q(player_a_id=user_id) | Q(player_b_id=user_id)
    )
    if seated.exists():
        return PLAYING
    if positions.live_match_at(frame, besides=table) is not None:
        return LIVE_POSITION
    return None
