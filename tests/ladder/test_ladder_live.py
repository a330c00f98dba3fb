"""The ladder's page follows its ladder without a reload: every change of its standings or
challenges (a join, a challenge made and answered, a start time proposed) is told, after its
commit and coalesced, to every club socket (`ladder` on the lobby and notices sockets), and
the page reads its changing part again (`ladder_live`)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club import service as club_service
from game import service as game_service
from ladder import service
from ladder.models import LadderChallenge
from tests.club.helpers import LobbyClient
from tests.ladder.helpers import accepted, on_ladder, row_of


def fast(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CLUB = {**settings.CLUB, "LOBBY_COALESCE": 0.05}


@pytest.mark.django_db(transaction=True)
async def test_each_change_of_a_ladder_is_told_to_the_pages_watching(
    members, main, settings
) -> None:
    ann, ben, cat, *_ = members
    fast(settings)
    await database_sync_to_async(on_ladder)(main, ann)
    # Ann's ladder page (its notices socket, no lobby socket in this process) and a lobby.
    page, lobby = LobbyClient(ann, lobby=False), LobbyClient()
    try:
        for socket in (page, lobby):
            await socket.open()

        async def told() -> None:
            for socket in (page, lobby):
                assert (await socket.expect("ladder", timeout=10))["ladders"] == [main.pk]

        await database_sync_to_async(service.join)(main.pk, ben)
        await told()
        done = await database_sync_to_async(service.challenge)(main.pk, ben, ann)
        await told()
        assert done.challenge is not None
        await database_sync_to_async(club_service.accept)(ann, done.challenge.challenge_id)
        await told()
        row = await database_sync_to_async(LadderChallenge.objects.get)(ladder=main)
        now = timezone.now()
        at = now + timedelta(hours=2)
        await database_sync_to_async(service.propose_start)(row.pk, ben, at)
        await told()
        await database_sync_to_async(service.accept_start)(row.pk, ann, at)
        await told()
        await database_sync_to_async(service.move)(main.pk, ben, 1, by=cat)  # an organiser
        await told()
    finally:
        for socket in (page, lobby):
            await socket.ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_refused_change_tells_nobody(members, main, settings) -> None:
    ann, *_ = members
    fast(settings)
    main.open = False
    await database_sync_to_async(main.save)()
    page = LobbyClient(ann, lobby=False)
    try:
        await page.open()
        with pytest.raises(service.LadderError):
            await database_sync_to_async(service.join)(main.pk, ann)
        assert await page.no_rows(0.3)
        assert not [m for m in page.seen if m["type"] == "ladder"]
    finally:
        await page.ws.disconnect()


def test_the_changing_part_is_read_alone(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben)
    browser = Client()
    browser.force_login(cat)
    answer = browser.get(reverse("ladder_live", args=[main.slug]))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'data-member="ann"' in html and 'data-member="ben"' in html
    assert 'data-testid="join-ladder"' in html and "<html" not in html
    # Its forms come back to the ladder's page, not to the fragment.
    browser.force_login(ann)
    service.challenge(main.pk, ben, ann)
    html = browser.get(reverse("ladder_live", args=[main.slug])).content.decode()
    assert 'data-testid="accept-ladder"' in html
    browser.force_login(ben)
    html = browser.get(reverse("ladder_live", args=[main.slug])).content.decode()
    assert 'name="next" value="/ladder/"' in html and "/live/" not in html
    # The page itself holds the same part, with where to read it again.
    page = browser.get(reverse("ladder")).content.decode()
    assert f'data-ladder-id="{main.pk}"' in page
    assert f'data-live="{reverse("ladder_live", args=[main.slug])}"' in page
    assert browser.get(reverse("ladder_live", args=["nowhere"])).status_code == 404


def test_the_start_time_panel_is_read_alone(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    url = reverse("ladder_start_panel", args=[match.pk])
    browser = Client()
    browser.force_login(ann)
    page = browser.get(reverse("match", args=[match.pk])).content.decode()
    assert f'data-ladder-id="{main.pk}" data-live="{url}"' in page
    html = browser.get(url).content.decode()
    assert 'data-testid="no-agreed-start"' in html and "proposed-start" not in html
    service.propose_start(row.pk, ben, timezone.now() + timedelta(hours=2))
    html = browser.get(url).content.decode()
    assert 'data-testid="proposed-start"' in html and 'data-testid="accept-start"' in html
    # Its forms come back to the match's page.
    assert html.count(f'name="next" value="{reverse("match", args=[match.pk])}"') == 2
    # Not a ladder match's to agree (a friendly): nothing.
    friendly = game_service.create_match(ann, cat, 1)
    empty = browser.get(reverse("ladder_start_panel", args=[friendly.pk]))
    assert empty.status_code == 200 and empty.content == b""
