"""Settings for the snooker club.

One process runs on SQLite and the in-memory channel layer; several processes share the
database named by DATABASE_URL and the Redis named by REDIS_URL. Every value the environment
may give is a knob of snooker_site/knobs.py (docs/settings.md), read once here and checked at
start; the code reads django.conf.settings.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any, TypedDict

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from snooker_site import knobs as k
from snooker_site.headers import page_headers

BASE_DIR = Path(__file__).resolve().parent.parent

try:
    _env = k.Environment(os.environ)
except k.BadValue as error:
    raise ImproperlyConfigured(str(error)) from None

DEBUG = _env[k.DEBUG]
# Fail closed: a server with DEBUG off never starts on a key that is written in this file.
SECRET_KEY = _env[k.SECRET_KEY]
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG=false the server refuses to start on the "
            "development key: set the SECRET_KEY environment variable to a long random value "
            "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(64))'`)."
        )
    SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
ALLOWED_HOSTS = list(_env[k.ALLOWED_HOSTS])

INSTALLED_APPS = [
    "daphne",
    # Before the admin, whose registration/ templates would otherwise be the account pages'.
    "accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "csp",
    "chat",
    "game",
    "ratings",
    "fixtures",
    "members",
    "club",
    "ladder",
    "computer",
    "competitions",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files answer here, with SecurityMiddleware's headers (and its redirect to HTTPS).
    "snooker_site.static.StaticFiles",  # WhiteNoise's, async too
    # A NUL or a lone surrogate in the path, query, form or cookies: 400 before the session is
    # read (snooker_site/unreadable.py).
    "snooker_site.unreadable.UnreadableRefused",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware (Django's order): the page's language.
    "django.middleware.locale.LocaleMiddleware",
    # After the session too: the viewer's time zone (a member's choice, the browser's, the club's).
    "accounts.zones.viewer_zone",
    # The club's 404 page in the visitor's language, under DEBUG too (snooker_site/notfound.py).
    "snooker_site.notfound.SiteNotFound",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a login refused for lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "snooker_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.i18n",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "club.context.club",
            ],
        },
    },
]

ASGI_APPLICATION = "snooker_site.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        _env[k.DATABASE_URL] or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep connections: channels runs every ORM call of a process on one thread, and
        # opening a PostgreSQL connection per call costs more than the call.
        conn_max_age=_env[k.DB_CONN_MAX_AGE],
        conn_health_checks=True,
    ),
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A server that does not answer is an error within seconds (/healthz must say so), not a
    # connection attempt that waits for the operating system's timeout.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: write-ahead logging lets readers run beside the writer, and
    # synchronous=NORMAL is still safe in WAL mode while saving an fsync on every stroke's
    # commit; IMMEDIATE takes the write lock up front instead of failing to upgrade to it.
    # The process's writers take turns, the players' first (snooker_site/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = "snooker_site.sqlite"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        transaction_mode="IMMEDIATE",
    )
    # Tests in memory, as Django makes them for its own SQLite engine: said outright, since
    # pytest-django knows that default only by the engine's name and would name a file for
    # each worker after this database's path (a directory that does not exist).
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", ":memory:")

REDIS_URL = _env[k.REDIS_URL]
_PREFIX = _env[k.CHANNEL_LAYER_PREFIX]
CHANNEL_LAYERS: dict[str, dict[str, Any]]
if REDIS_URL:
    from snooker_site.layers import redis_layer

    # A distinct prefix keeps runs that share one Redis (parallel test runs, benchmarks) apart
    # from each other's groups and channels.
    CHANNEL_LAYERS = {"default": redis_layer(REDIS_URL, _PREFIX)}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "snooker_site.layers.SweptInMemoryChannelLayer"}}

# Counters of the sign-up and password-reset throttles (accounts/limits.py) live in the
# "throttle" cache: in Redis when several processes share one, else in this process's memory
# (one process, one count). The login lockout (django-axes) keeps its counts in the database.
CACHES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"{_PREFIX}:throttle",
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}
    ),
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Languages ---------------------------------------------------------------------------------
# English and Russian. A visitor's language is the one their language cookie names (set by the
# switch in the header: Django's set_language view), else the first of their browser's
# Accept-Language that the club speaks, else English. The catalogue is locale/ru/LC_MESSAGES/
# (django.po, compiled to the committed django.mo by `make messages`; tests/i18n checks both).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Each language writes its own dates ("1 Dec 2026", «1 декабря 2026»): templates name a format.
FORMAT_MODULE_PATH = ["snooker_site.formats"]
LANGUAGE_COOKIE_NAME = "django_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # remembered for a year, not only for the session
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True  # no script reads it: the page's lang attribute says it
# The club's zone; each request then works in the viewer's (accounts/zones.py): a member's
# choice, else the browser's, else this.
TIME_ZONE = _env[k.CLUB_TIME_ZONE]
USE_I18N = True
USE_TZ = True

# Static files (snooker_site/static.py): collectstatic copies static/ into STATIC_ROOT with
# hashed names (the Makefile's targets and the test suite run it; a deployment runs it at each
# upgrade), WhiteNoise serves them from daphne after SecurityMiddleware, with the pages' other
# security headers; with DEBUG on, static/ as it is, read afresh on each request.
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(_env[k.STATIC_ROOT] or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "snooker_site.static.HashedStaticFiles"},
}
WHITENOISE_ADD_HEADERS_FUNCTION = page_headers

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# The live table (game/consumers.py, game/service.py). Seconds unless named otherwise.
class SnookerSettings(TypedDict):
    RECONNECT_GRACE: int
    HEARTBEAT: float
    CONNECTION_STALE: float
    PRESENCE_COALESCE: float
    AWAY_NOTICE: float
    SPECTATOR_COUNT_EVERY: float
    RATE_BURST: int
    RATE_PER_SECOND: float
    SPECTATOR_RATE_BURST: int
    SPECTATOR_RATE_PER_SECOND: float
    MEMBER_RATE_BURST: int
    MEMBER_RATE_PER_SECOND: float
    FLOOD_CLOSE_AFTER: float
    FLOOD_CLOSE_REFUSED: int
    STRANGER_FAULTS_BURST: int
    STRANGER_FAULTS_PER_SECOND: float
    FLOOD_PENALTY: float
    FLOOD_PENALTY_MAX: float
    FLOOD_FORGIVE: float
    HANDSHAKE_BURST: int
    HANDSHAKE_PER_SECOND: float
    FLOOD_BACKLOG: int
    AIM_PER_SECOND: float
    LOG_BURST: int
    LOG_PER_SECOND: float
    RESYNC_EVENTS: int
    MAX_SOCKETS_PER_ADDRESS: int
    MAX_SOCKETS_PER_MATCH: int
    MAX_SOCKETS_PER_MEMBER: int
    MAX_MEMBER_SOCKETS_PER_MATCH: int
    NO_SHOW_WAIT: float
    STALL: float
    NO_SHOW_EVERY: float
    NO_SHOW_BATCH: int
    AIM_GUIDE: str
    BALANCE_EVERY: float
    CROWD: bool


_HEARTBEAT = _env[k.SNOOKER_HEARTBEAT]
_STALE = _env[k.SNOOKER_CONNECTION_STALE]
SNOOKER: SnookerSettings = {
    # How long a disconnected player has to come back before the opponent may claim.
    "RECONNECT_GRACE": _env[k.SNOOKER_RECONNECT_GRACE],
    # How often a process refreshes its sockets' presence rows, and when a silent row counts
    # as gone (a dead process's): 1.5 beats, so presence converges within two beats.
    "HEARTBEAT": _HEARTBEAT,
    "CONNECTION_STALE": 1.5 * _HEARTBEAT if _STALE is None else _STALE,
    # Comings and goings within this many seconds make one presence broadcast; a new count
    # of spectators alone goes out with the heartbeat, at most this often.
    "PRESENCE_COALESCE": _env[k.SNOOKER_PRESENCE_COALESCE],
    # A player's going is told only once they have been away this long: a reload (the page's
    # socket closed, another opened) must not read as leaving. Claims are not delayed.
    "AWAY_NOTICE": _env[k.SNOOKER_AWAY_NOTICE],
    "SPECTATOR_COUNT_EVERY": _env[k.SNOOKER_SPECTATOR_COUNT_EVERY],
    # Flood control per socket: a bucket of messages refilled at a steady rate; a socket
    # refused without pause for this many seconds is closed (the match goes on).
    "RATE_BURST": 40,
    "RATE_PER_SECOND": 20.0,
    # A spectator sends a hello and a ping every few seconds: a little room, no more.
    "SPECTATOR_RATE_BURST": 10,
    "SPECTATOR_RATE_PER_SECOND": 2.0,
    # ... and all of one member's sockets in a process together: a table's aims, a lobby,
    # notices and a few matches watched fit; sixty sockets sending at a player's rate each
    # are one flood (issue 42).
    "MEMBER_RATE_BURST": 60,
    "MEMBER_RATE_PER_SECOND": 30.0,
    "FLOOD_CLOSE_AFTER": 3.0,
    # ... or as soon as this many in a row are refused (a sender far over the rate).
    "FLOOD_CLOSE_REFUSED": 30,
    # ... and so is a stranger's socket answered with errors beyond a few, then one in ten
    # seconds, at any rate: a page watching sends nothing that is refused.
    "STRANGER_FAULTS_BURST": 10,
    "STRANGER_FAULTS_PER_SECOND": 0.1,
    # ... and strangers from its address are turned away for this many seconds. So is a
    # socket with more messages waiting to be read than any honest page ever sends at once.
    "FLOOD_PENALTY": 30.0,
    # Twice as long each time the address floods again within this many seconds of its
    # wait's end, up to the limit (each wait a fifth longer or shorter, at random).
    "FLOOD_PENALTY_MAX": 600.0,
    "FLOOD_FORGIVE": 300.0,
    # New sockets without a session one address may open: a few at once, then one a second.
    "HANDSHAKE_BURST": _env[k.SNOOKER_HANDSHAKE_BURST],
    "HANDSHAKE_PER_SECOND": _env[k.SNOOKER_HANDSHAKE_PER_SECOND],
    "FLOOD_BACKLOG": 50,
    # The striker's aim is relayed at most this often.
    "AIM_PER_SECOND": 10.0,
    # A socket may ask for an earlier frame's referee log this often (a few at once).
    "LOG_BURST": 3,
    "LOG_PER_SECOND": 1.0,
    # A reconnecting browser further behind than this gets a snapshot instead of events.
    "RESYNC_EVENTS": 100,
    # Sockets one process takes from one address, and watching one match (players exempt).
    "MAX_SOCKETS_PER_ADDRESS": _env[k.SNOOKER_MAX_SOCKETS_PER_ADDRESS],
    "MAX_SOCKETS_PER_MATCH": _env[k.SNOOKER_MAX_SOCKETS_PER_MATCH],
    # A member's own sockets, seated or not, in all and at one match (game/gates.py).
    "MAX_SOCKETS_PER_MEMBER": _env[k.SNOOKER_MAX_SOCKETS_PER_MEMBER],
    "MAX_MEMBER_SOCKETS_PER_MATCH": _env[k.SNOOKER_MAX_MEMBER_SOCKETS_PER_MATCH],
    # A friendly the two players have not started (been at the table together) within this
    # many seconds of its making is abandoned (rules/presence.py; a ladder match is not: its
    # play-by window decides). Each server process looks every NO_SHOW_EVERY seconds (0:
    # never; then run `manage.py abandon_no_shows` from cron), this many at a time.
    "NO_SHOW_WAIT": _env[k.SNOOKER_NO_SHOW_WAIT],
    # The player to act who has not played for this many seconds since their turn began, with
    # no shot clock running for it, may be claimed against; a started friendly both players
    # have left for the grace, whose turn has lasted as long, is abandoned by the same pass.
    "STALL": _env[k.SNOOKER_STALL],
    "NO_SHOW_EVERY": _env[k.SNOOKER_NO_SHOW_EVERY],
    "NO_SHOW_BATCH": _env[k.SNOOKER_NO_SHOW_BATCH],
    # The aim guide of a match whose challenge did not choose one (rules.challenges.GUIDES).
    "AIM_GUIDE": _env[k.SNOOKER_AIM_GUIDE],
    # Each process compares the match sockets it holds with the others' this often and asks
    # its excess to reconnect (game/balance.py; 0: never).
    "BALANCE_EVERY": _env[k.SNOOKER_BALANCE_EVERY],
    "CROWD": _env[k.SNOOKER_CROWD],
}


# The club around the table (club/): challenges, invitations, the lobby. Seconds unless named.
class ClubSettings(TypedDict):
    CHALLENGE_TTL: int
    OPEN_CHALLENGE_TTL: int
    INVITATION_TTL: int
    REMATCH_TTL: int
    CHALLENGES_PER_HOUR: int
    PENDING_CHALLENGES: int
    LOBBY_COALESCE: float
    LOBBY_MATCHES: int
    LOBBY_CHALLENGES: int
    SWEEP_EVERY: float
    RATED_SHOT_CLOCK: int
    MAX_LOBBY_SOCKETS: int
    HANDICAP_CAP: int
    SPECTATORS_READ_PLAYERS: bool


CLUB: ClubSettings = {
    # How long each kind of challenge waits for an answer before it expires.
    "CHALLENGE_TTL": _env[k.SNOOKER_CHALLENGE_TTL],
    "OPEN_CHALLENGE_TTL": _env[k.SNOOKER_OPEN_CHALLENGE_TTL],
    "INVITATION_TTL": _env[k.SNOOKER_INVITATION_TTL],
    "REMATCH_TTL": _env[k.SNOOKER_REMATCH_TTL],
    # A member makes at most this many challenges (of any kind) an hour, and has at most this
    # many waiting at once.
    "CHALLENGES_PER_HOUR": _env[k.SNOOKER_CHALLENGES_PER_HOUR],
    "PENDING_CHALLENGES": _env[k.SNOOKER_PENDING_CHALLENGES],
    # Lobby changes within this many seconds make one update for every lobby socket.
    "LOBBY_COALESCE": _env[k.SNOOKER_LOBBY_COALESCE],
    # The most live matches and open challenges a lobby shows.
    "LOBBY_MATCHES": 100,
    "LOBBY_CHALLENGES": 50,
    # How often a process with club sockets marks challenges past their time as expired.
    "SWEEP_EVERY": _env[k.SNOOKER_CHALLENGE_SWEEP],
    # A rated match always has a shot clock: its format's, else this generous one (seconds a
    # stroke); a new ladder's default too (rules.challenges.shot_clock_of, ladder.Ladder).
    "RATED_SHOT_CLOCK": _env[k.SNOOKER_RATED_SHOT_CLOCK],
    # Lobby (or notice) sockets one process takes (per address: MAX_SOCKETS_PER_ADDRESS).
    "MAX_LOBBY_SOCKETS": _env[k.SNOOKER_MAX_LOBBY_SOCKETS],
    # The largest handicap start a match may have, in points (RULES.md §10).
    "HANDICAP_CAP": _env[k.SNOOKER_HANDICAP_CAP],
    # Spectators may read a table's players' chat (never write in it) when both players let
    # them (chat.Preference); off: the players' room is theirs alone (docs/chat.md).
    "SPECTATORS_READ_PLAYERS": _env[k.SNOOKER_SPECTATORS_READ_PLAYERS],
}


# The ladders (ladder/): how often each server process settles deadlines that passed (0: never;
# then run `manage.py settle_ladders` from cron), and how many of each kind in one pass.
class LadderSettings(TypedDict):
    SETTLE_EVERY: float
    SETTLE_BATCH: int


LADDER: LadderSettings = {
    "SETTLE_EVERY": _env[k.SNOOKER_LADDER_SETTLE_EVERY],
    "SETTLE_BATCH": _env[k.SNOOKER_LADDER_SETTLE_BATCH],
}


# The ratings (rules/ratings.py, docs/ladder.md "Ratings"): at most PAIR_CAP rated results between
# the same two members in any PAIR_WINDOW_DAYS days change ratings (later ones are recorded as
# unrated); a result with fewer than MIN_STROKES strokes in all is unrated; a member gains at most
# PROVISIONAL_GAIN points from results against provisional opponents in the same window
# (docs/ratings.md); the organisers' admin lists rated results with fewer than FEW_STROKES strokes.
class RatingSettings(TypedDict):
    PAIR_CAP: int
    PAIR_WINDOW_DAYS: int
    MIN_STROKES: int
    PROVISIONAL_GAIN: float
    FEW_STROKES: int


RATINGS: RatingSettings = {
    "PAIR_CAP": _env[k.SNOOKER_RATED_PAIR_CAP],
    "PAIR_WINDOW_DAYS": _env[k.SNOOKER_RATED_PAIR_WINDOW_DAYS],
    "MIN_STROKES": _env[k.SNOOKER_RATED_MIN_STROKES],
    "PROVISIONAL_GAIN": _env[k.SNOOKER_RATED_PROVISIONAL_GAIN],
    "FEW_STROKES": _env[k.SNOOKER_RATED_FEW_STROKES],
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "index"
LOGOUT_REDIRECT_URL = "index"

# --- Accounts ---------------------------------------------------------------------------------
# django-axes locks out logins (accounts/limits.py, docs/security.md "Accounts"). It counts failed
# logins per (account, address) and per address, in the database so that every process sees
# them: SNOOKER_LOGIN_FAILURES failures against one account from one address lock that pair,
# and as many from one address, whatever the names tried (password spraying), lock the address.
# A wrong password from one address never locks the member out from another. The lock lasts
# SNOOKER_LOGIN_COOLOFF seconds after the failure that set it, doubled for each earlier lockout
# of the same pair in the last day (backoff, at most SNOOKER_LOGIN_COOLOFF_MAX); failures during
# it are refused unrecorded, so they never extend it. A success does not reset the counts:
# otherwise anyone with an account of their own could clear their address's failures by
# logging into it between guesses.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = _env[k.SNOOKER_LOGIN_FAILURES]
SNOOKER_LOGIN_COOLOFF = timedelta(seconds=_env[k.SNOOKER_LOGIN_COOLOFF])
SNOOKER_LOGIN_COOLOFF_MAX = timedelta(seconds=_env[k.SNOOKER_LOGIN_COOLOFF_MAX])
AXES_COOLOFF_TIME = "accounts.limits.cool_off"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Each attempt keeps its own expiry (its pair's cool-off when it was made), so that one pair's
# longer cool-off is not cleaned away by a request with a shorter one.
AXES_USE_ATTEMPT_EXPIRATION = True
# The failures' log: the backoff counts a pair's lockouts in it.
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_RESET_ON_SUCCESS = False
AXES_CLIENT_IP_CALLABLE = "accounts.limits.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.limits.lockout_response"
AXES_ENABLE_ADMIN = False


# django-ratelimit counts POSTs per address (IPv6 per /64) in the "throttle" cache; the next
# POST over the rate is answered 429 until the window ends. Password reset is counted per
# e-mail address too, so that nobody can fill someone's mailbox from many addresses.
# (A rate is checked at start, with every knob, so that a typo stops the server rather than
# every sign-up.)
SNOOKER_SIGNUP_RATE = _env[k.SNOOKER_SIGNUP_RATE]
SNOOKER_PASSWORD_RESET_RATE = _env[k.SNOOKER_PASSWORD_RESET_RATE]
# The club's records (members/): directory searches and replays per address, any method.
SNOOKER_BROWSE_RATE = _env[k.SNOOKER_BROWSE_RATE]
SNOOKER_COMPUTER_VISITOR_RATE = _env[k.SNOOKER_COMPUTER_VISITOR_RATE]
# Chat lines per address, across its accounts, sockets and rooms (chat/service.py), counted
# the same way: several accounts from one address never multiply the chat's flood limit.
SNOOKER_CHAT_ADDRESS_RATE = _env[k.SNOOKER_CHAT_ADDRESS_RATE]
SNOOKER_CHAT_ROOM_RATE = _env[k.SNOOKER_CHAT_ROOM_RATE]
RATELIMIT_USE_CACHE = "throttle"
# (django_ratelimit is deliberately not in INSTALLED_APPS: its app adds nothing but a system
# check that accepts only memcached and django-redis, and so fails the built-in RedisCache and
# the one-process memory cache that are right here.)

# Password reset mail: sent through the SMTP server named; without one, printed on the
# console under DEBUG (`make run`), and in production withheld with one line in the log, for a
# reset link in the journal opens the member's account to whoever reads it (snooker_site/mail.py).
EMAIL_HOST = _env[k.EMAIL_HOST]
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = _env[k.EMAIL_PORT]
    EMAIL_HOST_USER = _env[k.EMAIL_HOST_USER]
    EMAIL_HOST_PASSWORD = _env[k.EMAIL_HOST_PASSWORD]
    EMAIL_USE_TLS = _env[k.EMAIL_USE_TLS]
    EMAIL_TIMEOUT = 10
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "snooker_site.mail.WithheldBackend"
DEFAULT_FROM_EMAIL = _env[k.DEFAULT_FROM_EMAIL]

# --- Deployment -------------------------------------------------------------------------------
# A request for a name not in ALLOWED_HOSTS is answered 400 and, by Django's default, logged
# with its whole traceback (32 lines each). nginx's default server keeps unknown names from
# daphne (deploy/nginx/snooker.conf); one that still arrives (a daphne reached directly) is not
# worth a line: the 400 is the whole story (Django's own advice for this logger).
# A request that met the database or Redis away is said once for the process, not logged with
# its traceback each time (game/supervise.py, QuietOutages).
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"outages": {"()": "game.supervise.QuietOutages"}},
    "handlers": {"null": {"class": "logging.NullHandler"}},
    "loggers": {
        "django.security.DisallowedHost": {"handlers": ["null"], "propagate": False},
        "django.request": {"filters": ["outages"]},
    },
}
# Secure unless told otherwise when DEBUG is off; each can be set by the environment. Behind a
# proxy that ends TLS, name the header it sets (SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto, or
# Header-Name=value when the value is not "https"); without it a request is secure only when
# daphne itself served it over TLS, and the SSL redirect would loop.
_SECURE = not DEBUG


def _secure(knob: k.Knob[bool | None]) -> bool:
    value = _env[knob]
    return _SECURE if value is None else value


SESSION_COOKIE_SECURE = _secure(k.SESSION_COOKIE_SECURE)
CSRF_COOKIE_SECURE = _secure(k.CSRF_COOKIE_SECURE)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = _secure(k.SECURE_SSL_REDIRECT)
_HSTS = _env[k.SECURE_HSTS_SECONDS]
SECURE_HSTS_SECONDS = (31_536_000 if _SECURE else 0) if _HSTS is None else _HSTS
SECURE_HSTS_INCLUDE_SUBDOMAINS = _secure(k.SECURE_HSTS_INCLUDE_SUBDOMAINS)
SECURE_HSTS_PRELOAD = _secure(k.SECURE_HSTS_PRELOAD)
# The health check answers over plain HTTP too (systemd's, or a check of one daphne behind the
# proxy), rather than redirecting to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = _env[k.SECURE_PROXY_SSL_HEADER]
# How many proxies of ours stand in front of daphne (nginx: 1). Every per-address limit counts
# the entry the outermost of them added to X-Forwarded-For (accounts/addresses.py); 0: the
# peer's address. Never run daphne with --proxy-headers: it takes the left-most entry, which
# the client writes.
TRUSTED_PROXIES = _env[k.SNOOKER_TRUSTED_PROXIES]  # 0 or more, checked with every knob
# Django's defaults, named here: the static files get them from SecurityMiddleware as the pages
# do (WhiteNoise answers after it).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts only from this origin's files (the match page
# loads one module; nothing inline, no eval), no inline styles, no plugins, no framing, and
# connections only to this origin, websockets included (CSP 3 lets 'self' match ws: and wss:
# on the same host and port; SNOOKER_CSP_CONNECT_SRC adds sources, e.g. wss://club.example.org
# for browsers older than that).
CONTENT_SECURITY_POLICY: dict[str, Any] = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF, *_env[k.SNOOKER_CSP_CONNECT_SRC]],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}


class ComputerSettings(TypedDict):
    OWN_PROCESS: bool
    WORKERS: int
    ADDRESS_SECONDS: float
    MATCHES_PER_HOUR: int
    LIVE: int
    IDLE: float
    RESUME_EVERY: float
    RESUME_BATCH: int
    HINTS_PER_MINUTE: int
    HINTS_WAITING: int
    ANALYSE_EVERY: float
    ANALYSE_LEAGUE: bool


# The computer opponent (computer/, docs/opponent.md): the processes it thinks in (each
# decision takes up to about a second of one core, so a bounded pool keeps the other tables'
# CPU), how long it shows its aim before it strikes, and how many matches a member may start.
COMPUTER: ComputerSettings = {
    # Its tables played by `manage.py play_computer`, not by the servers (computer/driver.py).
    "OWN_PROCESS": _env[k.SNOOKER_COMPUTER_PROCESS],
    "WORKERS": _env[k.SNOOKER_COMPUTER_WORKERS],
    "ADDRESS_SECONDS": _env[k.SNOOKER_COMPUTER_ADDRESS_SECONDS],
    "MATCHES_PER_HOUR": 20,
    # How many of them may be live at once, and how long one may lie untouched before it is
    # abandoned (club/jobs.py, IDLE_COMPUTER): nothing of the computer's grows without bound.
    "LIVE": _env[k.SNOOKER_COMPUTER_LIVE],
    "IDLE": _env[k.SNOOKER_COMPUTER_IDLE],
    # Each process looks for computer turns left waiting (a restart, a failed drive) at start
    # and then every so many seconds (0: never).
    "RESUME_EVERY": _env[k.SNOOKER_COMPUTER_RESUME_EVERY],
    # It reads the matches whose turn is the computer's this many at a time.
    "RESUME_BATCH": 100,
    # Hints on a practice table: the Pro's search, about a second of one core each.
    "HINTS_PER_MINUTE": 6,
    # Hints a member may have waiting for the pool at once (computer/lanes.py): a hint waits
    # behind the computer's strokes, and a member's third is refused while two wait.
    "HINTS_WAITING": 2,
    # The process that plays the computer looks for frames queued for the coach's analysis
    # this often, in seconds (computer/analysis.py; 0: never). A pass runs the queue dry.
    "ANALYSE_EVERY": 10.0,
    # Every frame of a ladder or competition match queued for analysis once it ends.
    "ANALYSE_LEAGUE": _env[k.SNOOKER_COMPUTER_ANALYSE_LEAGUE],
}
if COMPUTER["OWN_PROCESS"] and not REDIS_URL:
    # The servers tell that process of its turns through the channel layer.
    raise ImproperlyConfigured("SNOOKER_COMPUTER_PROCESS needs REDIS_URL (a shared channel layer)")
