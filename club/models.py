"""What the club keeps around the matches: challenges (and invitations, rematch offers) and
the guests seated by invitation links.

A challenge is a row that waits for an answer; the match is created only when it is accepted,
in the same transaction that marks it accepted (club/service.py). `version` grows with every
change of status, so the lobby's browsers keep the newest word on each challenge.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from game.models import Match
from rules.challenges import BEST_OF, GUIDES, Kind, Status
from rules.drills import KEYS as drill_keys


class Challenge(models.Model):
    # The values are the rules' enums (rules/challenges.py).
    kind = models.CharField(max_length=16, choices=[(k.value, k.value) for k in Kind])
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    # The member challenged; null for an open challenge or an invitation.
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    best_of = models.PositiveSmallIntegerField(choices=[(n, str(n)) for n in BEST_OF])
    shot_clock = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    # How far the aim guide reaches in the match it makes (rules.challenges.GUIDES).
    guide = models.CharField(max_length=8, choices=[(g, g) for g in GUIDES], default=GUIDES[0])
    # The challenger asked for a handicap (a friendly's, docs/handicaps.md): the match it makes
    # gives the weaker member the start from the two ratings at the acceptance.
    handicap = models.BooleanField(default=False)
    status = models.CharField(
        max_length=16, choices=[(s.value, s.value) for s in Status], default=Status.OPEN.value
    )
    version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField()
    expires = models.DateTimeField()
    answered = models.DateTimeField(null=True, blank=True)
    # The match made by accepting it.
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="challenge"
    )
    # For a rematch offer: the finished match it would replay.
    rematch_of = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="rematch_offers"
    )

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["status", "expires"], name="challenge_open_by_expiry"),
            models.Index(fields=["target", "status"], name="challenge_by_target"),
            models.Index(fields=["challenger", "created"], name="challenge_by_challenger"),
            # A member's challenges accepted in the last minutes (club.lobby.just_accepted, on
            # every lobby welcome): from the answer's time, not through all they ever made.
            models.Index(
                fields=["challenger", "answered"],
                name="challenge_just_accepted",
                condition=Q(status="accepted"),
            ),
        ]
        constraints = [
            # Two tabs cannot make two open challenges to the same member, nor two rematch
            # offers for one match.
            models.UniqueConstraint(
                fields=["challenger", "target"],
                condition=Q(status="open", target__isnull=False, rematch_of__isnull=True),
                name="one_open_challenge_per_pair",
            ),
            models.UniqueConstraint(
                fields=["rematch_of"],
                condition=Q(status="open"),
                name="one_open_rematch_offer",
            ),
            models.CheckConstraint(
                condition=~Q(status="accepted") | Q(match__isnull=False),
                name="accepted_has_a_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} challenge {self.pk} by {self.challenger_id} ({self.status})"


class Guest(models.Model):
    """A visitor seated by an invitation: a real user with no usable password, logged in for
    this browser's session only, whose name carries "(guest)" (which no member's can: sign-up
    names are letters, digits and @.+-_)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="guest"
    )
    name = models.CharField(max_length=24)  # as they typed it
    invitation = models.OneToOneField(
        Challenge, on_delete=models.SET_NULL, null=True, blank=True, related_name="guest"
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"guest {self.name}"


class Block(models.Model):
    """`blocker` blocked `blocked`: the blocked member's challenges and rematch offers never
    reach the blocker (refused `blocked`), nor does their acceptance of the blocker's open
    challenge (club/blocks.py)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_a_pair"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"
            ),
        ]


class DrillRun(models.Model):
    """One run at a drill (rules/drills.py, docs/coach.md "Drills"): open (`ended` null) while
    it goes on, at the practice table `match` (a long pots run moves to a new table after each
    pot: `match` is its latest); once ended, a line of the member's history, and their best."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drill_runs"
    )
    drill = models.CharField(max_length=16, choices=[(k, k) for k in drill_keys])
    score = models.PositiveIntegerField(default=0)
    started = models.DateTimeField()
    ended = models.DateTimeField(null=True, blank=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")  # the latest

    class Meta:
        indexes = [
            models.Index(fields=["member", "drill", "-score"], name="drill_best_by_member"),
            models.Index(fields=["drill", "-score"], name="drill_best_in_club"),
        ]

    def __str__(self) -> str:
        return f"{self.drill} run {self.pk} by {self.member_id}: {self.score}"


class DrillTable(models.Model):
    """A practice table a drill's run is played at: the run's first, or the next a long pots
    run moved to after a pot. The service finds a stroke's run by its table (club/drills.py)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="drill_table"
    )
    run = models.ForeignKey(DrillRun, on_delete=models.CASCADE, related_name="tables")

    def __str__(self) -> str:
        return f"match {self.match_id} of drill run {self.run_id}"


class Position(models.Model):
    """A position a member set up by hand in the position editor (docs/coach.md, "The position
    editor"): a frame's state as `FrameState.to_json` writes it, checked by the referee
    (`rules.setup.check`) when it was saved, and shared by its address."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="positions"
    )
    name = models.CharField(max_length=60)
    state = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "-created"], name="positions_of_owner")]

    def __str__(self) -> str:
        return f"position {self.pk} {self.name}"
