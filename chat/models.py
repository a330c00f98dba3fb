"""A room keyed by what it belongs to, its lines, and the timeouts the moderators give."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Room(models.Model):
    """A room: `kind` (rules.chat.ROOM_KINDS) and the key of what it belongs to in that kind
    (a match's id for its players' and spectators' rooms; "" for the lobby's; a competition's
    or a ladder's id). The chat knows nothing of those things: their apps name the room."""

    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=64, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="chat_room_unique")]

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}"


class Line(models.Model):
    """One line, stored before it is broadcast. `text` is the cleaned line (a preset's key
    when `preset` is set: the reader's page says it in the reader's language). `hidden`: a
    moderator deleted it; `shadow`: its author was marked a troll, so it is shown only to
    them."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="lines")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_lines"
    )
    text = models.CharField(max_length=140)
    preset = models.CharField(max_length=16, blank=True)
    at = models.DateTimeField()
    hidden = models.BooleanField(default=False)
    shadow = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["room", "id"], name="chat_line_room"),
            models.Index(fields=["author", "room", "id"], name="chat_line_author"),
        ]

    def __str__(self) -> str:
        return f"{self.author_id}: {self.text}"


class Timeout(models.Model):
    """A member timed out of the club's chat until `until`, by a moderator, for a reason the
    member is told."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_timeouts"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_timeouts_given"
    )
    reason = models.CharField(max_length=140)
    at = models.DateTimeField()
    until = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["member", "until"], name="chat_timeout_member")]

    def __str__(self) -> str:
        return f"{self.member_id} until {self.until}"


class Action(models.Model):
    """The moderators' audit log: every timeout and deleted line, who and why."""

    class Kind(models.TextChoices):
        TIMEOUT = "timeout"
        HIDE = "hide"
        TROLL = "troll"  # marked a troll: their lines shown only to themselves
        UNTROLL = "untroll"
        DISMISS = "dismiss"  # a report found to need nothing
        PANIC = "panic"  # the lobby for members of some standing only, for a while
        CALM = "calm"  # the panic switch turned off

    kind = models.CharField(max_length=16, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_actions"
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_actions_on"
    )
    line = models.ForeignKey(Line, on_delete=models.SET_NULL, null=True, blank=True)
    reason = models.CharField(max_length=140)
    at = models.DateTimeField()


class Report(models.Model):
    """A member's report of a line (chat/moderation.py): open until a moderator acts on the
    line or dismisses it."""

    class Reason(models.TextChoices):  # rules.chat.REPORT_REASONS, with their words
        INSULT = "insult", _("Insults or hate")
        SPAM = "spam", _("Spam or advertising")
        COACHING = "coaching", _("Advice to a player during play")
        OTHER = "other", _("Something else")

    line = models.ForeignKey(Line, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    note = models.CharField(max_length=140, blank=True)
    at = models.DateTimeField()
    closed = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["line", "reporter"], name="chat_report_once")
        ]
        indexes = [models.Index(fields=["closed", "at"], name="chat_report_open")]


class Troll(models.Model):
    """A member a moderator marked a troll: their lines are shown only to themselves."""

    member = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="chat_troll",
    )  # fmt: skip
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=140)
    at = models.DateTimeField()


class Panic(models.Model):
    """The organisers' panic switch (lichess's): until `until`, only members of some standing
    (rules.chat.of_standing) write in the lobby."""

    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=140)
    at = models.DateTimeField()
    until = models.DateTimeField()


class Preference(models.Model):
    """A member's own chat settings (chat/views.py, `/chat/settings/`): the players' chat off
    at their table, mild words shown unmasked (chat/words.py; strong ones never are), and
    spectators let read their table's players' chat (read only; when the club allows it and
    both players let them: game/chat.py `players_shown`)."""

    member = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="chat_preference",
    )  # fmt: skip
    off_at_table = models.BooleanField(_("no chat at my table"), default=False)
    mild_shown = models.BooleanField(_("show mild words unmasked"), default=False)
    players_shown = models.BooleanField(
        _("let spectators read my table's players' chat"), default=False
    )
