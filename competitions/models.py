"""The club's competitions: what is stored (competitions/service.py writes all of it).

- `Competition`: one competition, its settings (a single-elimination knockout for now), its
  state, and once drawn the draw's stored seed and first-round places.
- `Entrant`: a member entered, with their seed number once drawn.
- `Decision`: a bracket match decided (played at the table, or a walkover), in the order made:
  the bracket (`rules.bracket.Bracket`) is the draw's shape and these rows, folded
  (`service.bracket_of`); byes and who plays whom next are worked out, never stored.
- `Pairing`: a bracket match to be played, and the club's fixture it is played as
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


def _odd(value: int) -> None:
    from django.core.exceptions import ValidationError

    if value < 1 or value % 2 == 0:
        raise ValidationError(_("A match is the best of an odd number of frames."))


class Competition(models.Model):
    class Format(models.TextChoices):
        KNOCKOUT = rules.Format.SINGLE.value, _("knockout")

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
    rated = models.BooleanField(_("rated"), default=True)
    entry_deadline = models.DateTimeField(_("entry closes"))
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
    # The draw: the seed its random part was drawn from (rules.seeding.draw), how many were
    # seeded by rating, the first round's places (member ids, null: a bye), and when.
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

    def plan(self) -> rules.BestOf:
        return rules.BestOf(
            self.best_of, semi_finals=self.best_of_semi_finals, final=self.best_of_final
        )


class Entrant(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    entered = models.DateTimeField()
    seed = models.PositiveSmallIntegerField(null=True, blank=True)  # once drawn (1: the top)

    class Meta:
        ordering = ["seed", "entered", "pk"]
        constraints = [models.UniqueConstraint(fields=["competition", "member"], name="enter_once")]

    def __str__(self) -> str:
        return f"{self.member} in {self.competition}"


class Decision(models.Model):
    """A bracket match decided (rules.bracket.advance), in the order made (pk)."""

    class How(models.TextChoices):
        PLAYED = rules.How.PLAYED.value, _("played")
        WALKOVER = rules.How.WALKOVER.value, _("walkover")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="decisions")
    key = models.CharField(max_length=16)  # rules.bracket.Key, as text ("w2.0")
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    how = models.CharField(max_length=16, choices=How.choices)
    at = models.DateTimeField()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "key"], name="decide_a_match_once")
        ]


class Pairing(models.Model):
    """A bracket match to be played, as the club's fixture (its first player: the bracket's
    upper place)."""

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
