"""What piles up in the accounts' tables with time and is never read again, deleted (issue 42,
"nothing that grows without bound"): `manage.py prune_expired`, nightly from
`snooker-prune.timer` (deploy/systemd/, docs/deploy.md).

- Sessions past their expiry: Django's database sessions are never deleted by Django itself
  (`clearsessions` is for a cron job), and every visitor seated by "play the computer now"
  and every guest brings one. A session is read by its key only, so they slowed nothing
  they were not: they filled the disk and every dump (which leaves their rows out anyway).
- django-axes's records of logins: `AccessLog` (a row for every login, guests' too: nothing
  here reads it) and `AccessFailureLog` (a row for every failed login; the lockout's backoff
  reads one pair's failures of the last day, accounts/limits.py), kept `LOGIN_RECORDS_KEPT`
  for the organisers to look into, then deleted; and attempts whose cool-off is over (axes
  deletes them itself at the next login, not when none comes).

Each kind is deleted in batches of `BATCH` rows, so that a first run over years of them holds
no lock for long.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.sessions.models import Session
from django.db.models import Model, QuerySet
from django.utils import timezone

from accounts.limits import BACKOFF_WINDOW

LOGIN_RECORDS_KEPT = timedelta(days=30)
BATCH = 5000
assert LOGIN_RECORDS_KEPT >= BACKOFF_WINDOW  # the backoff counts the failures it reads


@dataclass(frozen=True)
class Pruned:
    sessions: int
    logins: int
    login_failures: int
    attempts: int


def _delete(rows: QuerySet[Model]) -> int:
    done = 0
    while True:
        batch = list(rows.values_list("pk", flat=True)[:BATCH])
        if not batch:
            return done
        rows.model._default_manager.filter(pk__in=batch).delete()
        done += len(batch)


def prune(now: datetime | None = None, kept: timedelta = LOGIN_RECORDS_KEPT) -> Pruned:
    """Delete what expired before `now` (the clock's by default), and the login records older
    than `kept`; how many of each."""
    now = now or timezone.now()
    before = now - kept
    return Pruned(
        sessions=_delete(Session.objects.filter(expire_date__lt=now)),
        logins=_delete(AccessLog.objects.filter(attempt_time__lt=before)),
        login_failures=_delete(AccessFailureLog.objects.filter(attempt_time__lt=before)),
        attempts=_delete(AccessAttempt.objects.filter(expiration__expires_at__lte=now)),
    )
