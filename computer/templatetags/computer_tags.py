"""`{% computer_record member %}`: the member's results against the computer (a section of
the profile, apart from the matches with members); `{% coach_accuracy member %}`: their
accuracy over the frames the computer analysed (docs/coach.md)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AbstractBaseUser

from computer.analysis import average_accuracy
from computer.results import record_of
from computer.views import LEVEL_NAMES

register = template.Library()


@register.inclusion_tag("computer/_record.html")
def computer_record(member: AbstractBaseUser) -> dict[str, Any]:
    names: dict[str, Any] = {str(level): name for level, name in LEVEL_NAMES.items()}
    rows = [(names.get(r.level, r.level), r.played, r.won) for r in record_of(member)]
    return {"rows": rows}


@register.inclusion_tag("computer/_accuracy.html")
def coach_accuracy(member: AbstractBaseUser) -> dict[str, Any]:
    found = average_accuracy(member.pk)
    if found is None:
        return {"frames": 0}
    return {"accuracy": round(found[0]), "frames": found[1]}
