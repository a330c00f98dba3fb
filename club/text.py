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

from club import positions
from game.text import COMPUTER_NAMES, player_name
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
        "short_guide": gettext("short aim guide"),
        "practice": gettext("practice"),
        # A friendly's handicap (docs/handicaps.md): asked, not yet worked out (an open
        # challenge nobody has taken); worked out as none (equal ratings); who receives what.
        "handicap": gettext("handicap"),
        "handicap_even": gettext("handicap: no start"),
        "handicap_receives": gettext("handicap: %(name)s receives %(n)s"),
        "guest": gettext("with a guest"),
        "guest_name": gettext("%(name)s (guest)"),
        "computer_names": {level: str(name) for level, name in COMPUTER_NAMES.items()},
        "versus": gettext("%(a)s v %(b)s"),
        "practice_table": gettext("%(name)s's practice table"),
        "frames_score": gettext("frames %(score)s"),
        "points_score": gettext("points %(score)s"),
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
        "deserted": gettext("Your match with %(name)s was abandoned: you had both left the table"),
        "expires_in": gettext("expires in %(time)s"),
        "watching": gettext("%(n)s watching"),
        "computer_live": gettext("Matches against the computer now: %(n)s"),
        "online_more": gettext("and %(n)s more"),
        "challenge_name": gettext("Challenge %(name)s"),
        "break": gettext("break %(n)s"),
        "reminder": gettext("Your ladder match with %(name)s starts at %(time)s"),
        # A competition's news for one of its players (`competition_notice`: notices.js).
        "competition_drawn": gettext("%(competition)s is drawn"),
        "competition_opponent": gettext("%(competition)s: your next match is against %(name)s"),
        "competition_proposed": gettext(
            "%(competition)s: %(by)s proposes to start your match at %(time)s"
        ),
        "competition_proposed_mine": gettext(
            "%(competition)s: you propose to %(name)s to start your match at %(time)s"
        ),
        "competition_through": gettext("%(competition)s: you beat %(name)s and go through"),
        "competition_through_alone": gettext("%(competition)s: you go through"),
        "competition_out": gettext("%(competition)s: %(name)s beat you; you are out"),
        "competition_out_alone": gettext("%(competition)s: you are out"),
        "competition_champion": gettext("%(competition)s: you are the champion!"),
        "to_competition": gettext("To the competition"),
        "go": gettext("Go to the table"),
        "connecting": gettext("Connecting…"),
        "live": gettext("Live"),
        "reconnecting": gettext("Reconnecting…"),
        # Why the lobby reconnects, when the server said (its close code: clubsocket.js).
        "why_unavailable": gettext("the server is briefly unavailable"),
        "why_moved": gettext("moving to a less busy server"),
        "why_flood": gettext("too many messages"),
        "why_full": gettext("too many connections from here"),
        "site": gettext("Snooker Club"),
    }


def describe_format(fmt: Format) -> str:
    """ "best of 3 · 30 s shot clock · rated": as static/js/clubtext.js's describeFormat."""
    words = [best_of(fmt.best_of)]
    if fmt.shot_clock:
        words.append(gettext("%(n)s s shot clock") % {"n": fmt.shot_clock})
    words.append(gettext("rated") if fmt.rated else gettext("friendly"))
    if fmt.guide == "short":
        words.append(gettext("short aim guide"))
    return " · ".join(words)


def describe_handicap(start: tuple[int, int] | None, asked: bool, a: str, b: str | None) -> str:
    """ "handicap: bob receives 28", as static/js/clubtext.js's handicapText: `start` (A, B)
    between `a` and `b`; "handicap" when one was `asked` and is not worked out yet (None),
    "handicap: no start" when it came to none; "" for no handicap."""
    if start is not None and max(start) > 0:
        seat = 0 if start[0] else 1
        name = player_name(a if seat == 0 else (b or ""))
        return gettext("handicap: %(name)s receives %(n)s") % {"name": name, "n": start[seat]}
    if not asked:
        return ""
    return gettext("handicap") if start is None else gettext("handicap: no start")


# What a refusal says to a person (the codes: rules/challenges.py, club/service.py).
ERRORS: dict[str, Promise] = {
    "bad_format": gettext_lazy("The club does not play that format."),
    "members_only": gettext_lazy(
        "Only members can do that; guests play the friendlies they are invited to."
    ),
    "no_opponent": gettext_lazy("Name the member you challenge."),
    "same_player": gettext_lazy("You cannot challenge yourself."),
    "target_is_guest": gettext_lazy("Guests can only be invited by a link."),
    "not_playable": gettext_lazy(
        "Nobody plays that account by a challenge: it is closed, or it is the computer's."
    ),
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
    "blocked": gettext_lazy("This member takes no challenges from you."),
    "busy": gettext_lazy("The club is busy; try again."),
    "not_found": gettext_lazy("There is no such challenge or invitation."),
    "no_such_drill": gettext_lazy("There is no such drill."),
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


HANDICAP_ERRORS: dict[str, Promise] = {
    "not_organiser": gettext_lazy("Only the club's organisers set handicaps."),
    "bad_reason": gettext_lazy("Give a reason of at most 200 characters."),
    "bad_rating": gettext_lazy("A rating from 500 to 2900."),
    "no_override": gettext_lazy("This member's handicap already comes from the club rating."),
}


def handicap_refusal(code: str) -> str:
    """An organiser's override refused (club/handicaps.py), in the page's language."""
    found = HANDICAP_ERRORS.get(code)
    return str(found) if found is not None else gettext("That cannot be done.")


# The position editor's refusals (club/positions.py; the referee's codes: rules/setup.py).
POSITION_ERRORS: dict[str, Promise] = {
    "bad_payload": gettext_lazy("The position could not be read; reload the editor."),
    "position_name": gettext_lazy("Give the position a name of 1 to %(max_name)s characters."),
    "bad_score": gettext_lazy("A score is at most %(max_score)s."),
    "balls_overlap": gettext_lazy("Two balls overlap: move one of them apart."),
    "ball_off_table": gettext_lazy("A ball is off the bed of the table."),
    "bad_ball_on": gettext_lazy("That ball cannot be on with these balls on the table."),
    "bad_position": gettext_lazy(
        "The referee cannot play from this position: it needs an object ball, and a cue ball "
        "on the table or in hand."
    ),
    "too_many_positions": gettext_lazy(
        "You keep %(max_positions)s positions at most: delete one before saving another."
    ),
    "members_only": gettext_lazy("The position editor is for members."),
    "not_found": gettext_lazy("There is no such position of yours."),
    "no_stroke_here": gettext_lazy("No stroke was due at that point of the frame."),
}


def position_refusal(code: str) -> str:
    """A refusal of the position editor's (or of a position's table), in the page's language,
    its figures the club's own."""
    found = POSITION_ERRORS.get(code)
    if found is None:
        return gettext("That cannot be done.")
    figures = {"max_name": positions.MAX_NAME, "max_score": positions.MAX_SCORE,
               "max_positions": positions.MAX_POSITIONS}  # fmt: skip
    return str(found) % figures


# The ball on, as the position editor and a saved position's page say it (rules.state ON_VALUES).
BALL_ON: dict[str, Promise] = {
    "red": gettext_lazy("a red"),
    "colour": gettext_lazy("a colour (after a red)"),
    "yellow": gettext_lazy("the yellow"),
    "green": gettext_lazy("the green"),
    "brown": gettext_lazy("the brown"),
    "blue": gettext_lazy("the blue"),
    "pink": gettext_lazy("the pink"),
    "black": gettext_lazy("the black"),
}
