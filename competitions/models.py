"""The club's competitions: what is stored (competitions/service.py writes all of it).

- `Competition`: one competition, its settings (a single-elimination knockout, with or
  without a third-place match, a double elimination, with or without the grand final's reset,
  or a round robin in one or more groups, once or twice round), its state, and once drawn the
  draw's stored seed (and a knockout's first-round places).
- `Entrant`: a member entered, with their seed number (and a round robin's group) once drawn,
  and when they withdrew after the draw.
- `Decision`: a match decided (played at the table, recorded by an organiser, a walkover, both
  out; and, written down when a
  member withdraws from a knockout, each decision the bracket had worked out until then, byes
  included: `rules.bracket.withdraw`), in the order made: the bracket
  (`rules.bracket.Bracket`) is the draw's shape, these rows and the entrants withdrawn, folded
  (`service.bracket_of`); a round robin's tables are its groups and these rows with their
  frames and breaks, folded (`service.tables_of`, `rules.standings.table`). Byes, who plays
  whom next and the standings are worked out, never stored.
- `Action`: the audit log, append-only: each organiser's action (open, close entry, the
  seeding chosen, draw, add or remove an entrant, a walkover, both out, a new deadline, a
  result recorded, a withdrawal or disqualification), who and when, with their note; the
  draw's line says how its entrants were seeded.
- `Pairing`: a match to be played, and the club's fixture it is played as
  (`fixtures.Fixture`, kind "competition": the window, the agreed start, who came, the default).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules import bracket as rules
from rules.seeding import Method


def _odd(value: int) -> None:
    from django.core.exceptions import ValidationError

    if value < 1 or value % 2 == 0:
        raise ValidationError(_("A match is the best of an odd number of frames."))


class Competition(models.Model):
    class Format(models.TextChoices):
        KNOCKOUT = rules.Format.SINGLE.value, _("knockout")
        DOUBLE = rules.Format.DOUBLE.value, _("double elimination")
        ROUND_ROBIN = "round_robin", _("round robin")
        GROUPS = "groups", _("groups, then a knockout")

    class Status(models.TextChoices):
        OPEN = "open", _("open for entry")
        CLOSED = "closed", _("entry closed")
        IN_PLAY = "in_play", _("in play")
        FINISHED = "finished", _("finished")

    # The club speaks English and Russian: the organiser names it in both (`shown_name`).
    name = models.CharField(_("name"), max_length=80)
    name_ru = models.CharField(_("name in Russian"), max_length=80, blank=True)
    format = models.CharField(
        _("format"), max_length=16, choices=Format.choices, default=Format.KNOCKOUT
    )
    # Frames per round (rules.bracket.BestOf): the earlier rounds', then the semi-finals' and
    # the final's when they differ.
    best_of = models.PositiveSmallIntegerField(_("best of"), default=3, validators=[_odd])
    best_of_semi_finals = models.PositiveSmallIntegerField(
        _("semi-finals: best of"), null=True, blank=True, validators=[_odd]
    )
    best_of_final = models.PositiveSmallIntegerField(
        _("final: best of"), null=True, blank=True, validators=[_odd]
    )
    # A knockout's match for third place between the semi-finals' losers (rules.bracket.single);
    # off for the knockouts drawn before it could be chosen.
    third_place = models.BooleanField(_("third-place match"), default=False)
    # Double elimination: a second grand final if the losers' bracket's champion wins the first
    # (rules.bracket.double).
    reset = models.BooleanField(_("grand final reset"), default=True)
    rated = models.BooleanField(_("rated"), default=True)
    # Handicapped: each match gives the weaker member the start of the two ratings as they
    # stand at the draw (ratings/handicaps.py), fixed for the competition like a league's list.
    handicap = models.BooleanField(_("handicapped"), default=False)
    # A round robin: how many groups (rules.roundrobin.groups), and once or twice round.
    groups = models.PositiveSmallIntegerField(
        _("groups"), default=1, validators=[MinValueValidator(1)]
    )
    cycles = models.PositiveSmallIntegerField(
        _("times round"), default=1, choices=[(1, _("once round")), (2, _("twice round"))]
    )
    # Groups, then a knockout: the top `advance` of each group go through
    # (rules.roundrobin.qualifiers), seeded for the knockout in `knockout_seeds` (member ids,
    # rules.roundrobin.crossed) once the groups are decided; `slots` are then its places.
    advance = models.PositiveSmallIntegerField(
        _("through from each group"), default=2, validators=[MinValueValidator(1)]
    )
    knockout_seeds = models.JSONField(null=True, blank=True)
    entry_deadline = models.DateTimeField(_("entry closes"))
    # Who may enter (service.enter, add_entrant): at most `max_entrants` (none: no limit), and
    # only the members of `ladder` when one is chosen (a place on it: ladder.Rung).
    max_entrants = models.PositiveSmallIntegerField(
        _("most entrants"), null=True, blank=True, validators=[MinValueValidator(2)]
    )
    ladder = models.ForeignKey(
        "ladder.Ladder", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("only the members of the ladder"),
    )  # fmt: skip

    # How the draw ranks the entrants (rules.seeding.rank): by club rating, by position on a
    # ladder (`seeding_ladder`, or else the competition's own `ladder`; those not on it after,
    # by rating) or by hand (each entrant's `Entrant.hand_seed`, given by an organiser before
    # the draw; those left unnumbered after, by rating). Fixed by the draw.
    class Seeding(models.TextChoices):
        RATING = Method.RATING.value, _("by club rating")
        LADDER = Method.LADDER.value, _("by ladder position")
        HAND = Method.HAND.value, _("by hand")

    seeding = models.CharField(
        _("seeding"), max_length=8, choices=Seeding.choices, default=Seeding.RATING
    )
    seeding_ladder = models.ForeignKey(
        "ladder.Ladder", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("ladder seeded by"),
    )  # fmt: skip
    # Each match's window: to be played within this time of its players becoming known.
    play_time = models.DurationField(
        _("time to play each match"),
        default=timedelta(days=7),  # service.DEFAULT_PLAY_TIME
        validators=[MinValueValidator(timedelta(hours=1))],
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField()
    # The draw: the seed its random part was drawn from (rules.seeding.draw; a round robin's:
    # rules.roundrobin.drawn), how many were seeded by rating and the first round's places
    # (member ids, null: a bye; a knockout's only), and when.
    seed = models.BigIntegerField(null=True, blank=True)
    seeded = models.PositiveSmallIntegerField(null=True, blank=True)
    slots = models.JSONField(null=True, blank=True)
    drawn = models.DateTimeField(null=True, blank=True)
    champion = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        permissions = [("organise", _("Can organise competitions"))]

    def __str__(self) -> str:
        return self.name

    def shown_name(self) -> str:
        """The competition's name in the active language (English when none is given)."""
        if (get_language() or "").startswith("ru") and self.name_ru:
            return self.name_ru
        return self.name

    @property
    def round_robin(self) -> bool:
        """Played in groups (a round robin, or the group stage before a knockout)."""
        return self.format in (self.Format.ROUND_ROBIN, self.Format.GROUPS)

    @property
    def double(self) -> bool:
        """Double elimination."""
        return self.format == self.Format.DOUBLE

    @property
    def group_stage(self) -> bool:
        """Groups, then a knockout."""
        return self.format == self.Format.GROUPS

    @property
    def ranking_ladder_id(self) -> int | None:
        """The ladder whose positions seed the draw: the one chosen for it, or else the one
        whose members alone may enter."""
        return self.seeding_ladder_id or self.ladder_id

    def plan(self) -> rules.BestOf:
        return rules.BestOf(
            self.best_of, semi_finals=self.best_of_semi_finals, final=self.best_of_final
        )


class Entrant(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    entered = models.DateTimeField()
    seed = models.PositiveSmallIntegerField(null=True, blank=True)  # once drawn (1: the top)
    # Seeding by hand: the organiser's number for this entrant before the draw (1: the top;
    # none: ranked after the numbered, by rating).
    hand_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    group = models.PositiveSmallIntegerField(null=True, blank=True)  # a round robin's, from 1
    # Withdrawn after the draw: their remaining matches are walkovers (service.withdraw).
    withdrawn = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seed", "entered", "pk"]
        constraints = [models.UniqueConstraint(fields=["competition", "member"], name="enter_once")]

    def __str__(self) -> str:
        return f"{self.member} in {self.competition}"


class Decision(models.Model):
    """A match decided (a knockout's: rules.bracket.advance), in the order made (pk). A round
    robin's also keeps what its table needs (rules.standings.Result): the loser, the frames
    each won and the highest break each made (a walkover: the frames needed, to nil)."""

    class How(models.TextChoices):
        PLAYED = rules.How.PLAYED.value, _("played")
        # Played away from the site, recorded by an organiser (service.record); never rated.
        RECORDED = rules.How.RECORDED.value, _("recorded by an organiser")
        WALKOVER = rules.How.WALKOVER.value, _("walkover")
        # What the bracket works out, written down when a member withdraws (rules.bracket.withdraw).
        BYE = rules.How.BYE.value, _("bye")
        EMPTY = rules.How.EMPTY.value, _("nobody to play")
        BOTH_OUT = rules.How.BOTH_OUT.value, _("both out")
        NOT_NEEDED = rules.How.NOT_NEEDED.value, _("not needed")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="decisions")
    key = models.CharField(max_length=16)  # rules.bracket.Key, as text ("w2.0")
    # None: nobody goes on (both out, or both places empty). A round robin's both out keeps
    # the two players as winner and loser, each losing by `loser_frames` (service.both_out).
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    how = models.CharField(max_length=16, choices=How.choices)
    at = models.DateTimeField()
    loser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    winner_frames = models.PositiveSmallIntegerField(default=0)
    loser_frames = models.PositiveSmallIntegerField(default=0)
    winner_break = models.PositiveSmallIntegerField(default=0)
    loser_break = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "key"], name="decide_a_match_once")
        ]


class Pairing(models.Model):
    """A match to be played, as the club's fixture (its first player: the bracket's upper
    place; in a round robin, the circle method's first). `key`: a knockout's bracket key
    ("w2.0"), a round robin's group, round and place ("g1.2.0": service.rr_key)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="pairings")
    key = models.CharField(max_length=16)
    fixture = models.OneToOneField(
        "fixtures.Fixture", on_delete=models.PROTECT, related_name="pairing"
    )

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "key"], name="one_fixture_a_match")
        ]


class Action(models.Model):
    """An organiser's action on a competition, for the audit log: written once by the service
    with the action itself (in its transaction), never changed nor deleted."""

    class Kind(models.TextChoices):
        OPEN = "open", _("opened the competition")
        CLOSE = "close", _("closed entry")
        DRAW = "draw", _("made the draw")
        ADD = "add", _("added an entrant")
        REMOVE = "remove", _("removed an entrant")
        AWARD = "award", _("gave a walkover")
        BOTH_OUT = "both_out", _("put both players out")
        DEADLINE = "deadline", _("set a new deadline")
        RECORD = "record", _("recorded a result played away")
        WITHDRAW = "withdraw", _("withdrew or disqualified a member")
        SEEDING = "seeding", _("chose the seeding")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="actions")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    # Whom it concerned (an entrant added, removed, withdrawn; a walkover's or a result's
    # winner) and which match (a key), if any; the organiser's own note.
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    key = models.CharField(max_length=16, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    # The draw's (and a choice of seeding's): how the entrants were ranked, and by which
    # ladder's positions.
    seeding = models.CharField(max_length=8, choices=Competition.Seeding.choices, blank=True)
    ladder = models.ForeignKey(
        "ladder.Ladder", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["pk"]

    def save(self, *args: object, **kwargs: object) -> None:
        # Append-only: a log that can be edited proves nothing.
        if self.pk is not None:
            raise ValueError("the audit log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("the audit log is append-only")
