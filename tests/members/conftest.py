import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def players(db: None):  # type: ignore[no-untyped-def]
    """Alice, Bob and Алиса (a name in Cyrillic); no passwords (tests log in with
    `force_login`), so nothing is hashed."""
    users = get_user_model().objects
    return (
        users.create_user("alice"),
        users.create_user("bob"),
        users.create_user("Алиса"),
    )


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    """Each test reads archives from its own database, not an earlier test's cache."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
