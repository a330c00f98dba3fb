"""A competition's news by e-mail too (competitions/mail.py): when the club sends mail, each
player with an address who has not turned it off gets the notices' own words in English and
Russian, with the competition's link; a member who turned it off, one with no address, the
proposer of a start time and every member of a club without mail get none. The choice is the
competitions page's box."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail as outbox
from django.test import Client
from django.utils import timezone

from competitions import mail, service
from competitions.models import Pairing
from members.models import Member
from rules import bracket as rules
from tests.competitions.test_competitions_service import opened


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


@pytest.fixture
def mailing(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The club sends mail (to Django's test outbox), and the mail's thread runs at once."""
    settings.EMAIL_HOST = "smtp.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ALLOWED_HOSTS = ["snooker.example.org", "localhost", "testserver"]
    monkeypatch.setattr(mail.POOL, "submit", lambda _, *args: mail.send(*args))


def addresses(members: Any) -> None:
    for m in members:
        m.email = f"{m.username}@example.org"
        m.save(update_fields=["email"])


def test_the_draw_and_a_proposal_by_mail(
    organiser, members, mailing, django_capture_on_commit_callbacks
) -> None:
    ann, ben, cat, dan, *_ = members
    addresses((ann, ben, cat))  # dan has no address
    Member.objects.filter(user=cat).update(competition_mail=False)
    Member.objects.filter(user=ben).update(time_zone="Europe/Moscow")
    row = opened(organiser, (ann, ben, cat, dan), rules.BestOf(1))
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        service.draw(row.pk, organiser, now, 7)
    # ann and ben: the draw and their opponent; cat turned it off; dan has no address.
    mailed = sorted(m.to[0] for m in outbox.outbox)
    assert mailed == ["ann@example.org"] * 2 + ["ben@example.org"] * 2
    drawn = next(m for m in outbox.outbox if m.to == ["ann@example.org"])
    assert drawn.subject == "Winter knockout is drawn"
    assert drawn.body.split("\n\n") == [
        "Winter knockout is drawn",
        "Зимний турнир: жеребьёвка проведена",
        f"https://snooker.example.org/competitions/{row.pk}/",
    ]
    opponent = [m for m in outbox.outbox if m.to == ["ben@example.org"]][1]
    assert opponent.subject == "Winter knockout: your next match is against cat"

    # Ann proposes a start to dan (no address): nobody is mailed; ben proposes to cat (off):
    # nobody either; ben's own proposal is not mailed to ben.
    outbox.outbox.clear()
    pairings = {p.key: p for p in Pairing.objects.filter(competition=row)}
    at = now + timedelta(hours=3)
    with django_capture_on_commit_callbacks(execute=True):
        service.propose_start(pairings["w1.1"].fixture_id, cat, at, now)
    # cat proposed: ben (Moscow time) is mailed the time in his zone.
    [proposed] = outbox.outbox
    assert proposed.to == ["ben@example.org"]
    assert proposed.subject.startswith("Winter knockout: cat proposes to start your match at ")
    assert "(Europe/Moscow)" in proposed.subject
    assert "Зимний турнир: cat" in proposed.body


def test_no_mail_without_the_clubs_mail(organiser, members, settings, monkeypatch) -> None:
    settings.EMAIL_HOST = ""
    sent: list[Any] = []
    monkeypatch.setattr(mail.POOL, "submit", lambda *args: sent.append(args))
    ann, ben, *_ = members
    addresses((ann, ben))
    row = opened(organiser, (ann, ben), rules.BestOf(1))
    service.draw(row.pk, organiser, timezone.now(), 7)
    assert sent == [] and outbox.outbox == []


def test_the_box_on_the_competitions_page(members, mailing, settings) -> None:
    ann = members[0]
    client = Client()
    client.force_login(ann)
    page = client.get("/competitions/").content.decode()
    assert 'checked data-testid="competition-mail-box"' in page
    client.post("/competitions/mail/", {})  # the box unticked
    assert Member.objects.get(user=ann).competition_mail is False
    page = client.get("/competitions/").content.decode()
    assert 'checked data-testid="competition-mail-box"' not in page
    client.post("/competitions/mail/", {"mail": "on"})
    assert Member.objects.get(user=ann).competition_mail is True
    assert Client().post("/competitions/mail/", {"mail": "on"}).status_code == 302  # to log in
    settings.EMAIL_HOST = ""  # without the club's mail, no box
    assert "competition-mail" not in client.get("/competitions/").content.decode()
