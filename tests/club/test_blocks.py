"""Blocking (club/blocks.py, issue 42 "Notices as a weapon"): the blocked member's challenges,
rematch offers and their notices never reach the blocker; a profile control in English and
Russian."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client as PageClient
from django.utils import translation

from club import blocks, service
from club.models import Block, Challenge
from rules.challenges import Format
from tests.club.helpers import LobbyClient
from tests.club.test_challenges_service import concede_match, refused

BO1 = Format(1)


def _page(user: object) -> PageClient:
    page = PageClient()
    page.force_login(user)  # type: ignore[arg-type]
    return page


@pytest.mark.django_db
def test_the_blocked_members_challenges_and_rematch_offers_never_reach_the_blocker(members) -> None:  # type: ignore[no-untyped-def]
    alice, bob, carol = members
    played = service.accept(bob, service.challenge(carol, bob, BO1).challenge.pk).match
    concede_match(played, carol)
    waiting = service.challenge(carol, bob, Format(3)).challenge
    # Bob blocks Carol from her profile: what she has waiting for him is declined.
    answer = _page(bob).post("/players/carol/block/")
    assert answer.status_code == 302 and answer["Location"] == "/players/carol/"
    assert Block.objects.filter(blocker=bob, blocked=carol).exists()
    waiting.refresh_from_db()
    assert waiting.status == "declined"
    assert refused(lambda: service.challenge(carol, bob, BO1)) == "blocked"
    assert refused(lambda: service.offer_rematch(carol, played.pk)) == "blocked"
    assert Challenge.objects.filter(challenger=carol, status="open").count() == 0
    # Her page says so, 403, and makes nothing.
    page = _page(carol).post("/challenges/new/", {"opponent": "bob", "best_of": 1, "guide": "full"})
    assert page.status_code == 403
    assert "This member takes no challenges from you." in page.content.decode()
    # Nor can she take his open challenge (her acceptance would be a notice to him); Alice can.
    open_one = service.challenge(bob, None, BO1).challenge
    assert refused(lambda: service.accept(carol, open_one.pk)) == "blocked"
    # Blocking is one-way: Bob may still challenge Carol, and Alice reaches Bob.
    assert service.challenge(bob, carol, Format(3)).challenge.target == carol
    assert service.challenge(alice, bob, BO1).challenge.target == bob
    assert service.accept(alice, open_one.pk).match is not None
    # Unblocked, she reaches him again.
    assert _page(bob).post("/players/carol/unblock/").status_code == 302
    assert not blocks.blocks(bob.pk, carol.pk)
    assert service.challenge(carol, bob, BO1).challenge.target == bob


@pytest.mark.django_db
def test_the_profile_offers_the_control_in_english_and_russian(members) -> None:  # type: ignore[no-untyped-def]
    _, bob, carol = members
    page = _page(bob)
    text = page.get("/players/carol/").content.decode()
    assert 'data-testid="block"' in text and "Block" in text
    assert 'data-testid="block"' not in page.get("/players/bob/").content.decode()  # himself
    assert 'data-testid="block"' not in PageClient().get("/players/carol/").content.decode()
    page.post("/players/carol/block/")
    text = page.get("/players/carol/").content.decode()
    assert 'data-testid="unblock"' in text and "You have blocked this member" in text
    # Carol's view of Bob shows nothing of it.
    assert 'data-testid="block"' in _page(carol).get("/players/bob/").content.decode()
    with translation.override("ru"):
        russian = page.get("/players/carol/", headers={"accept-language": "ru"}).content.decode()
    assert "Разблокировать" in russian and "Вы заблокировали этого участника" in russian
    assert page.get("/players/carol/block/").status_code == 405  # a POST only
    assert page.post("/players/nobody/block/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_clients")
async def test_no_notice_of_the_blocked_member_reaches_the_blocker(members) -> None:  # type: ignore[no-untyped-def]
    alice, bob, carol = members

    def block() -> None:
        service.block(bob, carol)

    await database_sync_to_async(block)()
    notices = LobbyClient(bob, lobby=False)
    await notices.open()

    def try_both() -> None:
        assert refused(lambda: service.challenge(carol, bob, BO1)) == "blocked"
        service.challenge(alice, bob, BO1)

    await database_sync_to_async(try_both)()
    # The first notice Bob hears is Alice's: Carol's never was.
    told = await notices.expect("notice")
    assert told["challenge"]["challenger"] == "alice"
    users = get_user_model().objects
    assert await database_sync_to_async(users.filter(username="carol").exists)()
