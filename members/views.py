"""The club's records, public to members and visitors alike: the members' directory, each
member's profile, a finished match's page and the replay of its frames.

Every page costs a bounded number of queries whatever the member's history or the match's
length: totals are aggregated in SQL over the figures stored when each match ended, and a
match's archive is read from its stored events once and then from the cache. Searches and
replays are counted per address (SNOOKER_BROWSE_RATE).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_safe
from django_ratelimit import ALL
from django_ratelimit.core import get_usage

from accounts import limits, zones
from club import drills
from club.endings import end_actions
from game import service as game_service
from game.models import Match
from game.protocol.constants import page_constants
from game.text import player_name
from members.archive import archive, replay_steps
from members.figures import start_of
from members.models import HighBreak, MatchFigures, Member, fold
from rules.state import PLAYERS, opponent

PER_PAGE = 30
MAX_QUERY = 50  # characters of a search kept
RESULTS = 20  # a profile's latest results
BEST_BREAKS = 10
NAMES = 10  # members' names offered as a challenge's opponent is typed
LIVE = 10  # a profile's matches being played

_Row = TypeVar("_Row", MatchFigures, HighBreak)


def _throttled(request: HttpRequest, group: str) -> HttpResponse | None:
    """The 429 page if this address has asked too often (any method), else None."""
    usage: dict[str, Any] | None = get_usage(
        request, group=f"browse_{group}", key=lambda _g, r: limits.client_address(r),
        rate=settings.SNOOKER_BROWSE_RATE, method=ALL, increment=True,
    )  # fmt: skip
    if usage is None or not usage["should_limit"]:
        return None
    return limits.too_many(request, group, max(1, int(usage["time_left"])))


# --- what a member's record counts ------------------------------------------------------------
# Matches between two members: a match against the computer is shown apart (computer/results.py),
# and one with a guest is nobody's record, since a guest is whoever follows an invitation's
# link, the inviter in another browser included (issue 36: a member "won" every match their
# own guest conceded). The same for the directory and the profile.
def between_members(rows: QuerySet[_Row]) -> QuerySet[_Row]:
    """`rows` (figures or breaks, each of a match) of matches between two members only."""
    return rows.exclude(match__player_b__computer__isnull=False).exclude(match__guest=True)


# --- the directory ---------------------------------------------------------------------------
@require_safe
def directory(request: HttpRequest) -> HttpResponse:
    query = str(request.GET.get("q", "")).strip()[:MAX_QUERY]
    if query:
        refused = _throttled(request, "search")
        if refused is not None:
            return refused
    members = (
        Member.objects.filter(user__is_active=True, user__guest__isnull=True)  # members only
        .select_related("user", "user__rating")  # the club's Glicko-2 rating, if any
        .order_by("folded", "user_id")
    )
    if query:
        members = members.filter(folded__contains=fold(query))
    page = Paginator(members, PER_PAGE).get_page(request.GET.get("page"))
    ids = [m.user_id for m in page.object_list]
    played = {
        row["player_id"]: row
        for row in between_members(MatchFigures.objects.filter(player_id__in=ids))
        .values("player_id")
        .annotate(played=Count("id"), won=Count("id", filter=Q(won=True)))
    }
    rows = [
        (m.user, played.get(m.user_id, {"played": 0, "won": 0}), _rating(m.user), _rd(m.user))
        for m in page.object_list
    ]
    return render(request, "members/directory.html", {"query": query, "page": page, "rows": rows})


# --- names as a challenge's opponent is typed -------------------------------------------------
@require_safe
def names(request: HttpRequest) -> JsonResponse:
    """`{"names": [...], "whole": bool}`: up to NAMES members' names that begin with `q`
    (folded as the directory searches), in the directory's order, the asker left out, and
    whether they are all there are (static/js/names.js); for a member only
    (403 otherwise), counted per member (SNOOKER_BROWSE_RATE: 429 and Retry-After over it)."""
    user = request.user
    if not user.is_authenticated or hasattr(user, "guest"):
        return JsonResponse({"names": []}, status=403)
    usage: dict[str, Any] | None = get_usage(
        request, group="browse_names", key=lambda _g, r: f"member:{r.user.pk}",
        rate=settings.SNOOKER_BROWSE_RATE, method=ALL, increment=True,
    )  # fmt: skip
    if usage is not None and usage["should_limit"]:
        wait = max(1, int(usage["time_left"]))
        return JsonResponse({"names": []}, status=429, headers={"Retry-After": str(wait)})
    query = fold(str(request.GET.get("q", "")).strip()[:MAX_QUERY])
    if not query:
        return JsonResponse({"names": [], "whole": True})
    found = list(
        Member.objects.filter(
            user__is_active=True, user__guest__isnull=True, user__computer__isnull=True,
            folded__startswith=query,
        )
        .exclude(user_id=user.pk)
        .order_by("folded", "user_id")
        .values_list("user__username", flat=True)[: NAMES + 1]
    )  # fmt: skip
    # `whole`: these are every member whose name begins so (the page filters them itself
    # as more is typed, without asking again).
    return JsonResponse({"names": found[:NAMES], "whole": len(found) <= NAMES})


def _rd(user: Any) -> float | None:
    """A member's rating's deviation (for its provisional mark), None before any rated match."""
    rating = getattr(user, "rating", None)
    return rating.rd if rating is not None and rating.played else None


def _rating(user: Any) -> int | None:
    """A member's club rating as the pages show it (rounded), None before any rated match."""
    rating = getattr(user, "rating", None)  # none: never rated
    return round(rating.rating) if rating is not None and rating.played else None


# --- a profile -------------------------------------------------------------------------------
def totals(user_id: int) -> dict[str, Any]:
    """A member's figures over every finished match against members (`between_members`):
    one query."""
    figures = between_members(MatchFigures.objects.filter(player_id=user_id))
    sums = figures.aggregate(
        played=Count("id"), won=Count("id", filter=Q(won=True)),
        frames_won=Sum("frames_won"), frames_lost=Sum("frames_lost"),
        highest_break=Max("highest_break"), centuries=Sum("centuries"), fifties=Sum("fifties"),
        breaks=Sum("breaks"), break_points=Sum("break_points"), pots=Sum("pots"),
        attempts=Sum("attempts"), fouls=Sum("fouls"), foul_points=Sum("foul_points"),
        won_on_black=Sum("won_on_black"), won_with_start=Sum("won_with_start"),
    )  # fmt: skip
    out: dict[str, Any] = {k: v or 0 for k, v in sums.items()}
    out["lost"] = out["played"] - out["won"]
    out["pot_success"] = out["pots"] / out["attempts"] * 100 if out["attempts"] else None
    out["average_break"] = out["break_points"] / out["breaks"] if out["breaks"] else None
    return out


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    users = get_user_model().objects.select_related("guest")
    member = get_object_or_404(users, username=username, is_active=True)
    # Breaks made against the computer or a guest are not a member's record.
    best = between_members(HighBreak.objects.filter(player=member)).order_by("-points", "-match_id")
    live = (
        Match.objects.filter(status=Match.Status.LIVE)
        .filter(Q(player_a=member) | Q(player_b=member))
        .select_related("player_a", "player_b")
        .order_by("-created")
    )
    return render(
        request,
        "members/profile.html",
        {
            "member": member,
            # A friend's invited visitor (club.Guest, read with the row): no member to challenge.
            "guest": hasattr(member, "guest"),
            "totals": totals(member.pk),
            "best_breaks": best[:BEST_BREAKS],
            "live": live[:LIVE],
            "drill_bests": drills.bests(member),
        },
    )


# --- a finished match ------------------------------------------------------------------------
def _names(match: Match) -> dict[str, str]:
    """The players' names by seat, as a person reads them (a guest's in the page's language)."""
    return {
        "A": player_name(match.player_a.get_username()),
        "B": player_name(match.player_b.get_username()),
    }


def _handicap(match: Match) -> dict[str, Any]:
    """The match's handicap start for its pages: the points by seat, and who received them
    (None: no start)."""
    start = start_of(match)
    seat = "A" if start[0] else "B" if start[1] else None
    return {"start": {"A": start[0], "B": start[1]}, "start_seat": seat}


def match_record(request: HttpRequest, match: Match) -> HttpResponse:
    """The page of a finished match (snooker_site/views.py hands it over): frame scores,
    breaks, each frame's final position and the referee's log, from what was stored."""
    record = archive(match)
    names = _names(match)
    figures = [(seat, names[seat], record.figures.of(seat)) for seat in PLAYERS]
    winner = record.figures.winner
    result: dict[str, Any] = {"winner": None}
    if winner is not None:
        loser = opponent(winner)
        state = match.state if isinstance(match.state, dict) else {}
        result = {
            "winner": names[winner], "loser": names[loser],
            "frames": (record.figures.of(winner).frames_won, record.figures.of(loser).frames_won),
            "termination": state.get("termination"),
        }  # fmt: skip
    return render(
        request,
        "members/match_record.html",
        {
            "match": match,
            "names": names,
            "archive": record,
            "figures": figures,
            "result": result,
            "positions": {str(f.number): f.final for f in record.frames},
            **_handicap(match),
            **end_actions(request, match),  # a rematch for its players, the way back
            "constants": page_constants(),
        },
    )


def _number(value: object, default: int) -> int:
    try:
        return int(str(value))
    except ValueError:
        return default


@require_safe
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """A frame of a finished match stroke by stroke: `?frame=2&stroke=14` opens frame 2 as
    its 14th stroke is about to be played."""
    refused = _throttled(request, "replay")
    if refused is not None:
        return refused
    match = get_object_or_404(Match.objects.select_related("player_a", "player_b"), pk=match_id)
    if match.status != Match.Status.FINISHED:
        raise Http404("Replays are of finished matches.")
    record = archive(match)
    frame = record.frame(_number(request.GET.get("frame", 1), 1))
    if frame is None:
        raise Http404("No such frame.")
    data = replay_steps(match, frame)
    data["stroke"] = max(0, _number(request.GET.get("stroke", 0), 0))
    names = _names(match)
    return render(
        request,
        "members/replay.html",
        {
            "match": match,
            "names": names,
            "archive": record,
            "frame": frame,
            "replay": data,
            **_handicap(match),
            "constants": page_constants(),
            # The coach's analysis (docs/coach.md) is asked for by a player or an organiser.
            "may_analyse": request.user.is_staff
            or game_service.seat_of(match, request.user) is not None,
        },
    )


# --- the member's time zone -------------------------------------------------------------------
_REGIONS = ("Africa/", "America/", "Antarctica/", "Asia/", "Atlantic/", "Australia/", "Europe/",
            "Indian/", "Pacific/")  # fmt: skip


def _offered() -> list[str]:
    """The zones the form lists: the regions' cities (the zone database's aliases left out), UTC."""
    return ["UTC", *sorted(z for z in zones.known() if z.startswith(_REGIONS))]


@require_http_methods(["GET", "POST"])
def time_zone(request: HttpRequest) -> HttpResponse:
    """Choose the zone times are read and shown in; "" goes back to the browser's. A member's
    choice is kept with their record (and follows them to another browser at login); a
    visitor's in the session."""
    if request.method == "POST":
        refused = _throttled(request, "time_zone")
        if refused is not None:
            return refused
        wanted = str(request.POST.get("zone", ""))
        name = zones.valid(wanted)
        if wanted and name is None:
            return render(
                request, "members/time_zone.html", _zone_page(request, wanted), status=400
            )
        if name:
            request.session[zones.SESSION_KEY] = name
        else:
            request.session.pop(zones.SESSION_KEY, None)
        if request.user.is_authenticated:
            Member.objects.filter(user_id=request.user.pk).update(time_zone=name or "")
        nxt = str(request.POST.get("next", ""))
        safe = url_has_allowed_host_and_scheme(
            nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return redirect(nxt if nxt and safe else "time_zone")
    return render(request, "members/time_zone.html", _zone_page(request, None))


def _zone_page(request: HttpRequest, bad: str | None) -> dict[str, Any]:
    return {
        "zones": _offered(),
        "chosen": zones.chosen(request) or "",
        "browser": zones.valid(request.COOKIES.get(zones.COOKIE)),
        "club_zone": settings.TIME_ZONE,
        "bad": bad,
        "next": str(request.GET.get("next", "")),
    }
