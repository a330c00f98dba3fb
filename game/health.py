"""What /healthz asks: does the database answer, does Redis? Each check is bounded in time
(the database's connect_timeout in settings.py; Redis's here), and a failure is an answer, not
an exception: the proxy and systemd must hear "no" quickly rather than wait."""

from __future__ import annotations

import logging
from functools import cache

import redis
from django.conf import settings
from django.db import DatabaseError, connection

from game.supervise import DEPENDENCIES

log = logging.getLogger(__name__)


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            answers = bool(cursor.fetchone() == (1,))
    except DatabaseError as exc:
        # Said once for the process while it lasts (game/supervise.py), not once a check.
        if DEPENDENCIES.failed(exc, "/healthz") is None:
            log.warning("healthz: the database does not answer: %s", exc)
        return False
    if answers:
        DEPENDENCIES.back("database")  # said once, if a task had found it away
    return answers


@cache
def _client(url: str) -> redis.Redis:
    # One client (and its connection pool) per URL for the process: a check costs a PING.
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def redis_answers() -> bool | None:
    """True or False; None when no Redis is configured (one process, in-memory layer)."""
    url = settings.REDIS_URL
    if not url:
        return None
    try:
        answers = bool(_client(url).ping())
    except redis.RedisError as exc:
        if DEPENDENCIES.failed(exc, "/healthz") is None:
            log.warning("healthz: Redis does not answer: %s", exc)
        return False
    if answers:
        DEPENDENCIES.back("redis")
    return answers
