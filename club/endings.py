"""What a finished match offers the one looking at it (club/_end_actions.html): the rematch
for its players, another practice table, the way back. Shared by the club's end-of-match panel
and the members' record of the match, so it lives outside either's views."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone

from club import lobby, service
from club.forms import FormatForm
from game import service as game_service
from game.models import Match
from rules.challenges import Status


def end_actions(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What `club/_end_actions.html` needs: the viewer's seat, the rematch offer, the form of
    another practice table, and against the computer its level (played again from its page,
    never a rematch: it answers no offer)."""
    seat = game_service.seat_of(match, request.user)
    computer = getattr(match.player_b, "computer", None) if seat is not None else None
    asks = seat is not None and not match.practice and computer is None
    offer = service.rematch_offer(match) if asks else None
    rematch = None
    if offer is not None:
        waiting = offer.status == Status.OPEN and offer.expires > timezone.now()
        mine = offer.challenger_id == request.user.pk
        rematch = {"offer": lobby.challenge_row(offer), "waiting": waiting, "mine": mine}
    practice = FormatForm(initial={"best_of": match.best_of, "shot_clock": match.shot_clock or 0})
    return {"seat": seat, "rematch": rematch, "practice_form": practice, "computer": computer}
