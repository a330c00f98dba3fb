"""What piles up in the accounts' tables (issue 42): expired sessions and old login records
are deleted by `manage.py prune_expired` (nightly, deploy/systemd/snooker-prune.timer); the
live sessions, the recent records and the lockout they feed are kept."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts import prune

pytestmark = pytest.mark.django_db

_WHO = dict(user_agent="ua", ip_address="10.7.0.1", http_accept="*/*", path_info="/")


def _at(model: type, when: object, **fields: object) -> object:
    row = model.objects.create(**_WHO, **fields)
    model.objects.filter(pk=row.pk).update(attempt_time=when)  # (auto_now_add on create)
    return row


def test_expired_sessions_and_old_login_records_go_and_the_rest_stays() -> None:
    now = timezone.now()
    alice = get_user_model().objects.create_user("alice", password=None)
    live = Client()
    live.force_login(alice)  # a live session: kept, and still logged in afterwards
    for i in range(30):  # thirty visitors' sessions that expired
        gone = now - timedelta(minutes=i + 1)
        Session.objects.create(session_key=f"gone{i:028d}", session_data="", expire_date=gone)
    for days in (40, 31, 29, 1):
        _at(AccessLog, now - timedelta(days=days), username="alice")
        _at(AccessFailureLog, now - timedelta(days=days), username="alice")
    over = _at(AccessAttempt, now - timedelta(hours=1), username="bob", get_data="", post_data="",
               failures_since_start=3)  # fmt: skip
    AccessAttemptExpiration.objects.create(access_attempt=over, expires_at=now - timedelta(1))
    waiting = _at(AccessAttempt, now, username="carol", get_data="", post_data="",
                  failures_since_start=3)  # fmt: skip
    AccessAttemptExpiration.objects.create(access_attempt=waiting, expires_at=now + timedelta(1))

    done = prune.prune(now)

    assert done == prune.Pruned(sessions=30, logins=2, login_failures=2, attempts=1)
    assert Session.objects.count() == 1
    assert live.get("/accounts/password_change/").status_code == 200  # still logged in
    kept = timedelta(days=30)
    assert all(now - r.attempt_time < kept for r in AccessLog.objects.all())
    # The 29 and 1 days old, and Alice's login above.
    assert AccessFailureLog.objects.count() == 2 and AccessLog.objects.count() == 3
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["carol"]
    assert prune.prune(now) == prune.Pruned(0, 0, 0, 0)  # again: nothing more


def test_the_command_prunes_in_batches_as_at_the_time_given(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The nightly command (`--now`, `--days`); a backlog goes a batch at a time."""
    monkeypatch.setattr(prune, "BATCH", 7)
    now = timezone.now()
    for i in range(20):
        soon = now + timedelta(hours=1)
        Session.objects.create(session_key=f"old{i:029d}", session_data="", expire_date=soon)
    for _ in range(3):
        _at(AccessLog, now - timedelta(days=3), username="alice")
    out = StringIO()
    later = (now + timedelta(hours=2)).isoformat()
    call_command("prune_expired", "--now", later, "--days", "2", stdout=out)
    assert "deleted 20 expired session(s), 3 login(s)" in out.getvalue()
    assert Session.objects.count() == 0 and AccessLog.objects.count() == 0
    with pytest.raises(ValueError):
        call_command("prune_expired", "--days", "0", stdout=StringIO())
