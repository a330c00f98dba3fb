"""The computer's seats: one user per level, made by this app's migration."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Computer(models.Model):
    """A user the computer plays as, at one level (`rules.opponent.LEVELS`)."""

    class Level(models.TextChoices):
        NOVICE = "novice"
        CLUB = "club"
        PRO = "pro"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="computer"
    )
    level = models.CharField(max_length=8, choices=Level.choices, unique=True)

    def __str__(self) -> str:
        return f"computer ({self.level})"


class Analysis(models.Model):
    """The coach's analysis of one ended frame (docs/coach.md): asked for once, run once in
    the computer's pool, stored for every later viewer. `strokes` holds one entry a stroke or
    choice of the frame, in order (`computer.analysis.stroke_json`), as each is done: `done` of
    `total` is its progress."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="analyses")
    frame = models.PositiveSmallIntegerField()  # 1-based
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=32)
    done = models.PositiveSmallIntegerField(default=0)
    total = models.PositiveSmallIntegerField(default=0)
    strokes = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "frame"], name="computer_analysis_once")
        ]
        indexes = [models.Index(fields=["status", "id"], name="computer_analysis_queue")]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} frame {self.frame} ({self.status})"
