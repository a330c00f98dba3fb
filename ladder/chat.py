"""A ladder's chat room, on its page (club/chat.py carries it; docs/chat.md): anyone who may
see the page reads it; its members (a place on the ladder) and the club's organisers write."""

from __future__ import annotations

from accounts.visitors import Visitor
from chat.service import moderates
from ladder.models import Ladder, Rung


def writes(key: int, user: Visitor) -> bool | None:
    """Whether `user` writes in the room of the ladder `key` (None: no such ladder)."""
    if not Ladder.objects.filter(pk=key).exists():
        return None
    if user is None or not user.is_authenticated:
        return False
    return moderates(user) or Rung.objects.filter(ladder_id=key, member_id=user.pk).exists()
