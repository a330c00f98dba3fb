"""The lobby's count of matches against the computer is sent when it alone changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from club import jobs
from club import process as club_process
from computer.service import play_computer
from tests.club.helpers import LobbyClient
from tests.computer.test_computer import seats

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


async def test_a_match_against_the_computer_ending_alone_updates_the_count() -> None:
    """It has no row in the lobby, so its end changes no row: the count alone is the update
    (before, it waited for some other row to change); a change that moves neither a row nor
    the count sends nothing."""

    def made():  # type: ignore[no-untyped-def]
        seats()
        alice = get_user_model().objects.create_user("alice")
        return play_computer(alice, "novice", 1)

    match = await database_sync_to_async(made)()
    watcher = LobbyClient(address="10.8.0.1")
    assert (await watcher.open())["computer_live"] == 1
    done = await jobs.abandon_idle_computer(match.created + timedelta(hours=1, seconds=1))
    assert [gone.match for gone in done] == [match.pk]
    update = await watcher.expect("update")
    assert update["computer_live"] == 0
    assert update["matches"] == [] and update["challenges"] == []
    # The same match noted again: nothing to tell.
    sent = club_process.LOBBY.updates
    club_process.LOBBY.matches.add(match.pk)
    await club_process.LOBBY.flush()
    assert club_process.LOBBY.updates == sent
