"""What the club stores: matches, their versioned event log, and who is connected.

The database holds the truth. `Match.version` orders every write: a change is stored only if
the version it was computed from is still current (optimistic concurrency), so two processes
that receive requests for the same match apply each one once. Every change is a `MatchEvent`
written in the same transaction as the new state; broadcasts happen after commit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from rules.challenges import GUIDES
from rules.positions import KEY_LENGTH


class Match(models.Model):
    class Status(models.TextChoices):
        LIVE = "live"
        FINISHED = "finished"
        # Never started (the two players were never at the table together) within the club's
        # wait: no winner, no result, unrated, no figures (rules/presence.py, club/noshows.py).
        ABANDONED = "abandoned"

    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_a"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_b"
    )
    best_of = models.PositiveSmallIntegerField()
    # Seconds a striker has for a stroke; null = no shot clock (the default).
    shot_clock = models.PositiveIntegerField(null=True, blank=True)
    # Seconds a disconnected player has to come back before the opponent may claim.
    reconnect_grace = models.PositiveIntegerField(default=60)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LIVE)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField()  # rules.match.match_to_json at `version`
    # When the striker's time runs out (shot clock on and a stroke due); set with every event.
    deadline = models.DateTimeField(null=True, blank=True)
    # When the last event was stored: the turn of whoever is to act began then (or at the
    # start, if later). A stall is measured from it, never from a player's last coming
    # (rules/presence.py). Null until the first event after the draw.
    turn_began = models.DateTimeField(null=True, blank=True)
    # When each player first came to the table: nobody can be claimed against before that.
    arrived_a = models.DateTimeField(null=True, blank=True)
    arrived_b = models.DateTimeField(null=True, blank=True)
    # The first moment both players had a live connection at once (a practice table: when it
    # was made). Until then no shot clock runs and nobody can claim (rules/presence.py); a
    # friendly not started in time is abandoned.
    started = models.DateTimeField(null=True, blank=True)
    # The match starts no sooner than this (a fixture's agreed start time, or the end of its
    # window while one is still to be agreed): being here before it neither starts the match
    # nor makes anyone claimable (rules/presence.py). Null: it starts when both are here.
    not_before = models.DateTimeField(null=True, blank=True)
    # Whether the result counts for the club's standings: only between two members who asked
    # for it (a challenge's format); never with a guest, never at a practice table.
    rated = models.BooleanField(default=False)
    # A guest (a visitor seated by an invitation link, club.Guest) sits at this table.
    guest = models.BooleanField(default=False)
    # One member plays both sides alone (player_a is player_b); seat_of answers the seat to act.
    practice = models.BooleanField(default=False)
    # How far the aim guide reaches at this table, for both players alike: "full" or "short"
    # (rules.challenges.GUIDES; the page draws it, static/js/aids.js).
    guide = models.CharField(max_length=8, choices=[(g, g) for g in GUIDES], default=GUIDES[0])
    created = models.DateTimeField(auto_now_add=True)
    # The current position's key (rules.positions.key), written with every version of a
    # match that is not practice: the index of live positions that engine help is refused
    # for (game/positions.py). Null when the position is nobody's secret (a frame's opening,
    # the match over) and always at a practice table.
    position = models.CharField(max_length=KEY_LENGTH, null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            # Only live matches that are not practice: a match leaves the index as it ends
            # (or is abandoned) and moves in it with every stroke.
            models.Index(
                fields=["position"],
                name="live_position",
                condition=models.Q(status="live", practice=False, position__isnull=False),
            ),
            # The live matches, by id: what the lobby lists and counts, the no-shows' and the
            # idle computer's passes and the computer's resume pass read (every few seconds,
            # in every process). The finished and abandoned ones, kept for ever, are not in
            # it, so those reads cost what the live matches are, not the club's age.
            models.Index(fields=["id"], name="live_matches", condition=models.Q(status="live")),
            # A member's own live matches (the lobby's welcome): not their whole history.
            models.Index(
                fields=["player_a"], name="live_by_player_a", condition=models.Q(status="live")
            ),
            models.Index(
                fields=["player_b"], name="live_by_player_b", condition=models.Q(status="live")
            ),
            # A member's matches (as player A: the computer is always B) made in the last hour
            # (computer/service.py, the limit per hour): not through all they ever played.
            models.Index(fields=["player_a", "created"], name="matches_by_player_a_made"),
            # Rated finished matches by their making: the ratings' catch-up pass
            # (club.friendlies.missed, every settling pass) reads the recent ones only.
            models.Index(
                fields=["created"],
                name="rated_finished",
                condition=models.Q(status="finished", rated=True),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(practice=True) | ~models.Q(player_a=models.F("player_b")),
                name="two_players_unless_practice",
            ),
            models.CheckConstraint(
                condition=models.Q(rated=False) | models.Q(guest=False, practice=False),
                name="rated_only_between_members",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.pk}: {self.player_a} v {self.player_b} (best of {self.best_of})"


class MatchEvent(models.Model):
    """One state change of a match, numbered by the version it created."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    # The user whose request made this event (null for the server's own: start, shot clock).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    # The browser's id for the request, so a repeat is answered and never applied twice.
    client_id = models.CharField(max_length=64, null=True, blank=True)
    # What rebuilding the match needs: the seat that acted ("" for the server) and the command
    # (`rules.commands.to_json`, or the draw for `start`). A fold of `rules.match.apply` over
    # them gives `Match.state` again.
    seat = models.CharField(max_length=1, blank=True)
    command = models.JSONField(default=dict)
    # The event exactly as broadcast (JSON text: ruling, trajectories, new state). Kept as
    # text so a resync or a repeated request sends the same bytes without encoding again.
    payload = models.TextField()
    # The frame being played when the event came (1 for `start`; the event that ends a frame
    # belongs to that frame): a frame's referee log is read by it (`logs.frame_log`).
    # Null only for an event written by code older than migration 0006, which filled it in.
    frame = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "version"]
        indexes = [models.Index(fields=["match", "frame", "version"], name="event_frame")]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="one_event_per_version"),
            models.UniqueConstraint(
                fields=["match", "actor", "client_id"], name="one_event_per_request"
            ),
        ]


class Connection(models.Model):
    """A live websocket, so presence and spectator counts work across processes."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    seat = models.CharField(max_length=1, blank=True)  # "A", "B" or "" for a spectator
    opened = models.DateTimeField(auto_now_add=True)
    # Refreshed by the consumer's heartbeat; a row older than the stale limit is a dead
    # process's leftover and counts as gone.
    last_seen = models.DateTimeField()


class Absence(models.Model):
    """When a seated player's last connection went away (cleared when they come back)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="absences")
    seat = models.CharField(max_length=1)
    since = models.DateTimeField()
    # When the absence was found, where later than `since`: a socket's row swept as stale by
    # another process's heartbeat (`since` is its last write). A claim counts from here: a
    # row goes stale whenever its process cannot write, a database outage among them, and a
    # player who stayed connected must not be claimed against for it (issue 37).
    found = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_absence")]
