"""Redis and the database. These fail, never skip, when a service is missing.

Redis is required everywhere (every machine of this kind runs it on 127.0.0.1:6379); in CI
the channel layer must be Redis and the database PostgreSQL.
"""

import asyncio
import uuid

import pytest
import redis
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connection

from tests.needs import in_ci

TIMEOUT = 5.0


def test_redis_answers_ping(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=2)
    try:
        assert client.ping(), f"no PONG from {redis_url}"
    except redis.ConnectionError as exc:
        pytest.fail(f"Redis is not reachable at {redis_url}: {exc}")
    finally:
        client.close()


async def test_redis_channel_layer_round_trip(redis_url: str) -> None:
    # Two layers stand for two server processes; a unique prefix keeps this test's keys apart.
    prefix = f"test-{uuid.uuid4().hex}"
    sender = RedisChannelLayer(hosts=[redis_url], prefix=prefix)
    receiver = RedisChannelLayer(hosts=[redis_url], prefix=prefix)
    try:
        channel = await receiver.new_channel()
        await sender.send(channel, {"type": "test.direct", "n": 1})
        assert await asyncio.wait_for(receiver.receive(channel), TIMEOUT) == {
            "type": "test.direct",
            "n": 1,
        }

        await receiver.group_add("table", channel)
        await sender.group_send("table", {"type": "test.group", "n": 2})
        assert await asyncio.wait_for(receiver.receive(channel), TIMEOUT) == {
            "type": "test.group",
            "n": 2,
        }
        await receiver.group_discard("table", channel)
    finally:
        await sender.close_pools()
        await receiver.close_pools()


async def test_configured_channel_layer_round_trip() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "test.configured"})
    assert await asyncio.wait_for(layer.receive(channel), TIMEOUT) == {"type": "test.configured"}
    if isinstance(layer, RedisChannelLayer):
        await layer.close_pools()


@pytest.mark.django_db
def test_database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    if in_ci():
        assert connection.vendor == "postgresql", (
            f"CI must run on PostgreSQL (DATABASE_URL), not {connection.vendor}"
        )


def test_ci_uses_redis_channel_layer() -> None:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if in_ci():
        assert backend == "channels_redis.core.RedisChannelLayer", (
            f"CI must set REDIS_URL; channel layer is {backend}"
        )
    else:
        assert backend in {
            "channels_redis.core.RedisChannelLayer",
            "snooker_site.layers.SweptInMemoryChannelLayer",
        }
