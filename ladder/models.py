"""The club's ladders: what is stored (ladder/service.py writes all of it).

- `Ladder`: one ladder and its settings (several may exist: the main one and, say, a juniors').
- `Rung`: a member's place on a ladder. The positions are derived data, kept for cheap pages:
  the truth is the ladder's history (`HistoryEntry`), whose entries that stand fold into the
  same order (`rules.ladder.replay`); voiding a result is folding again without it.
- `LadderChallenge`: a challenge on a ladder, from the club's challenge (`club.Challenge`,
  kind "ladder": the notices, the answer, the match) to its settlement; the match to be
  played is its fixture (`fixtures.Fixture`: the window, the agreed start, who came, the
  default when it is not played), whose decision the ladder applies.

The ratings a ladder match moves are the club's (ratings/models.py): the ladder keeps the
positions beside them.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from members.models import MatchFigures
from rules.challenges import BEST_OF, SHOT_CLOCKS
from rules.ladder import COOLDOWN, PLACES_ABOVE, Absent, DefaultRule

RESERVED_SLUGS = ("history",)  # /ladder/history/ is every ladder's history


def _not_reserved(slug: str) -> None:
    if slug in RESERVED_SLUGS:
        raise ValidationError(_("“%(slug)s” names a page of the ladders."), params={"slug": slug})


def _positive(value: timedelta) -> None:
    if value <= timedelta(0):
        raise ValidationError(_("A time must be longer than nothing."))


def _not_negative(value: timedelta) -> None:
    if value < timedelta(0):
        raise ValidationError(_("A time cannot be negative."))


def rated_shot_clock() -> int:
    """A new ladder's shot clock: the club's for rated matches (SNOOKER_RATED_SHOT_CLOCK)."""
    return settings.CLUB["RATED_SHOT_CLOCK"]


class Ladder(models.Model):
    class Default(models.TextChoices):
        CHALLENGER_WINS = DefaultRule.CHALLENGER_WINS.value, _("the challenger takes the win")
        DEFENDER_WINS = DefaultRule.DEFENDER_WINS.value, _("the defender keeps the place")
        NO_CHANGE = DefaultRule.NO_CHANGE.value, _("nobody moves")

    name = models.CharField(_("name"), max_length=60)
    # The club speaks English and Russian: a ladder's name is the organisers' words, so they
    # give one per language (shown_name picks the page's; English when none is given).
    name_ru = models.CharField(
        _("name in Russian"), max_length=60, blank=True, help_text=_("Shown on Russian pages.")
    )
    slug = models.SlugField(_("address"), max_length=40, unique=True, validators=[_not_reserved])
    main = models.BooleanField(
        _("the club's main ladder"), default=False, help_text=_("The one /ladder/ shows.")
    )
    open = models.BooleanField(
        _("open to join"), default=True, help_text=_("Members may join by themselves.")
    )
    places_above = models.PositiveSmallIntegerField(
        _("places above"),
        default=PLACES_ABOVE,
        validators=[MinValueValidator(1)],
        help_text=_("How far up a member may challenge."),
    )
    best_of = models.PositiveSmallIntegerField(
        _("best of"), choices=[(n, str(n)) for n in BEST_OF], default=3
    )
    # Handicapped: each match gives the weaker member a start from the two ratings when it is
    # accepted (club/handicaps.py, docs/handicaps.md), as a handicapped friendly does.
    handicap = models.BooleanField(
        _("handicapped"),
        default=False,
        help_text=_("Each match gives the weaker member a start from the two ratings."),
    )
    # Never none: a ladder match is rated, and a rated match always has a shot clock, so that
    # a losing player cannot sit at the table without striking (issue 36).
    shot_clock = models.PositiveIntegerField(
        _("shot clock"),
        choices=[(s, f"{s} s") for s in SHOT_CLOCKS],
        default=rated_shot_clock,
        help_text=_("Seconds a stroke; each time it runs out is a foul."),
    )
    answer_time = models.DurationField(
        _("time to answer"),
        default=timedelta(days=2),
        validators=[_positive],
        help_text=_("How long a challenged member has to accept or decline."),
    )
    play_time = models.DurationField(
        _("time to play"),
        default=timedelta(days=7),
        validators=[_positive],
        help_text=_("How long after the acceptance the match must be finished."),
    )
    default_result = models.CharField(
        _("when a deadline passes"),
        max_length=16,
        choices=Default.choices,
        default=Default.CHALLENGER_WINS,
        help_text=_("An unanswered challenge, or a match not played by its deadline."),
    )
    decline_counts_as_loss = models.BooleanField(_("declining counts as a loss"), default=False)
    cooldown = models.DurationField(
        _("cool-down between two members"),
        default=COOLDOWN,
        validators=[_not_negative],
        help_text=_(
            "After a result, a decline or a withdrawal, how long neither of the two may "
            "challenge the other (0 for none)."
        ),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-main", "name"]
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")
        constraints = [
            models.UniqueConstraint(fields=["main"], condition=Q(main=True), name="one_main_ladder")
        ]

    @property
    def shown_name(self) -> str:
        """The ladder's name in the active language."""
        if self.name_ru and (get_language() or "").startswith("ru"):
            return self.name_ru
        return self.name

    def __str__(self) -> str:
        return self.shown_name


class Rung(models.Model):
    """A member's place on a ladder (1 at the top)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rungs"
    )
    position = models.PositiveIntegerField(_("position"))
    # The last results on this ladder, latest first ("WLW"): rules.ladder.form.
    form = models.CharField(_("form"), max_length=8, blank=True)
    joined = models.DateTimeField(_("joined"))
    last_active = models.DateTimeField(_("last active"))  # joined, or their last result
    # The challenge or match this member is in on this ladder, until it is settled: while set,
    # they neither challenge nor are challenged.
    engaged = models.ForeignKey(
        "LadderChallenge", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["ladder", "position"]
        verbose_name = _("place on a ladder")
        verbose_name_plural = _("places on the ladders")
        constraints = [
            models.UniqueConstraint(fields=["ladder", "member"], name="once_per_ladder"),
            models.UniqueConstraint(fields=["ladder", "position"], name="one_member_a_place"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.member} ({self.ladder})"


class LadderChallenge(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for an answer")
        ACCEPTED = "accepted", _("to be played")
        SETTLED = "settled", _("settled")

    class Outcome(models.TextChoices):
        PLAYED = "played", _("played")
        DECLINED = "declined", _("declined")
        UNANSWERED = "unanswered", _("not answered in time")
        UNPLAYED = "unplayed", _("not played in time")
        NO_SHOW = "no_show", _("not played: a player did not come")
        UNFINISHED = "unfinished", _("not finished in time: decided by the score")
        WITHDRAWN = "withdrawn", _("withdrawn")
        CANCELLED = "cancelled", _("cancelled by an organiser")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    # The club's challenge (kind "ladder"): its notices, its answer and the match it makes.
    challenge = models.OneToOneField(
        "club.Challenge", on_delete=models.PROTECT, related_name="ladder_challenge"
    )
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    defender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # Their positions when the challenge was made.
    challenger_position = models.PositiveIntegerField()
    defender_position = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The match to be played: its window, agreed start, who came and its default (the
    # club's fixtures, fixtures/models.py; the challenger is its first player).
    fixture = models.OneToOneField(
        "fixtures.Fixture", on_delete=models.PROTECT, related_name="ladder_challenge"
    )
    created = models.DateTimeField()
    answer_by = models.DateTimeField()  # the club's challenge expires then
    settled = models.DateTimeField(null=True, blank=True)
    # A match not played out: who did not come (rules.ladder.Absent), and whether an organiser
    # should look (decided by the score, by the ladder's default rule, or not at all:
    # rules.fixtures.unplayed), as the ladder settled it from its fixture's decision.
    absent = models.CharField(
        max_length=16, choices=[(a.value, a.value) for a in Absent], blank=True
    )
    flagged = models.BooleanField(_("flagged"), default=False)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("ladder challenge")
        verbose_name_plural = _("ladder challenges")
        indexes = [
            models.Index(fields=["status", "answer_by"], name="ladder_waiting_by_deadline"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="settled") | Q(outcome=""), name="outcome_once_settled"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} v {self.defender} ({self.ladder}, {self.status})"


class HistoryQuerySet(QuerySet["HistoryEntry"]):
    def with_endings(self) -> HistoryQuerySet:
        """Each entry with how its match ended (`ended`: the record's "conceded", "claimed" or
        "frames"; "" without a match), in the same query: a result played out and a result
        conceded read differently (ladder/_entry.html)."""
        ended = MatchFigures.objects.filter(match=OuterRef("match"), seat="A")
        return self.annotate(ended=Coalesce(Subquery(ended.values("termination")[:1]), Value("")))


class HistoryEntry(models.Model):
    """One change of a ladder, for anyone to read; the standing entries replay into the
    positions (`rules.ladder.replay`: joined, result, moved, removed)."""

    class Kind(models.TextChoices):
        JOINED = "joined", _("joined")
        RESULT = "result", _("result")  # a winner over a loser (the positions may not move)
        SETTLED = "settled", _("settled without a result")  # nobody moves
        MOVED = "moved", _("moved by an organiser")
        REMOVED = "removed", _("removed")
        VOIDED = "voided", _("result voided")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="history")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    at = models.DateTimeField()
    # joined, moved, removed: the member; result: the winner; settled: the challenger.
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # result: the loser; settled: the defender.
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # Positions before and after (null: not on the ladder).
    member_from = models.PositiveIntegerField(null=True, blank=True)
    member_to = models.PositiveIntegerField(null=True, blank=True)
    other_from = models.PositiveIntegerField(null=True, blank=True)
    other_to = models.PositiveIntegerField(null=True, blank=True)
    # How a challenge was settled (LadderChallenge.Outcome), for results and settlements.
    how = models.CharField(max_length=16, choices=LadderChallenge.Outcome.choices, blank=True)
    challenge = models.ForeignKey(
        LadderChallenge, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    match = models.ForeignKey(
        "game.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # An organiser's action: who, and why.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    voided = models.BooleanField(default=False)  # a result an organiser voided
    # Settled by the ladder's default rule because neither or both players came: to look at.
    flagged = models.BooleanField(_("flagged"), default=False)
    voids = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="voided_by"
    )

    objects = HistoryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("history entry")
        verbose_name_plural = _("history")
        indexes = [models.Index(fields=["ladder", "-at"], name="history_by_ladder")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.member} ({self.ladder}, {self.at:%Y-%m-%d})"
