"""The match's words for people, each wrapped for translation in one place: what a refusal
says (the `message` of a socket's `error`, in the socket's language) and a player's name as
a person reads it. The referee's log and calls are worded once, by the table's catalogue
(static/js/lang/, read by game/words.py for the server's pages).

The codes and the rulings stay the protocol's; only what a person reads is chosen here. The
Russian words are the club's rule book's (shared/seed: свободный шар, промах, пропих, ...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

# --- refusals --------------------------------------------------------------------------------
# What a refusal says to a person, by its stable code (docs/protocol.md, "Errors").
ERRORS: dict[str, Promise] = {
    "rate_limited": gettext_lazy("Too many messages at once; slow down."),
    "client_id_reused": gettext_lazy("That request was already made; reload the page."),
    "hello_first": gettext_lazy("The page has not joined the table yet; reload the page."),
    "already_greeted": gettext_lazy("The page joined the table twice; reload the page."),
    "protocol": gettext_lazy("The page is out of date; reload it."),
    "not_a_player": gettext_lazy("Only the two players can do that."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "not_your_choice": gettext_lazy("The decision is your opponent's."),
    "choice_pending": gettext_lazy("A decision must be taken before the next stroke."),
    "toss_pending": gettext_lazy("The draw for the re-spotted black comes first."),
    "stale_version": gettext_lazy("The table changed before your request arrived; look again."),
    "conflict": gettext_lazy("The table changed before your request arrived; look again."),
    "busy": gettext_lazy("The table is busy; try again."),
    "internal": gettext_lazy("The server failed; try again."),
    "no_choice_pending": gettext_lazy("There is nothing to decide."),
    "not_an_option": gettext_lazy("That is not one of the options offered."),
    "no_toss_pending": gettext_lazy("No draw is due."),
    "cue_ball_required": gettext_lazy("The cue ball is in hand: place it in the D."),
    "cue_ball_outside_d": gettext_lazy("The cue ball must be placed in the D."),
    "cue_ball_overlaps": gettext_lazy("The cue ball would touch another ball there."),
    "cue_ball_not_in_hand": gettext_lazy("The cue ball is not in hand."),
    "no_cue_ball": gettext_lazy("The cue ball is not on the table."),
    "bad_nomination": gettext_lazy("That ball cannot be nominated now."),
    "frame_over": gettext_lazy("That frame is already over."),
    "match_over": gettext_lazy("The match is already over."),
    "no_such_frame": gettext_lazy("That frame has not been played."),
    "not_claimable": gettext_lazy(
        "You cannot claim: a claim needs the two of you to have been at the table together,"
        " you at the table now, and your opponent away for the whole grace period or, to"
        " play, not playing for the club's stall time."
    ),
    "not_started": gettext_lazy(
        "The match has not started: play begins when your opponent is at the table too."
    ),
    "abandoned": gettext_lazy(
        "This match was abandoned: the two players were not at the table together in time."
    ),
    "deserted": gettext_lazy("This match was abandoned: both players had left the table."),
    "chat_empty": gettext_lazy("Write something first."),
    "chat_too_long": gettext_lazy("A line is at most 140 characters."),
    "chat_flood": gettext_lazy(
        "Too many lines, or the same line again: wait a few seconds and say something new."
    ),
    "chat_address_flood": gettext_lazy(
        "Too many lines from your address, yours and others' there together: wait a few seconds."
    ),
    "chat_busy": gettext_lazy("The room is busy: wait a moment and say it again."),
    "chat_presets_only": gettext_lazy("Guests may send only the preset phrases."),
    "chat_not_allowed": gettext_lazy("You cannot write in this room."),
    "chat_timed_out": gettext_lazy("You are timed out of the chat."),
    "chat_unknown_preset": gettext_lazy("That is not one of the preset phrases."),
    "chat_no_links": gettext_lazy(
        "New members write no links: a day in the club and a finished match first."
    ),
    "chat_panic": gettext_lazy(
        "For now only members of some standing write here (a week in the club and three"
        " finished matches)."
    ),
    "bad_json": gettext_lazy("The page sent a message the server cannot read."),
    "bad_message": gettext_lazy("The page sent a message the server cannot read."),
    "unknown_type": gettext_lazy("The page sent a message the server cannot read."),
    "invalid": gettext_lazy("The page sent a message the server cannot read."),
    "too_large": gettext_lazy("The page sent a message the server cannot read."),
}
# Refusals of a broken client, where the protocol's detail helps whoever wrote it.
_WITH_DETAIL = frozenset({"bad_json", "bad_message", "unknown_type", "invalid", "too_large"})


def timed_out_text(until: datetime, reason: str) -> str:
    """What a member timed out of the chat is told: until when (UTC), and why."""
    return gettext("You are timed out of the chat until %(until)s UTC: %(reason)s") % {
        "until": until.astimezone(UTC).strftime("%Y-%m-%d %H:%M"),
        "reason": reason,
    }


def error_text(code: str, detail: str = "") -> str:
    """A refusal's words in the active language: the code's sentence, else a general one."""
    found = ERRORS.get(code)
    if found is None:
        return gettext("That cannot be done.")
    if code in _WITH_DETAIL and detail:
        return f"{found} ({detail})"
    return str(found)


def language_of(scope: Mapping[str, Any]) -> str:
    """The language of a socket's page, chosen as Django chooses a page's (LocaleMiddleware):
    the language cookie, else the browser's Accept-Language, else LANGUAGE_CODE."""
    request = HttpRequest()
    cookies = scope.get("cookies")
    request.COOKIES = dict(cookies) if isinstance(cookies, Mapping) else {}
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


# --- the players' names ----------------------------------------------------------------------
# A guest's user is stored as "Name (guest)" ("Name (guest 123)" when that was taken:
# club/service.py), a marker no member's name can carry. The marker is data; the word is
# the page's: "Алиса (гость)". static/js/clubtext.js `shownName` does the same in the browser.
GUEST = re.compile(r"^(?P<name>.+) \(guest(?P<n> \d+)?\)$")


# The computer's users, one a level (computer/migrations/0001_initial.py): names no member can
# take, since those users hold them. Shown as "Computer · Pro" (static/js/clubtext.js too).
COMPUTER = re.compile(r"^computer-(?P<level>novice|club|pro)$")
COMPUTER_NAMES = {
    "novice": gettext_lazy("Computer · Novice"),
    "club": gettext_lazy("Computer · Club"),
    "pro": gettext_lazy("Computer · Pro"),
}


def player_name(username: str) -> str:
    """A player's name as a person reads it, in the active language."""
    computer = COMPUTER.match(username)
    if computer is not None:
        return str(COMPUTER_NAMES[computer["level"]])
    found = GUEST.match(username)
    if found is None:
        return username
    return gettext("%(name)s (guest)") % {"name": found["name"] + (found["n"] or "")}
