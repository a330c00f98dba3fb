"""Starting a match against the computer: a member in seat A, the computer's user for the
chosen level in seat B, through the same service as any match. Never rated, never a ladder's
(only a challenge between members is), no shot clock (the computer keeps none)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from computer.models import Computer
from game import service as game_service
from game.models import Match
from rules.errors import Refused


class ComputerError(Refused):
    """A refused match against the computer; nothing was made."""


def play_computer(user: User, level: str, best_of: int) -> Match:
    """A new match against the computer at `level`. The member breaks first: the computer
    answers every event of its match, so it never has to begin one."""
    if hasattr(user, "computer") or hasattr(user, "guest"):
        raise ComputerError("members_only", "only members play the computer")
    computer = Computer.objects.select_related("user").filter(level=level).first()
    if computer is None:
        raise ComputerError("bad_level", f"no computer plays at {level!r}")
    since = timezone.now() - timedelta(hours=1)
    started = Match.objects.filter(
        player_a=user, player_b__computer__isnull=False, created__gte=since
    ).count()
    if started >= settings.COMPUTER["MATCHES_PER_HOUR"]:
        raise ComputerError("rate_limited", "too many matches against the computer this hour")
    try:
        match = game_service.create_match(user, computer.user, best_of, draw="A")
    except game_service.ServiceError as exc:
        raise ComputerError(exc.code, exc.message) from None
    # Started when made, as a practice table: the computer never opens a socket, so the two
    # players are never "at the table together", and the no-show job (club/noshows.py) would
    # abandon an unstarted match in the middle of its play.
    match.started = match.created
    Match.objects.filter(pk=match.pk).update(started=match.started)
    return match
