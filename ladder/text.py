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
    "cooling_down": gettext_lazy(
        "You and that member met on this ladder lately: neither may challenge the other until "
        "the ladder's cool-down ends."
    ),
    "no_such_match": gettext_lazy("There is no such ladder match of yours."),
    "not_to_be_played": gettext_lazy("This ladder match is no longer waiting to be played."),
    "start_passed": gettext_lazy("A start time must lie ahead."),
    "start_outside_window": gettext_lazy(
        "A start time must leave ten minutes before the match's play-by deadline."
    ),
    "bad_start": gettext_lazy("Give a date and a time to start."),
    "no_proposal": gettext_lazy("No start time is proposed."),
    "own_proposal": gettext_lazy("The other player accepts your proposal."),
    "proposal_changed": gettext_lazy(
        "The proposal changed meanwhile: look at the new time, then accept it or propose another."
    ),
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
