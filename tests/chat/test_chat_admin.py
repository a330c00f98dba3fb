"""The organisers' chat pages (chat/admin.py): lines deleted and authors timed out through the
service, in the audit log."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from chat import service
from chat.models import Action, Line, Timeout

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)


def test_an_organiser_deletes_a_line_and_times_its_author_out_from_the_admin() -> None:
    org = User.objects.create(username="org", is_staff=True, is_superuser=True)
    ann = User.objects.create(username="ann", password="pbkdf2_sha256$1$s$h")
    said = service.say(service.room("lobby"), ann, "<b>rude</b>", T0)
    client = Client()
    client.force_login(org)
    page = client.get("/admin/chat/line/")
    assert page.status_code == 200
    assert b"&lt;b&gt;rude&lt;/b&gt;" in page.content  # escaped, as everywhere
    for action in ("delete_lines", "time_out_1h"):
        answer = client.post("/admin/chat/line/", {"action": action, "_selected_action": [said.id]})
        assert answer.status_code == 302
    assert Line.objects.get().hidden
    timeout = Timeout.objects.get()
    assert (timeout.member, timeout.by) == (ann, org)
    assert timeout.reason == "For the line: “<b>rude</b>”"
    assert sorted(Action.objects.values_list("kind", flat=True)) == ["hide", "timeout"]


def test_a_member_not_staff_cannot_open_the_chat_pages() -> None:
    ann = User.objects.create(username="ann", password="pbkdf2_sha256$1$s$h")
    client = Client()
    client.force_login(ann)
    assert client.get("/admin/chat/line/").status_code == 302  # to the admin's login
