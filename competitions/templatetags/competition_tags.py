"""The competitions' part of other apps' pages: a match's competition and round (a match's
page and its record)."""

from __future__ import annotations

from typing import Any

from django import template
from django.core.exceptions import ObjectDoesNotExist

from competitions.service import parse_rr_key, shape_of
from competitions.text import round_name, rr_round_name
from rules import bracket as rules

register = template.Library()


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
