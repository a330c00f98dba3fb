"""What the tests with real server processes share."""

from __future__ import annotations

import os
import secrets
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from tests.live.harness import (
    ScratchDatabase,
    check_redis,
    drop_redis_keys,
    postgres_url,
    redis_url,
)


@pytest.fixture
def server_env() -> Iterator[dict[str, str]]:
    """The environment of every server and ctl process: a scratch database, a private prefix."""
    redis = redis_url()
    if problem := check_redis(redis):
        pytest.fail(problem)
    database = ScratchDatabase(postgres_url())
    try:
        database.create()
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL is not usable at {database.server_url}: {exc}")
    prefix = f"mp-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "snooker_site.settings",
        "DATABASE_URL": database.url,
        "REDIS_URL": redis,
        "CHANNEL_LAYER_PREFIX": prefix,
        "DEBUG": "false",
        # DEBUG off needs a key of its own, and these servers speak plain HTTP on loopback.
        "SECRET_KEY": secrets.token_urlsafe(64),
        "SECURE_SSL_REDIRECT": "false",
        "PYTHONUNBUFFERED": "1",
    }
    try:
        yield env
    finally:
        drop_redis_keys(redis, prefix)
        database.drop()
