"""Each user has a `Member` row holding the name as the directory searches it; at login the
member's chosen time zone is put in the session, where each request reads it
(accounts/zones.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save

from accounts import zones
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


def zone_at_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """The member's own zone follows them to every browser they log in on."""
    chosen = Member.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    if request is not None and zones.valid(chosen):
        request.session[zones.SESSION_KEY] = chosen


def connect() -> None:
    post_save.connect(keep_member, sender=get_user_model(), dispatch_uid="members.keep_member")
    user_logged_in.connect(zone_at_login, dispatch_uid="members.zone_at_login")
