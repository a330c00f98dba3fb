"""The organisers' fair-play signal (computer/signal.py, docs/coach.md): a member whose analysed
strokes in rated matches are the Pro's own past the marks is listed for organisers, with the
matches; nobody else sees the page; unrated matches and too few strokes count for nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from computer import signal
from computer.models import Analysis
from game import service
from game.models import Match

pytestmark = pytest.mark.django_db


def _analysed(a, b, rated: bool, agree_a: int, agree_b: int, strokes: int = 40) -> Match:  # type: ignore[no-untyped-def]
    """A finished match whose one frame was analysed: `strokes` strokes a player, of which
    `agree_*` were the Pro's, A losing 0.5 points a stroke, B 3."""
    match = service.create_match(a, b, 1, draw="A")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, rated=rated)
    rows = [{"index": i, "seat": seat, "lost": 0.5 if seat == "A" else 3.0,
             "agrees": i < (agree_a if seat == "A" else agree_b)}
            for seat in ("A", "B") for i in range(strokes)]  # fmt: skip
    Analysis.objects.create(match=match, frame=1, status=Analysis.Status.DONE,
                            requested=timezone.now(), seed="s", strokes=rows,
                            done=len(rows), total=len(rows))  # fmt: skip
    return match


def test_a_member_playing_the_pros_game_is_flagged_with_the_matches(players) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players
    one = _analysed(alice, bob, True, agree_a=30, agree_b=8)
    assert signal.flagged() == []  # 40 strokes: not enough to say
    two = _analysed(alice, bob, True, agree_a=32, agree_b=30)
    _analysed(alice, bob, False, agree_a=0, agree_b=0)  # unrated: counts for nothing
    [flagged] = signal.flagged()
    assert flagged.name == "alice" and flagged.strokes == 80 and flagged.matches == {one.pk, two.pk}
    assert flagged.agreement == pytest.approx(62 / 80) and flagged.lost_per_stroke == 0.5
    bob_reading = next(r for r in signal.readings() if r.name == "bob")
    assert not bob_reading.flagged  # agrees often enough, but loses 3 points a stroke


def test_only_organisers_see_the_page(players) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players
    _analysed(alice, bob, True, agree_a=40, agree_b=0, strokes=70)
    web = Client()
    assert web.get("/computer/fair-play/").status_code == 302  # log in first
    web.force_login(bob)
    assert web.get("/computer/fair-play/").status_code == 403
    web.force_login(get_user_model().objects.create_user("org", password="pw", is_staff=True))
    page = web.get("/computer/fair-play/").content.decode()
    assert 'data-testid="flagged-alice"' in page and 'data-testid="flagged-bob"' not in page


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    return users.create_user("alice", password="pw"), users.create_user("bob", password="pw")
