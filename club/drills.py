"""Drills that keep score at a practice table (docs/coach.md "Drills"; the rules are
rules/drills.py): a run started, kept stroke by stroke, and the scores read for the page.

A run is played at practice tables set up at the drill's positions (`game.service.create_match`
with `position`). After each stroke of such a table the game service sends `stroke_settled`
inside the stroke's transaction; `after_stroke`, its one receiver here, reads the referee's
ruling the drill's way (`rules.drills.step`) and stores the run's score there. A run that
ends ends its table (it answers with a concession, which the game service stores for the
member); a run that goes on at a re-spotted table (long pots) moves to a new table set up at
it, created in the same transaction, and the old one ends with the pot that ended its frame.
So every change is stored before anything is broadcast, and each table rebuilds from its own
events (its first holds its position), with no event the referee does not know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from club import service
from club.models import DrillRun, DrillTable
from club.service import ClubError
from game import service as game_service
from game.models import Match
from rules import commands
from rules import drills as rules
from rules.match import Match as MatchState
from rules.match import Outcome

# Each drill's name and rules as a member reads them, by its key (rules/drills.py).
NAMES: dict[str, Promise] = {
    "line_up": gettext_lazy("The line-up"),
    "t": gettext_lazy("The T"),
    "colours": gettext_lazy("Clearing the colours"),
    "long_pots": gettext_lazy("Long pots from baulk"),
    "cluster": gettext_lazy("A break from a cluster"),
}
WORDS: dict[str, Promise] = {
    "line_up": gettext_lazy(
        "All fifteen reds on the long axis, the colours on their spots, the cue ball in hand. "
        "Make the biggest break: a miss or a foul ends the run."
    ),
    "t": gettext_lazy(
        "Fifteen reds in a T around the pink and the black, the colours on their spots. "
        "Make the biggest break: a miss or a foul ends the run."
    ),
    "colours": gettext_lazy(
        "The six colours on their spots, no reds. Pot them in order, yellow to black: "
        "a miss or a foul ends the run; 27 clears the table."
    ),
    "long_pots": gettext_lazy(
        "A red on the blue spot, the cue ball in hand in the D. Each pot scores one; the red "
        "goes back on the blue spot and the cue ball back in hand. A miss or a foul ends it."
    ),
    "cluster": gettext_lazy(
        "Six reds in a cluster behind the pink, the colours on their spots. Split them and "
        "make a break: a miss or a foul ends the run."
    ),
}
RECENT = 10  # runs in a member's history on the page


def start(user: User, key: str) -> Match:
    """A new run at `key`'s drill: a practice table set up at its start (counted with the
    member's practice tables an hour). A run the member left open (a table given up) ends
    at its score."""
    drill = rules.BY_KEY.get(key)
    if drill is None:
        raise ClubError("no_such_drill", f"no drill {key!r}")
    now = timezone.now()
    with transaction.atomic():
        match = service.practise(user, 1, position=drill.start)
        DrillRun.objects.filter(member=user, ended__isnull=True).update(ended=now)
        run = DrillRun.objects.create(member=user, drill=key, started=now, match=match)
        DrillTable.objects.create(match=match, run=run)
    return match


def after_stroke(
    sender: Any, match: Match, state: MatchState, outcome: Outcome, **kwargs: Any
) -> commands.Command | None:
    """`game.signals.stroke_settled`'s receiver: the drill's rule after a stroke of its table
    (the module's docstring). Answers a concession when the run ends with the table still on."""
    table = DrillTable.objects.select_related("run").filter(match_id=match.pk).first()
    if table is None or table.run.ended is not None:
        return None
    run = table.run
    drill = rules.BY_KEY[run.drill]
    step = rules.step(drill, run.score, outcome.settled, outcome.ruling)
    run.score = step.score
    if not step.goes_on:
        run.ended = timezone.now()
        run.save(update_fields=["score", "ended"])
        return None if state.over else commands.Concede("match")
    if step.next != outcome.settled:
        # The drill re-spots: the run goes on at a new table set up where it says.
        member = match.player_a
        nxt = game_service.create_match(
            member, member, 1, practice=True, guide=match.guide, position=step.next
        )
        DrillTable.objects.create(match=nxt, run=run)
        run.match = nxt
        run.save(update_fields=["score", "match"])
        return None if state.over else commands.Concede("match")
    run.save(update_fields=["score"])
    return None


@dataclass(frozen=True, slots=True)
class Row:
    """A drill on the page: its words, the member's best and runs, the club's best."""

    key: str
    name: str
    rules: str
    best: int | None
    runs: int
    club_best: int | None
    club_holder: str | None


def page(user: User) -> tuple[list[Row], list[DrillRun], DrillRun | None]:
    """The drills page's figures in three queries whatever the numbers: the member's best and
    count per drill, their recent runs, and the club's best per drill with its holder (the
    first to reach it)."""
    mine = {
        r["drill"]: r
        for r in DrillRun.objects.filter(member=user)
        .values("drill")
        .annotate(best=Max("score"), runs=Count("id"))
    }
    recent = list(DrillRun.objects.filter(member=user).order_by("-started")[:RECENT])
    top = DrillRun.objects.filter(drill=OuterRef("drill")).order_by("-score", "started")
    holders = (
        DrillRun.objects.filter(pk=Subquery(top.values("pk")[:1]))
        .select_related("member")
        .only("drill", "score", "member__username")
    )
    club = {r.drill: r for r in holders}
    rows = []
    for d in rules.DRILLS:
        best, holder = mine.get(d.key), club.get(d.key)
        rows.append(
            Row(
                d.key,
                str(NAMES[d.key]),
                str(WORDS[d.key]),
                best["best"] if best else None,
                best["runs"] if best else 0,
                holder.score if holder else None,
                holder.member.get_username() if holder else None,
            )
        )
    running = next((r for r in recent if r.ended is None), None)
    return rows, recent, running


def bests(member: User) -> list[tuple[str, int]]:
    """A member's best run at each drill they tried, in the drills' order (their profile):
    one query."""
    found = dict(
        DrillRun.objects.filter(member=member)
        .values("drill")
        .annotate(best=Max("score"))
        .values_list("drill", "best")
    )
    return [(str(NAMES[d.key]), found[d.key]) for d in rules.DRILLS if d.key in found]


def run_of(match_id: int) -> DrillRun | None:
    """The run a table was played for, if any (the end of a match's panel)."""
    table = DrillTable.objects.select_related("run").filter(match_id=match_id).first()
    return table.run if table is not None else None
