"""What a refusal on the competitions says to a person, the rounds' and groups' names and the
tie-breaks' words (the codes:
competitions/service.py, rules/seeding.py, rules/bracket.py; a start time's, the fixtures',
are worded once, by the ladder that had them first: ladder/text.py)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext

from ladder.text import ERRORS as FIXTURE_ERRORS
from rules import bracket as rules
from rules.standings import Criterion

ERRORS: dict[str, Promise] = {
    "not_found": gettext_lazy("There is no such competition."),
    "organisers_only": gettext_lazy("Only an organiser may do this."),
    "members_only": gettext_lazy("Only the club's members may enter."),
    "entry_closed": gettext_lazy("Entry to this competition is closed."),
    "entered_already": gettext_lazy("You have entered already."),
    "not_entered": gettext_lazy("You have not entered this competition."),
    "deadline_passed": gettext_lazy("Entry must close in the future."),
    "drawn_already": gettext_lazy("This competition is drawn already."),
    "not_drawn": gettext_lazy("This competition is not drawn yet."),
    "too_few_entrants": gettext_lazy("A draw needs at least two entrants."),
    "not_flagged": gettext_lazy("This match is not waiting for an organiser's decision."),
    "not_in_match": gettext_lazy("That member does not play this match."),
    "no_such_match": gettext_lazy("There is no such competition match of yours."),
    "not_to_be_played": gettext_lazy("This match is no longer waiting to be played."),
    "bad_format": gettext_lazy("There is no such format."),
    "bad_groups": gettext_lazy("Each group needs at least two entrants."),
    "bad_cycles": gettext_lazy("A round robin is played once or twice round."),
    "bad_advance": gettext_lazy("That many cannot go through from each group."),
    "withdrawn_already": gettext_lazy("This member has withdrawn already."),
    "not_in_play": gettext_lazy("This competition is not in play."),
    "out_already": gettext_lazy("This member is out of the competition already."),
    "no_member": gettext_lazy("There is no member of that name."),
    "full": gettext_lazy("This competition is full."),
    "ladder_only": gettext_lazy("Only the members of this competition's ladder may enter."),
    "not_entrant": gettext_lazy("That member has not entered this competition."),
    "bad_deadline": gettext_lazy("A new deadline must be in the future."),
    "not_recordable": gettext_lazy(
        "Only a match not decided and not begun at the table can be recorded."
    ),
    "bad_frames": gettext_lazy("The winner wins the frames needed, the loser fewer."),
    "bad_seeding": gettext_lazy("There is no such seeding."),
    "no_seeding_ladder": gettext_lazy("Seeding by ladder position needs a ladder."),
    "bad_seed_number": gettext_lazy("A seed number is 1 or more."),
    "seed_number_twice": gettext_lazy("Each seed number may be given to one entrant only."),
    "duplicate_entrant": gettext_lazy("An entrant is listed twice."),
}

# The tie-breaks of a round robin's table, in the words its page lists them
# (rules.standings.CRITERIA gives the order).
CRITERIA: dict[Criterion, Promise] = {
    Criterion.MATCHES_WON: gettext_lazy("matches won"),
    Criterion.FRAME_DIFFERENCE: gettext_lazy("frame difference"),
    Criterion.HEAD_TO_HEAD: gettext_lazy("the head-to-head result between those level"),
    Criterion.FRAMES_WON: gettext_lazy("frames won"),
    Criterion.HIGH_BREAK: gettext_lazy("the highest break"),
    Criterion.SEED: gettext_lazy("the seeding"),
}
# A member's result in a competition so far, on their profile
# (competitions/templatetags/competition_tags.py, `result_of`); "out" names the round.
RESULTS: dict[str, Promise] = {
    "entered": gettext_lazy("entered"),
    "playing": gettext_lazy("playing"),
    "champion": gettext_lazy("champion"),
    "runner_up": gettext_lazy("runner-up"),
    "third": gettext_lazy("third"),
    "fourth": gettext_lazy("fourth"),
    "out": gettext_lazy("out in %(round)s"),
    "out_groups": gettext_lazy("out in the groups"),
    "withdrawn": gettext_lazy("withdrawn"),
    "finished": gettext_lazy("took part"),
}


def result_text(result: str, round_: str = "") -> str:
    return str(RESULTS[result]) % {"round": round_} if result == "out" else str(RESULTS[result])


# A start time's refusals (fixtures/service.py), as the ladder words them.
_STARTS = ("start_passed", "start_outside_window", "bad_start", "no_proposal", "own_proposal",
           "proposal_changed")  # fmt: skip


def error_text(code: str) -> str:
    if code in _STARTS:
        return str(FIXTURE_ERRORS[code])
    return str(ERRORS.get(code, gettext_lazy("That cannot be done now.")))


# The rounds' names (rules.bracket.Stage) but the earlier rounds', which are numbered.
STAGES: dict[rules.Stage, Promise] = {
    rules.Stage.QUARTER_FINAL: gettext_lazy("Quarter-final"),
    rules.Stage.SEMI_FINAL: gettext_lazy("Semi-final"),
    rules.Stage.FINAL: gettext_lazy("Final"),
    rules.Stage.THIRD_PLACE: gettext_lazy("Third-place match"),
    rules.Stage.WINNERS_FINAL: gettext_lazy("Winners' final"),
    rules.Stage.LOSERS_FINAL: gettext_lazy("Losers' final"),
    rules.Stage.GRAND_FINAL: gettext_lazy("Grand final"),
    rules.Stage.GRAND_FINAL_RESET: gettext_lazy("Grand final (reset)"),
}


def round_name(bracket: rules.Bracket, key: rules.Key) -> str:
    """A round's name as the pages word it ("Round 1", "Quarter-final", "Semi-final",
    "Final"; in double elimination "Losers' round 3", "Winners' final", "Grand final")."""
    stage = rules.stage(bracket, key)
    if stage is rules.Stage.LOSERS_ROUND:
        return gettext("Losers' round %(n)s") % {"n": key.round}
    if stage is rules.Stage.ROUND:
        return gettext("Round %(n)s") % {"n": key.round}
    return str(STAGES[stage])


def side_name(bracket: rules.Bracket, side: rules.Side) -> str:
    """A part of the bracket as its page heads it: a knockout's "Bracket"; a double
    elimination's "Winners' bracket", "Losers' bracket" and "Grand final"."""
    if side is rules.Side.LOSERS:
        return gettext("Losers' bracket")
    if side is rules.Side.FINAL:
        return str(STAGES[rules.Stage.GRAND_FINAL])
    if bracket.format is rules.Format.DOUBLE:
        return gettext("Winners' bracket")
    return gettext("Bracket")


def criterion_name(criterion: Criterion) -> str:
    return str(CRITERIA[criterion])


def group_name(number: int) -> str:
    """A round robin's group by its letter ("Group A" for group 1)."""
    return gettext("Group %(letter)s") % {"letter": chr(ord("A") + number - 1)}


def rr_round_name(number: int, group: int | None = None) -> str:
    """A round robin's round ("Round 2"; with `group`, "Group A · Round 2")."""
    name = pgettext("round robin", "Round %(n)s") % {"n": number}
    return name if group is None else f"{group_name(group)} · {name}"
