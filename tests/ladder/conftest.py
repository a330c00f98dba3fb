import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model

from club import process as club_process
from game import process
from ladder.models import Ladder
from tests.clock import set_clock  # noqa: F401  # a fixture


@pytest.fixture
def members(db: None):  # type: ignore[no-untyped-def]
    """Six members; no passwords (tests log in with force_login), so nothing is hashed."""
    users = get_user_model().objects
    return tuple(
        users.create_user(n, password=None) for n in ("ann", "ben", "cat", "dan", "eve", "fay")
    )


@pytest.fixture
def main(db: None) -> Ladder:
    """The club's main ladder (made by the migration; again after a transactional test's
    flush), best of 1."""
    ladder, _ = Ladder.objects.get_or_create(
        main=True, defaults={"name": "Club ladder", "slug": "main"}
    )
    ladder.best_of = 1
    ladder.save()
    return ladder


@pytest.fixture(autouse=True)
def fresh_process_state():  # type: ignore[no-untyped-def]
    def reset() -> None:
        channel_layers.backends.clear()
        process.reset()
        club_process.reset()

    reset()
    yield
    reset()
