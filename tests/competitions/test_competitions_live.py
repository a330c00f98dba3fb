"""A competition's page follows its competition without a reload, as a ladder's does: every
change (an entry, the draw, a start time proposed, a match begun, a result and the next
round's fixture it makes, the champion) is told after its commit, coalesced, to every club
socket (`competition` on the lobby and notices sockets), and the page reads its changing part
again (`competition_live`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from competitions import service
from competitions.models import Pairing
from game import presence
from rules import bracket as rules
from tests.club.helpers import LobbyClient
from tests.competitions.test_competitions_service import (
    RATINGS,
    opened,
    refused,
    to_play,
)
from tests.ladder.helpers import concede


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def fast(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0.05}


@pytest.mark.django_db(transaction=True)
async def test_each_change_of_a_competition_is_told_to_the_pages_watching(
    organiser, members, settings
) -> None:
    fast(settings)
    row = await database_sync_to_async(opened)(organiser, members[:4], rules.BestOf(1))
    # A spectator's page (her notices socket, no lobby socket in this process) and a lobby.
    page, lobby = LobbyClient(members[5], lobby=False), LobbyClient()
    try:
        for socket in (page, lobby):
            await socket.open()

        async def told() -> None:
            for socket in (page, lobby):
                message = await socket.expect("competition", timeout=10)
                assert message["competitions"] == [row.pk]

        now = timezone.now()
        await database_sync_to_async(service.draw)(row.pk, organiser, now, 7)
        await told()
        first = await database_sync_to_async(to_play)(row)
        assert sorted(first) == ["w1.0", "w1.1"]
        match = first["w1.0"]
        fixture = await database_sync_to_async(Pairing.objects.get)(competition=row, key="w1.0")
        at = now + timedelta(hours=2)
        await database_sync_to_async(service.propose_start)(
            fixture.fixture_id, match.player_a, at, now
        )
        await told()
        await database_sync_to_async(service.accept_start)(
            fixture.fixture_id, match.player_b, at, now
        )
        await told()
        # Both players at the table at the agreed start: the match begins, shown live.
        await database_sync_to_async(presence.connect)(match.pk, "a", "A", at)
        await database_sync_to_async(presence.connect)(match.pk, "b", "B", at)
        await told()
        # A result, decided inside the fixture's transaction, is told once it commits.
        for m in first.values():
            a, b = m.player_a.username, m.player_b.username
            await database_sync_to_async(concede)(
                m, m.player_b if RATINGS[a] > RATINGS[b] else m.player_a
            )
            await told()
        final = (await database_sync_to_async(to_play)(row))["w2.0"]
        await database_sync_to_async(concede)(final, final.player_b)
        await told()
    finally:
        for socket in (page, lobby):
            await socket.ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_refused_change_tells_no_competition_page(organiser, members, settings) -> None:
    fast(settings)
    row = await database_sync_to_async(opened)(organiser, members[:2])
    page = LobbyClient(members[5], lobby=False)
    try:
        await page.open()
        # The entries' own message, coalesced, may come after the welcome.
        while not await page.ws.receive_nothing(timeout=0.3):
            await page.recv()
        page.seen.clear()
        code = await database_sync_to_async(refused)(
            lambda: service.enter(row.pk, members[0], timezone.now())
        )
        assert code == "entered_already"
        assert await page.no_rows(0.3)
        assert not [m for m in page.seen if m["type"] == "competition"]
    finally:
        await page.ws.disconnect()


def test_the_competitions_changing_part_is_read_alone(organiser, members) -> None:
    row = opened(organiser, members[:4])
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    browser = Client()
    browser.force_login(members[5])
    url = reverse("competition_live", args=[row.pk])
    html = browser.get(url).content.decode()
    assert 'data-testid="fixture-w1.0"' in html and 'data-state="waiting"' in html
    assert 'data-testid="competition"' in html and "<html" not in html
    page = browser.get(reverse("competition", args=[row.pk])).content.decode()
    assert f'data-competition-id="{row.pk}" data-live="{url}"' in page
    assert browser.get(reverse("competition_live", args=[999])).status_code == 404
    # A visitor's "log in to enter" comes back to the page, not to the fragment.
    later = opened(organiser, [])
    html = Client().get(reverse("competition_live", args=[later.pk])).content.decode()
    assert f"?next={reverse('competition', args=[later.pk])}" in html
