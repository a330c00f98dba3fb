"""The lobby's and the notices' sockets leave nothing behind in the process when they close
(issue 42, "nothing that grows without bound"): who is greeted, who is online, the caps'
counts, however many members came and went."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from club import process as club_process
from game.gates import GATE
from tests.club.helpers import LobbyClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


def _sizes() -> dict[str, int]:
    lobby = club_process.LOBBY
    return {
        "greeted": len(lobby.local),
        "watchers": len(lobby.watchers),
        "online": len(lobby.online),
        "sockets": lobby.sockets,
        "gate addresses": len(GATE.addresses),
        "gate rooms": len(GATE.matches),
        "gate members": len(GATE.members_held),
        "gate members at": len(GATE.members_at),
    }


async def test_lobby_and_notices_sockets_opened_and_closed_leave_nothing() -> None:
    def made() -> list[Any]:
        users = get_user_model().objects
        return [users.create_user(f"member{i}", password=None) for i in range(8)]

    members = await database_sync_to_async(made)()
    before = _sizes()
    clients = [LobbyClient(m, address=f"10.9.6.{i}") for i, m in enumerate(members)]
    clients += [LobbyClient(m, address=f"10.9.7.{i}", lobby=False) for i, m in enumerate(members)]
    clients.append(LobbyClient(address="10.9.8.1"))  # a visitor
    for client in clients:
        await client.open()
    during = _sizes()
    assert during["online"] == 8 and during["greeted"] + during["watchers"] == 17, during
    await asyncio.gather(*(client.ws.disconnect(timeout=10) for client in clients))
    LobbyClient.made.clear()  # closed here, not again by the fixture
    await asyncio.sleep(0)
    assert _sizes() == before
