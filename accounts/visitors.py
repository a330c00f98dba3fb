"""Who is at a page or a socket: a user, anonymous, or nobody known yet (a socket's scope
before the session is read)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

Visitor = AbstractBaseUser | AnonymousUser | None
