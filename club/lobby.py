"""Reading the lobby from the database: match and challenge rows, the welcome, an update.

Matches against the computer are counted, not listed (issue 42: a member made 20 an hour and
they filled the lobby): `computer_live` in the welcome and in each update, one count query.

Cheap with many lobby sockets and live matches: a match's figures (players, frames, points,
break) come from parsing its stored state, which is done once per version and kept in this
process (`_FIGURES`); a welcome or an update otherwise costs a query for the versions, one for
the numbers watching and one for the challenges.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet
from django.utils import timezone

from accounts.visitors import Visitor
from club import handicaps
from club.models import Challenge, Guest
from club.protocol import server_out
from game.models import Connection, Match
from rules.challenges import Kind, Status
from rules.match import match_from_json, scoreboard


@dataclass(frozen=True, slots=True)
class _Figures:
    """A match's row but the number watching, at one version."""

    status: str
    players: dict[str, str]
    best_of: int
    frames: tuple[int, int]
    scores: tuple[int, int]
    brk: int
    striker: str
    rated: bool
    guest: bool
    practice: bool
    computer: bool
    start: tuple[int, int]


# Whether the computer holds a seat (its user has a `computer` row: computer/models.py).
AGAINST_COMPUTER = Q(player_a__computer__isnull=False) | Q(player_b__computer__isnull=False)
_FIGURES: dict[int, tuple[int, _Figures]] = {}  # match id -> (version, figures)
_FIGURES_KEPT = 5000


def forget() -> None:
    _FIGURES.clear()


def _figures(row: Match, computer: bool) -> _Figures:
    state = match_from_json(row.state)
    board = scoreboard(state)
    return _Figures(
        status="finished" if state.over else "live",
        players={"A": row.player_a.get_username(), "B": row.player_b.get_username()},
        best_of=row.best_of, frames=board.frames, scores=board.scores,
        brk=board.current_break, striker=board.striker, rated=row.rated, guest=row.guest,
        practice=row.practice, computer=computer, start=board.start,
    )  # fmt: skip


def _watching(match_ids: list[int]) -> dict[int, int]:
    if not match_ids:
        return {}
    fresh = timezone.now() - timedelta(seconds=settings.SNOOKER["CONNECTION_STALE"])
    counted = (
        Connection.objects.filter(match_id__in=match_ids, seat="", last_seen__gte=fresh)
        .values("match_id")
        .annotate(n=Count("id"))
        .values_list("match_id", "n")
    )
    return dict(counted)


def match_rows(matches: QuerySet[Match]) -> list[server_out.MatchRow]:
    """Rows for these matches, in the queryset's order."""
    heads = list(matches.values_list("pk", "version", "status"))
    stale = [pk for pk, version, _ in heads if _FIGURES.get(pk, (-1,))[0] != version]
    if stale:
        if len(_FIGURES) > _FIGURES_KEPT:
            _FIGURES.clear()
        loaded = Match.objects.filter(pk__in=stale).select_related("player_a", "player_b")
        computer = ExpressionWrapper(AGAINST_COMPUTER, output_field=BooleanField())
        for row in loaded.only(
            "version", "state", "best_of", "rated", "guest", "practice",
            "player_a__username", "player_b__username",
        ).annotate(against_computer=computer):  # fmt: skip
            _FIGURES[row.pk] = (row.version, _figures(row, bool(row.against_computer)))
    watching = _watching([pk for pk, *_ in heads])
    out = []
    for pk, _, stored in heads:
        kept = _FIGURES.get(pk)
        if kept is None:
            continue  # gone between the two queries
        version, f = kept
        # Abandoning a match changes its status, not its version (nor its kept figures).
        status = stored if stored == Match.Status.ABANDONED else f.status
        out.append(
            server_out.MatchRow(
                id=pk, version=version, status=status,  # type: ignore[arg-type]
                players=f.players,  # type: ignore[arg-type]
                best_of=f.best_of, frames=_pair(f.frames), scores=_pair(f.scores), brk=f.brk,
                striker=f.striker,  # type: ignore[arg-type]
                watching=watching.get(pk, 0), rated=f.rated, guest=f.guest, practice=f.practice,
                computer=f.computer, start=_pair(f.start),
            )
        )  # fmt: skip
    return out


def _pair(pair: tuple[int, int]) -> server_out.Pair:
    return server_out.Pair(A=pair[0], B=pair[1])


def challenge_row(c: Challenge) -> server_out.ChallengeRow:
    start = handicaps.challenge_start(c)
    return server_out.ChallengeRow(
        id=c.pk, version=c.version, kind=c.kind,  # type: ignore[arg-type]
        status=c.status,  # type: ignore[arg-type]
        challenger=c.challenger.get_username(),
        target=c.target.get_username() if c.target is not None else None,
        best_of=c.best_of, shot_clock=c.shot_clock, rated=c.rated,
        guide=c.guide,  # type: ignore[arg-type]
        expires=c.expires,
        match=c.match_id, rematch_of=c.rematch_of_id, handicap=c.handicap,
        start=_pair(start) if start is not None else None,
    )  # fmt: skip


def challenge_rows(challenges: QuerySet[Challenge]) -> list[server_out.ChallengeRow]:
    return [challenge_row(c) for c in challenges.select_related("challenger", "target")]


# --- what the lobby shows ----------------------------------------------------------------------
def live_matches() -> QuerySet[Match]:
    """The public live matches the lobby lists: no practice table, none against the computer."""
    listed = Match.objects.filter(
        status=Match.Status.LIVE, practice=False,
        player_a__computer__isnull=True, player_b__computer__isnull=True,
    )  # fmt: skip
    return listed.order_by("-pk")[: settings.CLUB["LOBBY_MATCHES"]]


def computer_live() -> int:
    """How many matches against the computer are being played (the lobby's count)."""
    return Match.objects.filter(AGAINST_COMPUTER, status=Match.Status.LIVE).count()


def open_challenges(now: datetime) -> QuerySet[Challenge]:
    waiting = Challenge.objects.filter(kind=Kind.OPEN, status=Status.OPEN, expires__gt=now)
    return waiting.order_by("-pk")[: settings.CLUB["LOBBY_CHALLENGES"]]


def my_challenges(user: AbstractBaseUser, now: datetime) -> QuerySet[Challenge]:
    """Waiting challenges from or to `user`, open ones and invitations included."""
    mine = Challenge.objects.filter(Q(challenger=user) | Q(target=user))
    return mine.filter(status=Status.OPEN, expires__gt=now).order_by("-pk")[:50]


# A challenger whose page was between sockets (a reload, a form's redirect) when the challenge
# was accepted missed the notice that takes them to the table: their welcome says it again,
# for this long after the acceptance and until they have come to that table.
JUST_ACCEPTED = timedelta(minutes=2)


def just_accepted(user: AbstractBaseUser, now: datetime) -> QuerySet[Challenge]:
    """`user`'s own challenges accepted within `JUST_ACCEPTED`, whose table is live, may be
    played now (not a ladder match agreed for later) and has not seen them yet."""
    not_come = Q(match__player_a=user, match__arrived_a__isnull=True) | Q(
        match__player_b=user, match__arrived_b__isnull=True
    )
    playable = Q(match__not_before__isnull=True) | Q(match__not_before__lte=now)
    return Challenge.objects.filter(
        not_come, playable, Q(challenger=user), status=Status.ACCEPTED,
        answered__gt=now - JUST_ACCEPTED, match__status=Match.Status.LIVE,
    ).order_by("-pk")[:5]  # fmt: skip


def my_matches(user: AbstractBaseUser) -> QuerySet[Match]:
    mine = Match.objects.filter(Q(player_a=user) | Q(player_b=user), status=Match.Status.LIVE)
    return mine.order_by("-pk")[:20]


def is_guest(user: Visitor) -> bool:
    return bool(user and user.is_authenticated and Guest.objects.filter(user_id=user.pk).exists())


def online_name(user: Visitor) -> str | None:
    """The name `user` is online under: a member's (not a visitor's, not a guest's)."""
    if user is None or not user.is_authenticated or is_guest(user):
        return None
    return str(user.get_username())


def welcome(user: Visitor, lobby: bool) -> server_out.Welcome:
    now = timezone.now()
    you = None
    mine: list[server_out.ChallengeRow] = []
    mine_matches: list[server_out.MatchRow] = []
    if user is not None and user.is_authenticated:
        you = server_out.You(name=user.get_username(), guest=is_guest(user))
        mine = challenge_rows(my_challenges(user, now)) + challenge_rows(just_accepted(user, now))
        if lobby:
            mine_matches = match_rows(my_matches(user))
    return server_out.Welcome(
        lobby=lobby, you=you,
        matches=match_rows(live_matches()) if lobby else [],
        open=challenge_rows(open_challenges(now)) if lobby else [],
        mine=mine, my_matches=mine_matches, computer_live=computer_live() if lobby else 0,
    )  # fmt: skip


def update(match_ids: Iterable[int], challenge_ids: Iterable[int]) -> server_out.Update:
    """The lobby's rows for what changed: public matches and open challenges only (a practice,
    a direct challenge or an invitation is nobody else's business), and the count of matches
    against the computer (never their rows)."""
    matches = Match.objects.filter(pk__in=list(match_ids), practice=False).order_by("-pk")
    matches = matches.filter(player_a__computer__isnull=True, player_b__computer__isnull=True)
    challenges = Challenge.objects.filter(pk__in=list(challenge_ids), kind=Kind.OPEN)
    return server_out.Update(
        matches=match_rows(matches), challenges=challenge_rows(challenges),
        computer_live=computer_live(),
    )  # fmt: skip
