"""The club's ratings: what is stored (ratings/service.py writes all of it).

- `Rating`: each member's Glicko-2 rating (rules/ratings.py), one for the whole club.
- `RatedResult`: each rated match's result, of whatever kind (a friendly, a ladder match), in
  the order the ratings take them.
- `RatingChange`: what a rated result did to each player's rating.

The ladder kept these until the season's competitions needed them too (docs/ratings.md); the
tables moved here with their rows (migrations 0001 and 0002).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules import ratings


class Rating(models.Model):
    """A member's Glicko-2 rating, one for the whole club (every kind of rated result)."""

    member = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    rating = models.FloatField(default=ratings.BASE)
    rd = models.FloatField(_("deviation"), default=ratings.NEW_RD)
    volatility = models.FloatField(default=ratings.NEW_VOLATILITY)
    played = models.PositiveIntegerField(_("rated matches"), default=0)
    updated = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.member}: {self.rating:.0f} ± {2 * self.rd:.0f}"

    def value(self) -> ratings.Rating:
        return ratings.Rating(self.rating, self.rd, self.volatility)


class Unrated(models.TextChoices):
    RATED = ratings.Effect.RATED.value, _("rated")
    NO_PLAY = ratings.Effect.NO_PLAY.value, _("a player never played a stroke")
    LITTLE_PLAY = ratings.Effect.LITTLE_PLAY.value, _("too few strokes were played")
    PAIR_CAP = ratings.Effect.PAIR_CAP.value, _("too many rated results between the pair")


class Kind(models.TextChoices):
    """What a rated result was played as: every kind goes through the same rule."""

    FRIENDLY = "friendly", _("friendly")
    LADDER = "ladder", _("ladder match")
    COMPETITION = "competition", _("competition match")


class RatedResult(models.Model):
    """A rated match's result, in the order the ratings take them (`at`, then id)."""

    match = models.OneToOneField(
        "game.Match", on_delete=models.CASCADE, related_name="rated_result"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    score_a = models.FloatField()  # 1: A won, 0: B won
    at = models.DateTimeField()
    voided = models.BooleanField(default=False)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    void_note = models.CharField(max_length=200, blank=True)
    # Why this result changed no rating ("" when it did): `rules.ratings.Effect`, decided when
    # it was rated. Such a result has no rating changes and is left out of every replay.
    unrated = models.CharField(
        _("unrated"), max_length=16, choices=Unrated.choices, blank=True, default=""
    )
    # The strokes each player played, as counted for that decision.
    strokes_a = models.PositiveIntegerField(null=True, blank=True)
    strokes_b = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("rated result")
        verbose_name_plural = _("rated results")

    def __str__(self) -> str:
        return f"match {self.match_id} ({'voided' if self.voided else self.score_a})"


class RatingChange(models.Model):
    """What one rated match did to one player's rating."""

    result = models.ForeignKey(RatedResult, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    at = models.DateTimeField()
    before = models.FloatField()
    before_rd = models.FloatField()
    after = models.FloatField()
    after_rd = models.FloatField()
    after_volatility = models.FloatField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="one_change_per_player")
        ]
        indexes = [models.Index(fields=["player", "at"], name="rating_changes_by_player")]

    def __str__(self) -> str:
        return f"{self.player}: {self.before:.0f} → {self.after:.0f}"

    @property
    def delta(self) -> float:
        return self.after - self.before


class HandicapChange(models.Model):
    """An organiser's override of a member's handicap (docs/handicaps.md, "Organisers'
    overrides"): the rating the member's starts are worked out from instead of their club
    rating, or none (back to the club rating). Every change is a row, never edited: the latest
    is the member's override, the rows are its audit log (ratings/handicaps.py)."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="handicap_changes"
    )
    rating = models.FloatField(null=True, blank=True)  # None: the override taken away
    reason = models.CharField(max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["member", "-at"], name="handicap_changes_by_member")]

    def __str__(self) -> str:
        return f"{self.member} handicap {self.rating} at {self.at:%Y-%m-%d %H:%M}"
