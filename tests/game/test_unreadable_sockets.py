"""A NUL or a lone surrogate in a socket's message, through the real consumers (issue 42;
the parser's own rule: tests/test_unreadable.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from game.models import Match, MatchEvent
from tests.club.helpers import LobbyClient
from tests.game.helpers import Client as MatchClient


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_clients")
async def test_a_nul_or_a_surrogate_through_the_sockets_is_answered_invalid_and_the_socket_lives(
    match: Match, players: tuple[User, User]
) -> None:
    """Through the real consumers, on whichever database runs the suite (PostgreSQL in CI):
    the match's socket and the lobby's answer the protocol's `invalid`, store nothing, and go
    on answering."""
    alice = players[0]
    table = MatchClient(match.pk, alice)
    await table.open()
    count = MatchEvent.objects.filter(match_id=match.pk).count
    before = await database_sync_to_async(count)()
    for text in (
        '{"type": "stroke", "client_id": "a\\u0000b", "version": 0, "angle": 0, "speed": 3}',
        '{"type": "concede", "client_id": "a\\ud800", "scope": "frame"}',
        '{"type": "log\\u0000", "client_id": "c1"}',
    ):
        await table.ws.send_to(text_data=text)
        refused = await table.expect("error")
        # The protocol's refusal (a type with a NUL is no type it knows), never echoing the NUL.
        assert refused["code"] in {"invalid", "unknown_type", "bad_json"}
        assert refused["client_id"] in (None, "c1")
    await table.send({"type": "ping", "version": 0})
    assert (await table.expect("pong"))["type"] == "pong"
    assert await database_sync_to_async(count)() == before  # nothing stored
    lobby = LobbyClient(alice)
    await lobby.open()
    await lobby.ws.send_to(text_data='{"type": "ping", "x": "\\u0000"}')
    assert (await lobby.expect("error"))["code"] == "invalid"
    await lobby.send({"type": "ping"})
    assert (await lobby.expect("pong"))["type"] == "pong"
