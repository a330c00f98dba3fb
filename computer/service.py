"""Starting a match against the computer: a member (or a guest) in seat A, the computer's
user for the chosen level in seat B, through the same service as any match. Never rated,
never a ladder's (only a challenge between members is), no shot clock (the computer keeps
none)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.signals import joined
from computer.models import Computer
from game import service as game_service
from game.models import Match, MatchEvent
from rules import setup
from rules.errors import Refused
from rules.state import NO_START, FrameState


class ComputerError(Refused):
    """A refused match against the computer; nothing was made."""


def play_computer(
    user: User, level: str, best_of: int, start: tuple[int, int] = NO_START,
    position: FrameState | None = None,
) -> Match:  # fmt: skip
    """A new match against the computer at `level`, for a member or a guest (a visitor at the
    table: snooker_site/views.py, `play_computer_now`), with a handicap `start` (A: the player,
    B: the computer) if asked. The player breaks first: the computer answers every event of
    its match, so it never has to begin one. With a `position` (a replay's "play from here"),
    one frame set up there, the player to strike (the seats turned round if need be)."""
    if hasattr(user, "computer"):
        raise ComputerError("members_only", "the computer plays people")
    computer = Computer.objects.select_related("user").filter(level=level).first()
    if computer is None:
        raise ComputerError("bad_level", f"no computer plays at {level!r}")
    since = timezone.now() - timedelta(hours=1)
    theirs = Match.objects.filter(player_a=user, player_b__computer__isnull=False)
    if theirs.filter(created__gte=since).count() >= settings.COMPUTER["MATCHES_PER_HOUR"]:
        raise ComputerError("rate_limited", "too many matches against the computer this hour")
    live = settings.COMPUTER["LIVE"]
    if theirs.filter(status=Match.Status.LIVE).count() >= live:
        # Nothing grows without bound: one ends (played out, conceded, or abandoned untouched
        # by club/jobs.py's IDLE_COMPUTER) before another begins.
        raise ComputerError("too_many_live", f"at most {live} live matches against the computer")
    try:
        if position is not None and position.striker != "A":
            position = setup.swapped(position)
        match = game_service.create_match(
            user, computer.user, best_of, draw="A", start=start, position=position
        )
    except game_service.ServiceError as exc:
        raise ComputerError(exc.code, exc.message) from None
    # Started when made, as a practice table: the computer never opens a socket, so the two
    # players are never "at the table together", and the no-show job (club/noshows.py) would
    # abandon an unstarted match in the middle of its play.
    match.started = match.created
    Match.objects.filter(pk=match.pk).update(started=match.started)
    return match


def adopt(guest: User, member: User) -> int:
    """A guest who joins keeps their matches against the computer: they become the new
    member's (accounts.signals.joined). Returns how many moved."""
    if not hasattr(guest, "guest"):
        return 0
    with transaction.atomic():
        rows = Match.objects.filter(player_a=guest, player_b__computer__isnull=False)
        MatchEvent.objects.filter(match__in=rows, actor=guest).update(actor=member)
        return rows.update(player_a=member)


def _joined(sender: object, member: User, previous: User | None, **kwargs: object) -> None:
    if previous is not None:
        adopt(previous, member)


def listen() -> None:
    joined.connect(_joined, dispatch_uid="computer.adopt")
