import asyncio
import contextlib

import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model

from club import process as club_process
from game import process
from tests.clock import set_clock  # noqa: F401  # a fixture
from tests.club.helpers import LobbyClient
from tests.game.helpers import Client


@pytest.fixture
def members(db: None):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    # No password: hashing one costs a third of a second; tests log in with force_login.
    return tuple(users.create_user(n, password=None) for n in ("alice", "bob", "carol"))


@pytest.fixture(autouse=True)
def fresh_process_state():  # type: ignore[no-untyped-def]
    """Each test starts from a clean process: channel layer, match registries, the lobby's."""

    def reset() -> None:
        channel_layers.backends.clear()
        process.reset()
        club_process.reset()

    reset()
    yield
    reset()


@pytest.fixture
async def close_clients():  # type: ignore[no-untyped-def]
    LobbyClient.made.clear()
    Client.made.clear()
    yield
    for client in [*LobbyClient.made, *Client.made]:
        # CancelledError too: a client whose application task was cancelled (a test that timed
        # out) must not stop the others closing, or what they hold outlives the test.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await client.ws.disconnect(timeout=2)
    await club_process.LOBBY.stop()
    LobbyClient.made.clear()
    Client.made.clear()
