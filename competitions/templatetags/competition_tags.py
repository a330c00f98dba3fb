"""The competitions' part of other apps' pages: a match's competition and round (a match's
page and its record), and a member's competitions on their profile; and the addresses a
competition's page names hundreds of times (`player_url`, `match_url`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Exists, OuterRef, Q, Subquery
from django.urls import get_script_prefix, reverse

from competitions.models import Competition, Decision, Entrant, Pairing
from competitions.service import parse_rr_key, shape_of
from competitions.text import result_text, round_name, rr_round_name
from rules import bracket as rules

register = template.Library()


# A competition's page links every entrant, every table's row and every match: `{% url %}`
# reverses each anew (some 80 µs, a quarter of a 128-entrant bracket's page), so the page's
# addresses are reversed once a process (for its script prefix) and kept.
@lru_cache(maxsize=8192)
def _reversed(prefix: str, name: str, arg: str | int) -> str:
    return reverse(name, args=[arg])


@register.filter
def player_url(username: str) -> str:
    """`{{ name|player_url }}`: `{% url 'player' name %}`, reversed once."""
    return _reversed(get_script_prefix(), "player", username)


@register.filter
def match_url(match_id: int) -> str:
    """`{{ id|match_url }}`: `{% url 'match' id %}`, reversed once."""
    return _reversed(get_script_prefix(), "match", match_id)


@register.simple_tag
def competition_of(match: Any) -> dict[str, Any] | None:
    """The competition a match was played in and its round's name ("Quarter-final"; a round
    robin's "Group A · Round 2"); None for
    a match of no competition. No query when the match was read with its fixture's pairing and
    competition (snooker_site/views.py); the round's name needs only the draw's places and
    format ("Losers' round 3", "Grand final")."""
    try:
        pairing = match.fixture.pairing
    except ObjectDoesNotExist:
        return None
    row = pairing.competition
    if pairing.key.startswith("g"):  # a group's match (service.rr_key)
        group, number, _ = parse_rr_key(pairing.key)
        name = rr_round_name(number, group if row.groups > 1 else None)
        return {"competition": row, "round": name}
    if row.slots is None:
        return None
    return {"competition": row, "round": round_name(shape_of(row), rules.Key.parse(pairing.key))}


# The most competitions a profile lists, the newest first.
PROFILE_COMPETITIONS = 20


@register.simple_tag
def competitions_of(member: Any) -> list[dict[str, Any]]:
    """The competitions a member entered, the newest first, each with their result so far
    (`result_of`), in one query: each entry with its competition, and the member's last
    knockout match (its key, whether it is decided and who won it) read beside it."""
    theirs = Pairing.objects.filter(competition=OuterRef("competition")).filter(
        Q(fixture__first=OuterRef("member")) | Q(fixture__second=OuterRef("member"))
    )
    last = theirs.exclude(key__startswith="g").order_by("-pk").values("key")[:1]
    decided = Decision.objects.filter(competition=OuterRef("competition"), key=OuterRef("last"))
    entries = (
        Entrant.objects.filter(member=member)
        .select_related("competition")
        .annotate(last=Subquery(last))
        .annotate(decided=Exists(decided), beaten_by=Subquery(decided.values("winner_id")[:1]))
        .order_by("-competition__created", "-competition__pk")
    )
    shown = []
    for e in entries[:PROFILE_COMPETITIONS]:
        result = result_of(e)
        text = result_text(result["result"], result.get("round", ""))
        shown.append({"competition": e.competition, **result, "text": text})
    return shown


def result_of(entry: Any) -> dict[str, Any]:
    """A member's result in a competition so far, from their entry read by `competitions_of`:
    `result` one of `RESULTS`' keys (entered, playing, champion, runner_up, out, out_groups,
    third, fourth, withdrawn, finished), and for `out` the round they went out in."""
    row: Competition = entry.competition
    me = entry.member_id
    Status = Competition.Status
    if row.champion_id == me:
        return {"result": "champion"}
    if row.status in (Status.OPEN, Status.CLOSED):
        return {"result": "entered"}
    if entry.withdrawn is not None:
        return {"result": "withdrawn"}
    if row.slots is None or (row.group_stage and me not in (row.knockout_seeds or [])):
        if row.slots is not None:
            return {"result": "out_groups"}  # the groups are decided, and they did not go on
        return {"result": "finished" if row.status == Status.FINISHED else "playing"}
    going_on = "finished" if row.status == Status.FINISHED else "playing"
    if entry.last is None or not entry.decided:
        return {"result": going_on}
    key = rules.Key.parse(entry.last)
    if entry.beaten_by == me:
        return {"result": "third" if key.side is rules.Side.THIRD else going_on}
    if key.side is rules.Side.THIRD:
        return {"result": "fourth"}
    if key.side is rules.Side.WINNERS and row.double:
        return {"result": "playing"}  # a winners' match lost drops them to the losers'
    bracket = shape_of(row)
    if rules.stage(bracket, key) in _FINALS:
        return {"result": "runner_up"}
    return {"result": "out", "round": round_name(bracket, key)}


# The matches whose loser is the runner-up (in double elimination the grand final, or its
# reset when played).
_FINALS = (rules.Stage.FINAL, rules.Stage.GRAND_FINAL, rules.Stage.GRAND_FINAL_RESET)
