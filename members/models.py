"""What the club keeps about its members besides their matches: a searchable name, and each
finished match's figures per player (rules/stats.py), written once when the match ends.

Pages aggregate these rows in SQL (a member's totals are one query however many matches they
played); nothing here is recomputed from the events when a page is viewed.
"""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.db import models


def fold(name: str) -> str:
    """A name as the directory searches it: compatibility forms joined (NFKC) and case folded,
    in every script (SQLite's LIKE folds ASCII only, so the folding is done here)."""
    return unicodedata.normalize("NFKC", name).casefold()


class Member(models.Model):
    """One per user (members/signals.py keeps it): the name as searched, and the time zone
    the member chose."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="member"
    )
    folded = models.CharField(max_length=150, db_index=True)
    # The zone the member reads and types times in (accounts/zones.py); blank: the browser's.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # Their competitions' news by e-mail too, when the club sends mail (competitions/mail.py).
    competition_mail = models.BooleanField(default=True)

    def __str__(self) -> str:
        return self.folded


class MatchFigures(models.Model):
    """One player's figures for one finished match (`rules.stats.PlayerFigures`)."""

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="figures")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_figures"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.CharField(max_length=1)  # "A" or "B"
    finished = models.DateTimeField(db_index=True)  # when the match's last event was stored
    best_of = models.PositiveSmallIntegerField()
    # How the match ended (rules.outcome.Termination): frames, conceded or claimed.
    termination = models.CharField(max_length=16, blank=True)
    won = models.BooleanField()
    frames_won = models.PositiveSmallIntegerField()
    frames_lost = models.PositiveSmallIntegerField()
    highest_break = models.PositiveSmallIntegerField()
    centuries = models.PositiveSmallIntegerField()
    fifties = models.PositiveSmallIntegerField()  # breaks of 50 or more, centuries included
    breaks = models.PositiveIntegerField()  # visits that scored
    break_points = models.PositiveIntegerField()
    pots = models.PositiveIntegerField()
    attempts = models.PositiveIntegerField()
    fouls = models.PositiveIntegerField()
    foul_points = models.PositiveIntegerField()
    won_on_black = models.PositiveSmallIntegerField()
    won_with_start = models.PositiveSmallIntegerField(default=0)  # with a handicap start

    class Meta:
        ordering = ["-finished", "-match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="figures_once_per_player"),
        ]
        indexes = [
            models.Index(fields=["player", "-finished"], name="figures_by_player"),
            # The lobby's latest results (members/templatetags/records.py: seat A's rows, the
            # newest first), read on every lobby page: the latest ten from the index, not a
            # sort of every match the club ever finished.
            models.Index(fields=["seat", "-finished", "-match"], name="figures_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in match {self.match_id}"


class HighBreak(models.Model):
    """A break of 50 or more, with the frame it was made in (the match page lists them, the
    profile its owner's best)."""

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="high_breaks")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="high_breaks"
    )
    frame = models.PositiveSmallIntegerField()
    points = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match_id", "frame", "id"]
        indexes = [models.Index(fields=["player", "-points"], name="high_breaks_by_player")]

    def __str__(self) -> str:
        return f"{self.points} by {self.player} (match {self.match_id}, frame {self.frame})"
