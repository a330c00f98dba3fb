"""Every setting a club may give by its environment, in one table: name, type, default, meaning.

snooker_site/settings.py reads them once, through `Environment`, which checks every value at
start and stops the server with one message naming each bad one (a typo in a rate or a number
stops the start, not every request that would read it); the code reads django.conf.settings.
docs/settings.md is this table written out (`python -m snooker_site.knobs > docs/settings.md`;
tests/test_knobs.py fails when they differ), and deploy/snooker.env.example names the same
variables. An empty value is the same as none: the default.

No Django here (settings.py imports it before Django is configured).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from rules.challenges import GUIDES, RATED_SHOT_CLOCK, SHOT_CLOCKS

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class BadValue(ValueError):
    """A value its knob cannot read; the message says what it should be."""


@dataclass(frozen=True)
class Knob(Generic[T_co]):
    name: str
    read: Callable[[str], T_co]
    default: T_co
    what: str  # one sentence for the table (Markdown)
    shown: str = ""  # the default as the table writes it, when not the value itself


# --- readers -----------------------------------------------------------------------------------

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def flag(raw: str) -> bool:
    word = raw.strip().lower()
    if word in _TRUE | _FALSE:
        return word in _TRUE
    raise BadValue("is not true or false (1/0, yes/no, on/off)")


def whole(least: int = 0) -> Callable[[str], int]:
    def read(raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            raise BadValue("is not a whole number") from None
        if value < least:
            raise BadValue(f"is less than {least}")
        return value

    return read


def number(least: float = 0.0, above: bool = False) -> Callable[[str], float]:
    def read(raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise BadValue("is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise BadValue("is not a finite number")
        if value < least or (above and value == least):
            raise BadValue(f"is not more than {least:g}" if above else f"is less than {least:g}")
        return value

    return read


def text(raw: str) -> str:
    return raw


def one_of(*words: str) -> Callable[[str], str]:
    def read(raw: str) -> str:
        word = raw.strip().lower()
        if word not in words:
            raise BadValue(f"is not one of {', '.join(words)}")
        return word

    return read


def rate(raw: str) -> str:
    """A django-ratelimit rate: count/period, the period in s, m, h or d (10/h, 5/15m)."""
    if not re.fullmatch(r"\d+/\d*[smhd]", raw):
        raise BadValue("is not a rate such as 10/h or 5/15m")
    return raw


def zone(raw: str) -> str:
    """An IANA time zone name (Europe/Moscow, UTC), as the system's zone database knows it."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(raw.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise BadValue("is not a time zone name such as Europe/Moscow or UTC") from None
    return raw.strip()


def hosts(raw: str) -> tuple[str, ...]:
    return tuple(host.strip() for host in raw.split(",") if host.strip())


def words(raw: str) -> tuple[str, ...]:
    return tuple(raw.split())


def proxy_header(raw: str) -> tuple[str, str] | None:
    """`X-Forwarded-Proto`, or `Header-Name=value` when the value is not `https`, as Django's
    SECURE_PROXY_SSL_HEADER wants it: (the header's META name, the value)."""
    if not raw.strip():
        return None
    name, _, secure_value = raw.partition("=")
    if not re.fullmatch(r"[A-Za-z0-9-]+", name.strip()):
        raise BadValue("is not a header name (X-Forwarded-Proto, or Header-Name=value)")
    meta = "HTTP_" + name.strip().upper().replace("-", "_")
    return (meta, secure_value.strip() or "https")


# --- the table ---------------------------------------------------------------------------------

SECTIONS: list[tuple[str, list[Knob[object]]]] = []


def section(title: str, *knobs: Knob[object]) -> None:
    SECTIONS.append((title, list(knobs)))


_SECONDS = number()

# The server: its key, its names, its database, Redis and static files.
DEBUG = Knob(
    "DEBUG",
    flag,
    True,
    "Django's debug mode; off on a server (then every protection below is on unless switched off, "
    "and `SECRET_KEY` must be set).",
)
SECRET_KEY = Knob(
    "SECRET_KEY",
    text,
    "",
    "Django's secret key: a long random value. With `DEBUG` off the server refuses to start "
    "without it; with `DEBUG` on, a development key is used.",
    shown="(none)",
)
ALLOWED_HOSTS = Knob[tuple[str, ...]](
    "ALLOWED_HOSTS",
    hosts,
    ("localhost", "127.0.0.1", "[::1]"),
    "The club's host names, separated by commas.",
    shown="`localhost,127.0.0.1,[::1]`",
)
DATABASE_URL = Knob(
    "DATABASE_URL",
    text,
    "",
    "The database, as a [dj-database-url](https://github.com/jazzband/dj-database-url) URL "
    "(`postgres://user@host:5432/snooker`); several processes must share one.",
    shown="SQLite, `db.sqlite3` beside `manage.py`",
)
DB_CONN_MAX_AGE = Knob("DB_CONN_MAX_AGE", whole(), 60, "Seconds a database connection is kept.")
REDIS_URL = Knob(
    "REDIS_URL",
    text,
    "",
    "Redis, for the channel layer and the throttles' counts (`redis://host:6379/0`); unset: one "
    "process, in its memory.",
    shown="(none)",
)
CHANNEL_LAYER_PREFIX = Knob(
    "CHANNEL_LAYER_PREFIX",
    text,
    "asgi",
    "Prefix of the keys in Redis, to share one Redis between several clubs or test runs.",
)
STATIC_ROOT = Knob(
    "STATIC_ROOT",
    text,
    "",
    "Where `manage.py collectstatic` writes the static files (served by daphne, or by nginx).",
    shown="`staticfiles/` beside `manage.py`",
)
CLUB_TIME_ZONE = Knob(
    "CLUB_TIME_ZONE",
    zone,
    "UTC",
    "The club's time zone: times are read and shown in it for a visitor whose browser does not "
    "say its own and a member who has not chosen one.",
)
section(
    "The server",
    DEBUG,
    SECRET_KEY,
    ALLOWED_HOSTS,
    DATABASE_URL,
    DB_CONN_MAX_AGE,
    REDIS_URL,
    CHANNEL_LAYER_PREFIX,
    STATIC_ROOT,
    CLUB_TIME_ZONE,
)

# Behind a proxy, and the browser's protections (docs/security.md, "Deployment").
_ON = "on unless `DEBUG`"
SESSION_COOKIE_SECURE = Knob[bool | None](
    "SESSION_COOKIE_SECURE",
    flag,
    None,
    "Session (and language) cookies only over HTTPS.",
    shown=_ON,
)
CSRF_COOKIE_SECURE = Knob[bool | None](
    "CSRF_COOKIE_SECURE", flag, None, "The CSRF cookie only over HTTPS.", shown=_ON
)
SECURE_SSL_REDIRECT = Knob[bool | None](
    "SECURE_SSL_REDIRECT",
    flag,
    None,
    "Plain HTTP is redirected to HTTPS (but `/healthz`).",
    shown=_ON,
)
SECURE_HSTS_SECONDS = Knob[int | None](
    "SECURE_HSTS_SECONDS",
    whole(),
    None,
    "Strict-Transport-Security's max-age, in seconds.",
    shown="31536000 unless `DEBUG`, else 0",
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = Knob[bool | None](
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", flag, None, "HSTS covers the subdomains too.", shown=_ON
)
SECURE_HSTS_PRELOAD = Knob[bool | None](
    "SECURE_HSTS_PRELOAD", flag, None, "HSTS asks to be preloaded.", shown=_ON
)
SECURE_PROXY_SSL_HEADER = Knob(
    "SECURE_PROXY_SSL_HEADER",
    proxy_header,
    None,
    "Behind a proxy that ends TLS, the header it sets: `X-Forwarded-Proto`, or `Header-Name=value`"
    " when the value is not `https`; unset, a request is secure only if daphne served it over TLS.",
    shown="(none)",
)
SNOOKER_TRUSTED_PROXIES = Knob(
    "SNOOKER_TRUSTED_PROXIES",
    whole(),
    0,
    "How many proxies of ours stand in front of daphne (the shipped nginx: 1): every per-address "
    "limit counts the address the outermost one saw (`accounts/addresses.py`). Never run daphne "
    "with `--proxy-headers`.",
)
SNOOKER_CSP_CONNECT_SRC = Knob[tuple[str, ...]](
    "SNOOKER_CSP_CONNECT_SRC",
    words,
    (),
    "Extra `connect-src` sources of the Content-Security-Policy, separated by spaces (e.g. "
    "`wss://club.example.org` for browsers too old to let `'self'` cover websockets).",
    shown="(none)",
)
section(
    "Behind a proxy, and the browser's protections",
    SESSION_COOKIE_SECURE,
    CSRF_COOKIE_SECURE,
    SECURE_SSL_REDIRECT,
    SECURE_HSTS_SECONDS,
    SECURE_HSTS_INCLUDE_SUBDOMAINS,
    SECURE_HSTS_PRELOAD,
    SECURE_PROXY_SSL_HEADER,
    SNOOKER_TRUSTED_PROXIES,
    SNOOKER_CSP_CONNECT_SRC,
)

# Accounts: the login lockout and the forms' throttles (docs/security.md, "Accounts").
SNOOKER_LOGIN_FAILURES = Knob(
    "SNOOKER_LOGIN_FAILURES",
    whole(1),
    10,
    "Failed logins against one account from one address that lock that account at that address "
    "(never the member elsewhere); as many from one address, whatever the names, lock the address.",
)
SNOOKER_LOGIN_COOLOFF = Knob(
    "SNOOKER_LOGIN_COOLOFF",
    whole(),
    900,
    "Seconds a lockout lasts after the failure that set it (failures during it do not extend it); "
    "doubled for a pair that keeps failing.",
)
SNOOKER_LOGIN_COOLOFF_MAX = Knob(
    "SNOOKER_LOGIN_COOLOFF_MAX", whole(), 86400, "The longest a doubled lockout lasts, in seconds."
)
SNOOKER_SIGNUP_RATE = Knob(
    "SNOOKER_SIGNUP_RATE",
    rate,
    "10/h",
    "Sign-ups per address (`count/period`, the period in `s`, `m`, `h` or `d`, e.g. `5/15m`).",
)
SNOOKER_PASSWORD_RESET_RATE = Knob(
    "SNOOKER_PASSWORD_RESET_RATE",
    rate,
    "5/h",
    "Password-reset requests per address, and per e-mail address.",
)
SNOOKER_BROWSE_RATE = Knob(
    "SNOOKER_BROWSE_RATE", rate, "120/m", "Directory searches and replays per address."
)
SNOOKER_COMPUTER_VISITOR_RATE = Knob(
    "SNOOKER_COMPUTER_VISITOR_RATE",
    rate,
    "6/h",
    "Matches against the computer that visitors without an account start, per address (each "
    "first one seats a new guest).",
)
section(
    "Accounts",
    SNOOKER_LOGIN_FAILURES,
    SNOOKER_LOGIN_COOLOFF,
    SNOOKER_LOGIN_COOLOFF_MAX,
    SNOOKER_SIGNUP_RATE,
    SNOOKER_PASSWORD_RESET_RATE,
    SNOOKER_BROWSE_RATE,
    SNOOKER_COMPUTER_VISITOR_RATE,
)

# Password-reset mail: printed on the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = Knob(
    "EMAIL_HOST",
    text,
    "",
    "The SMTP server for password-reset mail and competitions' news; unset, reset mail is "
    "printed on the console (the journal) and no news is mailed.",
    shown="(none)",
)
EMAIL_PORT = Knob("EMAIL_PORT", whole(1), 587, "Its port.")
EMAIL_HOST_USER = Knob("EMAIL_HOST_USER", text, "", "The user to log in to it as.", shown="(none)")
EMAIL_HOST_PASSWORD = Knob("EMAIL_HOST_PASSWORD", text, "", "And the password.", shown="(none)")
EMAIL_USE_TLS = Knob("EMAIL_USE_TLS", flag, True, "STARTTLS to it.")
DEFAULT_FROM_EMAIL = Knob(
    "DEFAULT_FROM_EMAIL", text, "Snooker Club <webmaster@localhost>", "Who the mail is from."
)
section(
    "Mail",
    EMAIL_HOST,
    EMAIL_PORT,
    EMAIL_HOST_USER,
    EMAIL_HOST_PASSWORD,
    EMAIL_USE_TLS,
    DEFAULT_FROM_EMAIL,
)

# The live table (game/): presence, claims, no-shows, the sockets' limits. All per process.
SNOOKER_RECONNECT_GRACE = Knob(
    "SNOOKER_RECONNECT_GRACE",
    whole(),
    60,
    "Seconds an absent player has before the opponent, at the table, may claim (only once the "
    "match has started: both players at the table together).",
)
SNOOKER_HEARTBEAT = Knob(
    "SNOOKER_HEARTBEAT",
    number(0, above=True),
    10.0,
    "Seconds between a process's refreshes of its sockets' presence.",
)
SNOOKER_CONNECTION_STALE = Knob[float | None](
    "SNOOKER_CONNECTION_STALE",
    _SECONDS,
    None,
    "Seconds after which a presence nobody refreshed counts as gone (a dead process's).",
    shown="1.5 × `SNOOKER_HEARTBEAT`",
)
SNOOKER_PRESENCE_COALESCE = Knob(
    "SNOOKER_PRESENCE_COALESCE",
    _SECONDS,
    0.5,
    "Comings and goings within this many seconds make one presence message.",
)
SNOOKER_AWAY_NOTICE = Knob(
    "SNOOKER_AWAY_NOTICE",
    _SECONDS,
    3.0,
    "A player's going is told only once they have been away this many seconds, so that a "
    "reload does not read as leaving (claims are not delayed).",
)
SNOOKER_SPECTATOR_COUNT_EVERY = Knob(
    "SNOOKER_SPECTATOR_COUNT_EVERY",
    _SECONDS,
    30.0,
    "A new count of spectators alone is sent at most this often, in seconds.",
)
SNOOKER_MAX_SOCKETS_PER_ADDRESS = Knob(
    "SNOOKER_MAX_SOCKETS_PER_ADDRESS",
    whole(),
    20,
    "Sockets one process takes from one address (players are always let in, within their "
    "own caps below).",
)
SNOOKER_MAX_SOCKETS_PER_MATCH = Knob(
    "SNOOKER_MAX_SOCKETS_PER_MATCH",
    whole(),
    1000,
    "Sockets one process takes watching one match (players are always let in, within their "
    "own caps below).",
)
SNOOKER_MAX_SOCKETS_PER_MEMBER = Knob(
    "SNOOKER_MAX_SOCKETS_PER_MEMBER",
    whole(1),
    60,
    "Sockets one process takes from one member, of every kind (their own tables' too).",
)
SNOOKER_MAX_MEMBER_SOCKETS_PER_MATCH = Knob(
    "SNOOKER_MAX_MEMBER_SOCKETS_PER_MATCH",
    whole(1),
    10,
    "Sockets one process takes from one member to one match, seated or watching.",
)
SNOOKER_HANDSHAKE_BURST = Knob(
    "SNOOKER_HANDSHAKE_BURST",
    whole(),
    8,
    "New sockets without a session one address may open at once ...",
)
SNOOKER_HANDSHAKE_PER_SECOND = Knob(
    "SNOOKER_HANDSHAKE_PER_SECOND", _SECONDS, 1.0, "... and then per second."
)
SNOOKER_NO_SHOW_WAIT = Knob(
    "SNOOKER_NO_SHOW_WAIT",
    _SECONDS,
    600.0,
    "A friendly not started this many seconds after it was made is abandoned.",
)
SNOOKER_STALL = Knob(
    "SNOOKER_STALL",
    number(1.0),
    300.0,
    "Seconds the player to act may go without playing when no shot clock runs for the turn "
    "(counted from the turn's beginning); then the opponent may claim, and a started friendly "
    "both players have left is abandoned.",
)
SNOOKER_NO_SHOW_EVERY = Knob(
    "SNOOKER_NO_SHOW_EVERY",
    _SECONDS,
    30.0,
    "How often each server process looks for them, in seconds; 0: never (then run `manage.py "
    "abandon_no_shows` from cron).",
)
SNOOKER_BALANCE_EVERY = Knob(
    "SNOOKER_BALANCE_EVERY",
    _SECONDS,
    30.0,
    "How often each server process compares the match sockets it holds with the others' and "
    "asks its excess to reconnect (after a rolling restart); 0: never.",
)
SNOOKER_CROWD = Knob(
    "SNOOKER_CROWD",
    flag,
    False,
    "This process is one of the crowd's: the proxy sends it the spectators' sockets "
    "(/ws/watch/), and it balances its sockets with the crowd's other processes only "
    '(docs/deploy.md, "The crowd\'s own process").',
)
SNOOKER_NO_SHOW_BATCH = Knob(
    "SNOOKER_NO_SHOW_BATCH", whole(1), 100, "How many it abandons in one pass."
)
SNOOKER_AIM_GUIDE = Knob(
    "SNOOKER_AIM_GUIDE",
    one_of(*GUIDES),
    GUIDES[0],
    "The aim guide a match has unless its challenge chose: `full` (the cue ball off the first "
    "cushion, the object ball to the pocket) or `short` (to the first ball or cushion).",
)
section(
    "The table",
    SNOOKER_RECONNECT_GRACE,
    SNOOKER_HEARTBEAT,
    SNOOKER_CONNECTION_STALE,
    SNOOKER_PRESENCE_COALESCE,
    SNOOKER_AWAY_NOTICE,
    SNOOKER_SPECTATOR_COUNT_EVERY,
    SNOOKER_MAX_SOCKETS_PER_ADDRESS,
    SNOOKER_MAX_SOCKETS_PER_MATCH,
    SNOOKER_MAX_SOCKETS_PER_MEMBER,
    SNOOKER_MAX_MEMBER_SOCKETS_PER_MATCH,
    SNOOKER_HANDSHAKE_BURST,
    SNOOKER_HANDSHAKE_PER_SECOND,
    SNOOKER_NO_SHOW_WAIT,
    SNOOKER_STALL,
    SNOOKER_NO_SHOW_EVERY,
    SNOOKER_NO_SHOW_BATCH,
    SNOOKER_AIM_GUIDE,
    SNOOKER_BALANCE_EVERY,
    SNOOKER_CROWD,
)

# The club (club/): challenges, invitations, the lobby.
SNOOKER_CHALLENGE_TTL = Knob(
    "SNOOKER_CHALLENGE_TTL", whole(), 600, "Seconds a challenge to a member waits for an answer."
)
SNOOKER_OPEN_CHALLENGE_TTL = Knob(
    "SNOOKER_OPEN_CHALLENGE_TTL", whole(), 1800, "Seconds an open challenge waits."
)
SNOOKER_REMATCH_TTL = Knob("SNOOKER_REMATCH_TTL", whole(), 300, "Seconds a rematch offer waits.")
SNOOKER_INVITATION_TTL = Knob(
    "SNOOKER_INVITATION_TTL", whole(), 86400, "Seconds an invitation link works."
)
SNOOKER_CHALLENGES_PER_HOUR = Knob(
    "SNOOKER_CHALLENGES_PER_HOUR",
    whole(),
    30,
    "Challenges a member may make in an hour, practice tables included.",
)
SNOOKER_PENDING_CHALLENGES = Knob(
    "SNOOKER_PENDING_CHALLENGES", whole(), 5, "Challenges a member may have waiting at once."
)
SNOOKER_LOBBY_COALESCE = Knob(
    "SNOOKER_LOBBY_COALESCE",
    _SECONDS,
    0.5,
    "Lobby changes within this many seconds make one update (per process).",
)
SNOOKER_CHALLENGE_SWEEP = Knob(
    "SNOOKER_CHALLENGE_SWEEP",
    _SECONDS,
    5.0,
    "How often, in seconds, a process with club sockets marks challenges past their time as "
    "expired.",
)


def _shot_clock(raw: str) -> int:
    value = whole(1)(raw)
    if value not in SHOT_CLOCKS:
        raise BadValue(f"is not one of the club's shot clocks ({', '.join(map(str, SHOT_CLOCKS))})")
    return value


SNOOKER_RATED_SHOT_CLOCK = Knob(
    "SNOOKER_RATED_SHOT_CLOCK",
    _shot_clock,
    RATED_SHOT_CLOCK,
    "Seconds a stroke in a rated match whose format has no shot clock, and a new ladder's (one of"
    " 30, 45, 60, 120): a rated match always has one, so that nobody can stall it.",
)
SNOOKER_MAX_LOBBY_SOCKETS = Knob(
    "SNOOKER_MAX_LOBBY_SOCKETS", whole(), 5000, "Lobby (or notice) sockets one process takes."
)
SNOOKER_CHAT_ADDRESS_RATE = Knob(
    "SNOOKER_CHAT_ADDRESS_RATE",
    rate,
    "10/10s",
    "Chat lines from one address, whatever its accounts and sockets, in all the rooms but the "
    "matches' players' rooms (each member is held to the chat's flood limit too: docs/chat.md).",
)
SNOOKER_CHAT_ROOM_RATE = Knob(
    "SNOOKER_CHAT_ROOM_RATE",
    rate,
    "5/5s",
    "Chat lines one room takes, whoever writes them, in each server process (count/period: so many"
    " at once, refilled at that rate: 5/5s, one a second), in all the rooms but the matches'"
    " players' rooms; past it, a line is refused `chat_busy` before any database work"
    ' (docs/chat.md, "Load").',
)
SNOOKER_HANDICAP_CAP = Knob(
    "SNOOKER_HANDICAP_CAP",
    whole(),
    70,
    "The largest handicap start a match may have, in points (RULES.md §10; docs/handicaps.md).",
)
SNOOKER_SPECTATORS_READ_PLAYERS = Knob(
    "SNOOKER_SPECTATORS_READ_PLAYERS",
    flag,
    False,
    "Spectators may read a table's players' chat (never write in it) when both players let them "
    "in their chat settings; off: the players' chat is theirs alone (docs/chat.md).",
)
section(
    "The club",
    SNOOKER_CHALLENGE_TTL,
    SNOOKER_OPEN_CHALLENGE_TTL,
    SNOOKER_REMATCH_TTL,
    SNOOKER_INVITATION_TTL,
    SNOOKER_CHALLENGES_PER_HOUR,
    SNOOKER_PENDING_CHALLENGES,
    SNOOKER_LOBBY_COALESCE,
    SNOOKER_CHALLENGE_SWEEP,
    SNOOKER_RATED_SHOT_CLOCK,
    SNOOKER_MAX_LOBBY_SOCKETS,
    SNOOKER_CHAT_ADDRESS_RATE,
    SNOOKER_CHAT_ROOM_RATE,
    SNOOKER_HANDICAP_CAP,
    SNOOKER_SPECTATORS_READ_PLAYERS,
)

# The ladders and ratings (ladder/, docs/ladder.md).
SNOOKER_LADDER_SETTLE_EVERY = Knob(
    "SNOOKER_LADDER_SETTLE_EVERY",
    _SECONDS,
    30.0,
    "How often, in seconds, each server process settles the ladders' deadlines; 0: never (then run"
    " `manage.py settle_ladders` from cron).",
)
SNOOKER_LADDER_SETTLE_BATCH = Knob(
    "SNOOKER_LADDER_SETTLE_BATCH", whole(1), 100, "How many of each kind one pass settles."
)
SNOOKER_RATED_PAIR_CAP = Knob(
    "SNOOKER_RATED_PAIR_CAP",
    whole(),
    3,
    "At most this many rated results between the same two members ...",
)
SNOOKER_RATED_PAIR_WINDOW_DAYS = Knob(
    "SNOOKER_RATED_PAIR_WINDOW_DAYS",
    whole(),
    7,
    "... in any this many days change ratings (later ones are recorded as unrated).",
)
SNOOKER_RATED_MIN_STROKES = Knob(
    "SNOOKER_RATED_MIN_STROKES",
    whole(2),
    20,
    "A rated result changes ratings only if this many strokes were played in all (and at least "
    "one by each player).",
)
SNOOKER_RATED_PROVISIONAL_GAIN = Knob(
    "SNOOKER_RATED_PROVISIONAL_GAIN",
    number(),
    75.0,
    "Rating points a member may gain from results against provisional opponents (deviation "
    "over 110) in any `SNOOKER_RATED_PAIR_WINDOW_DAYS` days (docs/ratings.md).",
)
SNOOKER_RATED_FEW_STROKES = Knob(
    "SNOOKER_RATED_FEW_STROKES",
    whole(),
    10,
    "The organisers' admin flags rated results with fewer strokes than this.",
)
section(
    "Ladders and ratings",
    SNOOKER_LADDER_SETTLE_EVERY,
    SNOOKER_LADDER_SETTLE_BATCH,
    SNOOKER_RATED_PAIR_CAP,
    SNOOKER_RATED_PAIR_WINDOW_DAYS,
    SNOOKER_RATED_MIN_STROKES,
    SNOOKER_RATED_PROVISIONAL_GAIN,
    SNOOKER_RATED_FEW_STROKES,
)

# The computer opponent (computer/, docs/opponent.md).
SNOOKER_COMPUTER_WORKERS = Knob(
    "SNOOKER_COMPUTER_WORKERS",
    whole(1),
    1,
    "Processes the computer thinks in (each decision takes up to about a second of one core).",
)
SNOOKER_COMPUTER_ADDRESS_SECONDS = Knob(
    "SNOOKER_COMPUTER_ADDRESS_SECONDS",
    _SECONDS,
    1.0,
    "The unit of the computer's address times, which vary with the stroke and the level "
    "(docs/opponent.md, Addressing the ball); 0: it strikes at once.",
)
SNOOKER_COMPUTER_RESUME_EVERY = Knob(
    "SNOOKER_COMPUTER_RESUME_EVERY",
    _SECONDS,
    60.0,
    "How often, in seconds, the process that plays the computer looks for its turns left waiting"
    " (as after a restart); 0: never.",
)
SNOOKER_COMPUTER_LIVE = Knob(
    "SNOOKER_COMPUTER_LIVE",
    whole(1),
    2,
    "Matches against the computer a member (or a guest) may have live at once; one more is"
    " refused (`too_many_live`) until one ends.",
)
SNOOKER_COMPUTER_IDLE = Knob(
    "SNOOKER_COMPUTER_IDLE",
    number(1.0),
    3600.0,
    "Seconds a live match against the computer may go without an event (a stroke, a choice)"
    " before the club's job abandons it, with no result.",
)
SNOOKER_COMPUTER_PROCESS = Knob(
    "SNOOKER_COMPUTER_PROCESS",
    flag,
    False,
    "The computer's tables are played by `manage.py play_computer` (a process of its own, below"
    " the servers' priority: deploy/systemd/snooker-computer.service), not by the servers;"
    " needs `REDIS_URL`.",
)
SNOOKER_COMPUTER_ANALYSE_LEAGUE = Knob(
    "SNOOKER_COMPUTER_ANALYSE_LEAGUE",
    flag,
    False,
    "The computer analyses every frame of each ladder and competition match once it ends, for"
    " its players and the organisers (docs/coach.md); off: only those asked for.",
)
section(
    "The computer opponent",
    SNOOKER_COMPUTER_PROCESS,
    SNOOKER_COMPUTER_WORKERS,
    SNOOKER_COMPUTER_ADDRESS_SECONDS,
    SNOOKER_COMPUTER_RESUME_EVERY,
    SNOOKER_COMPUTER_LIVE,
    SNOOKER_COMPUTER_IDLE,
    SNOOKER_COMPUTER_ANALYSE_LEAGUE,
)

KNOBS: list[Knob[object]] = [knob for _, knobs in SECTIONS for knob in knobs]
NAMES: frozenset[str] = frozenset(knob.name for knob in KNOBS)


# --- reading -----------------------------------------------------------------------------------


class Environment:
    """The knobs' values from one environment, each read once and checked on creation."""

    def __init__(self, environ: Mapping[str, str], knobs: Iterable[Knob[object]] = KNOBS) -> None:
        self._values: dict[str, object] = {}
        bad: list[str] = []
        for knob in knobs:
            raw = environ.get(knob.name, "")
            if raw == "":
                self._values[knob.name] = knob.default
                continue
            try:
                self._values[knob.name] = knob.read(raw)
            except BadValue as error:
                bad.append(f"{knob.name}={raw!r} {error}")
        if bad:
            raise BadValue("; ".join(bad) + " (docs/settings.md)")

    def __getitem__(self, knob: Knob[T]) -> T:
        value: T = self._values[knob.name]  # type: ignore[assignment]
        return value


# --- the table written out ---------------------------------------------------------------------


def shown_plain(knob: Knob[object]) -> str:
    """A default as prose writes it: 30 rather than 30.0."""
    value = knob.default
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _shown(knob: Knob[object]) -> str:
    if knob.shown:
        return knob.shown
    if isinstance(knob.default, bool):
        return shown_plain(knob)
    return f"`{shown_plain(knob)}`"


def markdown() -> str:
    lines = [
        "# Settings",
        "",
        "Every setting a club gives by its environment (a variable of the same name; an empty",
        "value is the same as none). The server reads them once at start and refuses to start,",
        "naming the variable, when a value is not what its row says. This page is written from",
        "`snooker_site/knobs.py` (`.venv/bin/python -m snooker_site.knobs > docs/settings.md`;",
        "`tests/test_knobs.py` fails when they differ), and `deploy/snooker.env.example` names",
        "every variable. Seconds unless a row says otherwise; the limits of sockets are per",
        "process. The ladders' own settings (range, best of, answer and play times) are the",
        "organisers', in `/admin/`.",
    ]
    for title, knobs in SECTIONS:
        lines += ["", f"## {title}", "", "| variable | default | what |", "| --- | --- | --- |"]
        lines += [f"| `{k.name}` | {_shown(k)} | {k.what} |" for k in knobs]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
