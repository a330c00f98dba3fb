"""Each user has a `Member` row holding the name as the directory searches it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save

from members.models import Member, fold


def keep_member(
    sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    """When a user is saved with their name (a new member, a renamed one), the searched name
    follows. (Logging in saves `last_login` alone: nothing to do.)"""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    Member.objects.update_or_create(
        user_id=instance.pk, defaults={"folded": fold(instance.get_username())}
    )


def connect() -> None:
    post_save.connect(keep_member, sender=get_user_model(), dispatch_uid="members.keep_member")
