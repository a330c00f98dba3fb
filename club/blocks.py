"""Blocking (issue 42, "Notices as a weapon": a member could challenge and withdraw 30 times an
hour, each a toast for the same victim). A member may block another: from then on the blocked
member's direct challenges and rematch offers to them are refused (`blocked`, club/service.py
`_make`) and so never become a notice, and the blocked member cannot take the blocker's open
challenge (their acceptance would be a notice too). Their challenges already waiting for the
blocker are declined as the block is made. A ladder challenge is the ladder's to decide (its
rules make a defender answer or default: blocking must not dodge it), so it is not refused.
Blocking is one-way and private to the blocker; the blocker may still challenge the other.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from club.models import Block, Challenge
from rules.challenges import Kind, Status


def blocks(blocker_id: int, blocked_id: int) -> bool:
    """Whether `blocker_id` has blocked `blocked_id`."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def block(blocker: User, blocked: User) -> list[int]:
    """Block `blocked` (again: nothing changes); returns the waiting challenges from them to
    the blocker, which the caller declines (club/service.py `block`)."""
    if blocker.pk == blocked.pk:
        return []
    try:
        with transaction.atomic():
            Block.objects.create(blocker=blocker, blocked=blocked)
    except IntegrityError:
        pass  # blocked already
    waiting = Challenge.objects.filter(
        Q(kind=Kind.DIRECT) | Q(kind=Kind.REMATCH),
        challenger=blocked, target=blocker, status=Status.OPEN,
    )  # fmt: skip
    return list(waiting.values_list("pk", flat=True))


def unblock(blocker: User, blocked: User) -> None:
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def blocked_by(blocker_id: int) -> frozenset[int]:
    """Whom `blocker_id` blocked: the chat never shows them their lines (chat/service.py reads
    this, registered in club/apps.py)."""
    found = Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id", flat=True)
    return frozenset(found)
