"""A competition's chat room, on its page (club/chat.py carries it; docs/chat.md): anyone who
may see the page reads it, and every member writes (not only its entrants: the club talks
about its competitions there, as it does in the lobby; a guest says the preset phrases)."""

from __future__ import annotations

from accounts.visitors import Visitor
from competitions.models import Competition


def writes(key: int, user: Visitor) -> bool | None:
    """Whether `user` is one of the room's writers (None: no such competition): every member,
    held to the rules of any room (rules/chat.py)."""
    if not Competition.objects.filter(pk=key).exists():
        return None
    return bool(user is not None and user.is_authenticated)
