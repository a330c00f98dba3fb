"""What a refusal on the ladders says to a person (the codes: rules/ladder.py, ladder/service.py,
and the club's, whose words are club/text.py's)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from club.text import error_text as club_error_text

ERRORS: dict[str, Promise] = {
    "not_on_ladder": gettext_lazy("Join the ladder to challenge on it."),
    "defender_not_on_ladder": gettext_lazy("That member is not on this ladder."),
    "below": gettext_lazy("A ladder challenge goes up: challenge someone above you."),
    "out_of_range": gettext_lazy("That member is too far above you to challenge."),
    "busy": gettext_lazy("You have a ladder challenge or match to settle first."),
    "defender_busy": gettext_lazy("That member has a ladder challenge or match to settle first."),
    "already_on_ladder": gettext_lazy("You are on this ladder already."),
    "closed": gettext_lazy("An organiser puts members on this ladder."),
    "members_only": gettext_lazy("Only members play on the ladders."),
    "not_a_result": gettext_lazy("Only a result can be voided."),
    "voided": gettext_lazy("That result was voided already."),
    "history": gettext_lazy("The ladder's history does not add up; nothing was changed."),
}


def error_text(code: str) -> str:
    found = ERRORS.get(code)
    return str(found) if found is not None else club_error_text(code)
