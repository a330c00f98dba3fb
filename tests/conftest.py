"""Shared fixtures. Django settings come from pyproject.toml (pytest-django)."""

import gc
import hashlib
import os
import sys
from pathlib import Path

import pytest

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
TESTS = Path(__file__).resolve().parent
# The files tests compare with, written only by their own commands (tests/test_no_quiet_skips.py).
GOLDEN_DIRS = (TESTS / "physics" / "golden", TESTS / "rules" / "golden", TESTS / "scenarios")


def golden_digests() -> dict[str, str]:
    return {
        str(path.relative_to(TESTS.parent)): hashlib.sha256(path.read_bytes()).hexdigest()
        for folder in GOLDEN_DIRS
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


_GOLDEN_AT_START: dict[str, str] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    """The pages name their static files by hash, from collectstatic's manifest (DEBUG is off
    under pytest-django): collect them, into the git-ignored STATIC_ROOT, when the manifest is
    missing or older than a file under static/ (a fresh clone, an edited script)."""
    from django.conf import settings
    from django.core.management import call_command

    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    sources = [path for path in Path(settings.BASE_DIR, "static").rglob("*") if path.is_file()]
    newest = max((path.stat().st_mtime for path in sources), default=0.0)
    if not manifest.exists() or manifest.stat().st_mtime < newest:
        call_command("collectstatic", interactive=False, verbosity=0)
    _GOLDEN_AT_START.update(golden_digests())
    if _COLLECT_BETWEEN_TESTS:
        gc.freeze()  # what start-up loaded is never garbage: no collection scans it again
        gc.disable()


# CPython 3.11 can crash (SIGSEGV) when its cyclic collector starts during a ContextVar.set
# and a finalizer the collection runs sets a context variable in turn: the variable's tree is
# freed under the first set (CPython issue 148891; 3.12's collector does not do this). A CI
# run died so once, in asgiref's `_restore_context`, which sets the variables a database call
# changed on its thread. On 3.11 the tests run with the automatic collector off and collect
# between tests, where no set is under way: the young generations after each test (a few
# milliseconds), everything every 100 tests. The servers the tests start as processes of
# their own run as the club's do (docs/deploy.md, section 2, "Python").
_COLLECT_BETWEEN_TESTS = sys.version_info < (3, 12)
_FULL_COLLECTION_EVERY = 100
_tests_since_full = 0


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    global _tests_since_full
    if not _COLLECT_BETWEEN_TESTS:
        return
    _tests_since_full += 1
    if _tests_since_full >= _FULL_COLLECTION_EVERY:
        _tests_since_full = 0
        gc.collect()
    else:
        gc.collect(1)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run that wrote a golden file compared something with itself: it fails, whatever its
    tests said."""
    if _GOLDEN_AT_START and golden_digests() != _GOLDEN_AT_START:
        changed = sorted(set(golden_digests().items()) ^ set(_GOLDEN_AT_START.items()))
        print(f"\nA golden file changed during the run: {sorted({n for n, _ in changed})}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def redis_url() -> str:
    """REDIS_URL, or the local Redis every machine of this kind runs."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


@pytest.fixture(autouse=True, scope="session")
def _close_connections_after_each_call() -> None:
    """The server keeps database connections open (settings: DB_CONN_MAX_AGE); in tests a
    consumer thread's kept connection would stop pytest-django dropping the test database.
    channels' own `close_old_connections` runs around every database call, as in the server:
    a sync test whose code calls back through `database_sync_to_async` on the test's thread (a
    management command under `async_to_sync`) runs outside a transaction, as cron runs it, since
    a connection in the test's transaction would be closed as obsolete."""
    from django.db import connections

    for connection in connections.all():
        connection.settings_dict["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True)
def _shared_database_thread_idle_after_each_test():  # type: ignore[no-untyped-def]
    """A database call an async test handed to channels' shared thread runs on there after
    the test's loop is gone (a cancelled task does not stop its thread). On SQLite's shared
    in-memory database that call's connection would lock a table the next test writes to
    ("table is locked", seen once in a full run): the next test starts only once the thread
    has finished whatever it was given. Its queue is one worker's, first in, first out."""
    yield
    from asgiref.sync import SyncToAsync

    SyncToAsync.single_thread_executor.submit(lambda: None).result(timeout=60)


@pytest.fixture(autouse=True)
def _the_sites_language_after_each_test():  # type: ignore[no-untyped-def]
    """A request through the test client leaves its language active in the test's thread
    (LocaleMiddleware activates it and nothing deactivates it): a Russian page would make the
    next test's server-side words Russian. Each test starts in the site's default."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _throttle_counts_of_its_own(settings):  # type: ignore[no-untyped-def]
    """The sign-up and password-reset throttles count in the "throttle" cache, in Redis when
    REDIS_URL is set: each test counts in an empty cache in memory instead, so that test runs
    sharing a Redis never count each other's sign-ups."""
    from django.core.cache import caches

    settings.CACHES = {
        **settings.CACHES,
        "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
    }
    caches["throttle"].clear()


class ThrottleClock:
    """django-ratelimit's clock as a test moves it (`advance`)."""

    def __init__(self) -> None:
        self.now = 1_000_000_000.0

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def throttle_clock(monkeypatch):  # type: ignore[no-untyped-def]
    """The throttles' windows (django-ratelimit's, counted from its own reading of the time)
    on a clock the test moves: a window of seconds (the chat's rate per address) never ends
    in the middle of a test by chance."""
    from django_ratelimit import core

    clock = ThrottleClock()
    monkeypatch.setattr(core, "time", clock)
    return clock
