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
