"""Words the club's pages and scripts show, each wrapped for translation in one place.

The browser's scripts write no sentence of their own: `catalog()` is rendered into every page
(`club-text`, a JSON block) in the visitor's language, and static/js/clubtext.js fills its
`%(name)s` placeholders. Django's own templates use `{% translate %}` and
`{% blocktranslate %}`, which make the same msgids.

A word that changes with a number in some language ("из 1 партии", "из 3 партий") is sent as
one text per value the club uses (`best_of`: one per format in rules.challenges.BEST_OF), so
that the scripts need no plural rules of their own.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext

from rules.challenges import BEST_OF, Format


def best_of(n: int) -> str:
    """ "best of 3", in the request's language."""
    return ngettext("best of %(n)s", "best of %(n)s", n) % {"n": n}


def catalog() -> dict[str, str | dict[str, str]]:
    return {
        "best_of": {str(n): best_of(n) for n in BEST_OF},
        "shot_clock": gettext("%(n)s s shot clock"),
        "rated": gettext("rated"),
        "friendly": gettext("friendly"),
        "practice": gettext("practice"),
        "guest": gettext("with a guest"),
        "guest_name": gettext("%(name)s (guest)"),
        "versus": gettext("%(a)s v %(b)s"),
        "anyone": gettext("anyone"),
        "invitation": gettext("an invitation link"),
        "challenges_you": gettext("%(name)s challenges you"),
        "offers_rematch": gettext("%(name)s offers a rematch"),
        "you_challenge": gettext("You challenge %(name)s"),
        "open_by": gettext("Open challenge by %(name)s"),
        "accepted": gettext("%(name)s accepted: to the table!"),
        "declined": gettext("%(name)s declined"),
        "withdrawn": gettext("%(name)s withdrew the challenge"),
        "expired_mine": gettext("Your challenge to %(name)s expired"),
        "expired_theirs": gettext("The challenge from %(name)s expired"),
        "abandoned": gettext(
            "Your match with %(name)s was abandoned: you were not at the table together in time"
        ),
        "expires_in": gettext("expires in %(time)s"),
        "watching": gettext("%(n)s watching"),
        "break": gettext("break %(n)s"),
        "reminder": gettext("Your ladder match with %(name)s starts at %(time)s"),
        "go": gettext("Go to the table"),
        "connecting": gettext("Connecting…"),
        "live": gettext("Live"),
        "reconnecting": gettext("Reconnecting…"),
        "site": gettext("Snooker Club"),
    }


def describe_format(fmt: Format) -> str:
    """ "best of 3 · 30 s shot clock · rated": as static/js/clubtext.js's describeFormat."""
    words = [best_of(fmt.best_of)]
    if fmt.shot_clock:
        words.append(gettext("%(n)s s shot clock") % {"n": fmt.shot_clock})
    words.append(gettext("rated") if fmt.rated else gettext("friendly"))
    return " · ".join(words)


# What a refusal says to a person (the codes: rules/challenges.py, club/service.py).
ERRORS: dict[str, Promise] = {
    "bad_format": gettext_lazy("The club does not play that format."),
    "members_only": gettext_lazy(
        "Only members can do that; guests play the friendlies they are invited to."
    ),
    "no_opponent": gettext_lazy("Name the member you challenge."),
    "same_player": gettext_lazy("You cannot challenge yourself."),
    "target_is_guest": gettext_lazy("Guests can only be invited by a link."),
    "bad_challenge": gettext_lazy("That challenge names nobody."),
    "unrated": gettext_lazy("A match with a guest is a friendly: it cannot be rated."),
    "expired": gettext_lazy("This challenge has expired."),
    "answered": gettext_lazy("This challenge has already been answered."),
    "not_yours": gettext_lazy("Only the challenger can withdraw a challenge."),
    "own_challenge": gettext_lazy("You cannot accept your own challenge."),
    "not_for_you": gettext_lazy("This challenge is for someone else."),
    "rate_limited": gettext_lazy("You have made too many challenges this hour; wait a little."),
    "too_many_waiting": gettext_lazy("You have too many challenges waiting; withdraw one first."),
    "already_challenged": gettext_lazy("You have already challenged this member."),
    "busy": gettext_lazy("The club is busy; try again."),
    "not_found": gettext_lazy("There is no such challenge or invitation."),
    "bad_name": gettext_lazy(
        "A name of 1 to 20 letters, digits, spaces, dots, apostrophes or hyphens."
    ),
    "member_name": gettext_lazy(
        "A member of the club has this name, or one like it; pick another."
    ),
    "practice": gettext_lazy("Play a practice table again from the practice page."),
    "computer": gettext_lazy("Play the computer again from its page."),
    "match_not_over": gettext_lazy("A rematch can be offered once the match is over."),
    "not_a_player": gettext_lazy("Only the two players can do that."),
}


def error_text(code: str) -> str:
    found = ERRORS.get(code)
    return str(found) if found is not None else gettext("That cannot be done.")
