import asyncio
import contextlib

import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model
from django.core.cache import cache

from club import process as club_process
from computer import driver
from game import process, service
from tests.clock import set_clock  # noqa: F401  # a fixture
from tests.game.helpers import Client, started


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    return users.create_user("alice", password="pw"), users.create_user("bob", password="pw")


@pytest.fixture
def match(players):  # type: ignore[no-untyped-def]
    """Best of 3, Alice (A) breaks; started (the two were at the table together), so that
    the service takes its strokes (tests of the start make their own)."""
    return started(service.create_match(players[0], players[1], best_of=3, draw="A"))


@pytest.fixture(autouse=True)
def fresh_process_state():  # type: ignore[no-untyped-def]
    """What a server process keeps across sockets starts afresh for each test: the channel
    layer (channels_redis binds its locks to the loop that first used them) and the presence
    heartbeat (a beat left sleeping by an earlier test would not see this test's settings)."""

    def reset() -> None:
        channel_layers.backends.clear()
        process.reset()
        club_process.reset()  # the lobby hears the game's matches: nothing of theirs stays
        driver.reset()  # nor does the computer's driver, which hears them too
        cache.clear()  # frames' logs are cached under match ids a later test will reuse

    reset()
    yield
    reset()


@pytest.fixture
async def close_clients():  # type: ignore[no-untyped-def]
    """Close every websocket client a test opened, while its event loop still runs."""
    Client.made.clear()
    yield
    for client in Client.made:
        # CancelledError too: a client whose application task was cancelled (a test that timed
        # out) must not stop the others closing, or what they hold outlives the test.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await client.ws.disconnect(timeout=2)
    Client.made.clear()
