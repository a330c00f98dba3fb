"""Ladders for the tests, through the service, and matches ended as players end them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from club import service as club_service
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from ladder import service
from ladder.models import Ladder, LadderChallenge, Rung


def on_ladder(ladder: Ladder, *users: Any, now: datetime | None = None) -> None:
    """The users join in this order: the first at the top."""
    for user in users:
        service.join(ladder.pk, user, now=now)


def order(ladder: Ladder) -> list[str]:
    """The ladder's members' names, top first."""
    rungs = Rung.objects.filter(ladder=ladder).select_related("member").order_by("position")
    positions = [r.position for r in rungs]
    assert positions == list(range(1, len(positions) + 1)), positions
    return [r.member.get_username() for r in rungs]


def accepted(ladder: Ladder, challenger: Any, defender: Any, now: datetime | None = None) -> Match:
    """A ladder challenge, accepted: its match."""
    done = service.challenge(ladder.pk, challenger, defender, now=now)
    assert done.challenge is not None
    taken = club_service.accept(defender, done.challenge.challenge_id)
    assert taken.match is not None
    return taken.match


def concede(match: Match, loser: Any, client_id: str = "c") -> Match:
    """The loser concedes the match, through the match service as the page sends it."""
    message = client_in.Concede(type="concede", client_id=client_id, scope="match")
    game_service.submit(match.pk, loser, message)
    match.refresh_from_db()
    return match


def row_of(match: Match) -> LadderChallenge:
    return LadderChallenge.objects.get(match=match)
