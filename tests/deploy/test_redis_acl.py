"""The shipped Redis ACL (deploy/redis/users.acl) in a Redis of its own: nobody gets in as
`default`, and the club, with REDIS_URL carrying its user and password, does all it does with
Redis (the channel layer between processes, the throttles' counts, the health check) and
nothing administrative. Needs redis-server (CI has it, as `make test` does)."""

from __future__ import annotations

import hashlib
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.deploy.render import DEPLOY
from tests.live.harness import free_port, run_python
from tests.needs import missing

PLACEHOLDER = "#" + "0" * 64


@pytest.fixture(scope="module")
def acl_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, str]]:
    server = shutil.which("redis-server")
    if server is None:
        missing("redis-server is not installed (apt-get install redis-server)")
    folder = tmp_path_factory.mktemp("redis-acl")
    password = secrets.token_urlsafe(32)
    shipped = (DEPLOY / "redis" / "users.acl").read_text()
    assert PLACEHOLDER in shipped
    acl = folder / "users.acl"
    acl.write_text(
        shipped.replace(PLACEHOLDER, "#" + hashlib.sha256(password.encode()).hexdigest())
    )
    port = free_port()
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder), "--aclfile", str(acl)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "redis did not start"
                time.sleep(0.05)
        yield port, password
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_default_is_refused_and_the_club_cannot_administer(acl_redis: tuple[int, str]) -> None:
    port, password = acl_redis
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(port=port).ping()
    club = redis.Redis(port=port, username="snooker", password=password)
    assert club.ping()
    for command in (("CONFIG", "GET", "*"), ("FLUSHALL",), ("KEYS", "*"), ("ACL", "LIST")):
        with pytest.raises(redis.exceptions.NoPermissionError):
            club.execute_command(*command)
    with pytest.raises(redis.exceptions.NoPermissionError):
        club.set("other:key", "1")  # not the club's keys


CLUB_ON_REDIS = """
import asyncio, json
import django
django.setup()
from channels.layers import get_channel_layer
from django.core.cache import caches
from django.test import Client
from game import health

async def layer():
    channels = get_channel_layer()
    name = await channels.new_channel()
    await channels.group_add("lobby", name)
    await channels.group_send("lobby", {"type": "hello", "n": 1})
    return (await channels.receive(name))["n"]

throttle = caches["throttle"]
throttle.set("signup:192.0.2.1", 0, 60)
counted = throttle.incr("signup:192.0.2.1")
print(json.dumps({"layer": asyncio.run(layer()), "throttle": counted,
                  "health": health.redis_answers()}))
"""


def test_the_club_runs_on_its_redis_user(acl_redis: tuple[int, str], tmp_path: Path) -> None:
    import json
    import os

    port, password = acl_redis
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNOOKER_")}
    env.update(
        DJANGO_SETTINGS_MODULE="snooker_site.settings",
        REDIS_URL=f"redis://snooker:{password}@127.0.0.1:{port}/0",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    out = run_python(env, "-c", CLUB_ON_REDIS, timeout=120)
    assert json.loads(out.strip().splitlines()[-1]) == {"layer": 1, "throttle": 1, "health": True}
