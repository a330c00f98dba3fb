"""Settings for the snooker club.

One process runs on SQLite and the in-memory channel layer; several processes share the
database named by DATABASE_URL and the Redis named by REDIS_URL.
"""

import os
from pathlib import Path
from typing import Any, TypedDict

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production")
DEBUG = _env_flag("DEBUG", default=True)
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "snooker_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "snooker_site.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep connections: channels runs every ORM call of a process on one thread, and
        # opening a PostgreSQL connection per call costs more than the call.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    ),
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: write-ahead logging lets readers run beside the writer, and
    # synchronous=NORMAL is still safe in WAL mode while saving an fsync on every stroke's
    # commit; IMMEDIATE takes the write lock up front instead of failing to upgrade to it.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        transaction_mode="IMMEDIATE",
    )

REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYERS: dict[str, dict[str, Any]]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s that
                # channels_redis blocks in BZPOPMIN: a layer idle for 5 s then raised
                # TimeoutError into a consumer and closed its socket. Read for longer.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 10}],
                # A distinct prefix keeps runs that share one Redis (parallel test runs,
                # benchmarks) apart from each other's groups and channels.
                "prefix": os.environ.get("CHANNEL_LAYER_PREFIX") or "asgi",
            },
        },
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The live table (game/consumers.py, game/service.py). Seconds unless named otherwise.
class SnookerSettings(TypedDict):
    RECONNECT_GRACE: int
    HEARTBEAT: float
    CONNECTION_STALE: float
    PRESENCE_COALESCE: float
    RATE_BURST: int
    RATE_PER_SECOND: float
    SPECTATOR_RATE_BURST: int
    SPECTATOR_RATE_PER_SECOND: float
    FLOOD_CLOSE_AFTER: float
    FLOOD_PENALTY: float
    AIM_PER_SECOND: float
    RESYNC_EVENTS: int
    MAX_SOCKETS_PER_ADDRESS: int
    MAX_SOCKETS_PER_MATCH: int


_HEARTBEAT = float(os.environ.get("SNOOKER_HEARTBEAT", "10"))
SNOOKER: SnookerSettings = {
    # How long a disconnected player has to come back before the opponent may claim.
    "RECONNECT_GRACE": int(os.environ.get("SNOOKER_RECONNECT_GRACE", "60")),
    # How often a process refreshes its sockets' presence rows, and when a silent row counts
    # as gone (a dead process's): 1.5 beats, so presence converges within two beats.
    "HEARTBEAT": _HEARTBEAT,
    "CONNECTION_STALE": float(os.environ.get("SNOOKER_CONNECTION_STALE", 1.5 * _HEARTBEAT)),
    # Comings and goings within this many seconds make one presence broadcast.
    "PRESENCE_COALESCE": float(os.environ.get("SNOOKER_PRESENCE_COALESCE", "0.5")),
    # Flood control per socket: a bucket of messages refilled at a steady rate; a socket
    # refused without pause for this many seconds is closed (the match goes on).
    "RATE_BURST": 40,
    "RATE_PER_SECOND": 20.0,
    # A spectator sends a hello and a ping every few seconds: a little room, no more.
    "SPECTATOR_RATE_BURST": 10,
    "SPECTATOR_RATE_PER_SECOND": 2.0,
    "FLOOD_CLOSE_AFTER": 3.0,
    # ... and strangers from its address are turned away for this many seconds.
    "FLOOD_PENALTY": 30.0,
    # The striker's aim is relayed at most this often.
    "AIM_PER_SECOND": 10.0,
    # A reconnecting browser further behind than this gets a snapshot instead of events.
    "RESYNC_EVENTS": 100,
    # Sockets one process takes from one address, and watching one match (players exempt).
    "MAX_SOCKETS_PER_ADDRESS": int(os.environ.get("SNOOKER_MAX_SOCKETS_PER_ADDRESS", "20")),
    "MAX_SOCKETS_PER_MATCH": int(os.environ.get("SNOOKER_MAX_SOCKETS_PER_MATCH", "1000")),
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "index"
LOGOUT_REDIRECT_URL = "index"
