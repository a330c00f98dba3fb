import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model

from game import service


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    return users.create_user("alice", password="pw"), users.create_user("bob", password="pw")


@pytest.fixture
def match(players):  # type: ignore[no-untyped-def]
    """Best of 3, Alice (A) breaks."""
    return service.create_match(players[0], players[1], best_of=3, draw="A")


@pytest.fixture(autouse=True)
def fresh_channel_layer():  # type: ignore[no-untyped-def]
    """Each test runs on its own event loop: give it its own layer (channels_redis binds its
    locks to the loop that first used them)."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
