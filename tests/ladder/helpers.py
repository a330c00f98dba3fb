"""Ladders for the tests, through the service, and matches ended as players end them."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.conf import settings

from club import service as club_service
from game import clock
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from ladder import service
from ladder.models import Ladder, LadderChallenge, Rung
from rules.match import match_from_json
from tests.game.helpers import BREAK_AT, BREAK_CUE


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


def each_plays(match: Match, prefix: str = "e", strokes: int = 1) -> None:
    """Both players play `strokes` strokes each (the breaker a break-off, then whoever is to
    act until the other has struck as often too: a choice after a foul is answered "play"),
    through the match service as the page sends them."""
    struck = {"A": 0, "B": 0}
    # Play begins with the match (both at the table together): started here if not yet, its
    # arrivals left as they were (who came is the ladder's default's business).
    Match.objects.filter(pk=match.pk, started__isnull=True).update(started=clock.now())
    for n in range(40 * strokes):
        row = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
        frame = match_from_json(row.state).frame
        seat = frame.to_act
        assert seat is not None, "the frame ended before both played"
        user = row.player_a if seat == "A" else row.player_b
        message: Any
        if frame.pending is not None:
            message = client_in.Choose(
                type="choose", client_id=f"{prefix}{n}", version=row.version, option="play"
            )
        else:
            angle = math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0])
            cue_ball = BREAK_CUE if frame.in_hand else None
            message = client_in.Stroke(
                type="stroke", client_id=f"{prefix}{n}", version=row.version, angle=angle,
                speed=3.0, cue_ball=cue_ball,
            )  # fmt: skip
            struck[seat] += 1
        game_service.submit(match.pk, user, message)
        if min(struck.values()) >= strokes:
            match.refresh_from_db()
            return
    raise AssertionError("both players did not get to strike")


def concede(match: Match, loser: Any, client_id: str = "c", played: bool = True) -> Match:
    """The loser concedes the match, through the match service as the page sends it; by
    default after both players have played enough strokes for a rating (a rated match with
    fewer strokes, or a player who never struck, is not rated: `rules.ratings.rated_effect`)."""
    if played and not Match.objects.filter(pk=match.pk, events__kind="stroke").exists():
        each_plays(match, strokes=-(-settings.RATINGS["MIN_STROKES"] // 2))
    message = client_in.Concede(type="concede", client_id=client_id, scope="match")
    game_service.submit(match.pk, loser, message)
    match.refresh_from_db()
    return match


def row_of(match: Match) -> LadderChallenge:
    return LadderChallenge.objects.get(fixture__match=match)
