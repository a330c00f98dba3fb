"""Shared fixtures. Django settings come from pyproject.toml (pytest-django)."""

import gc
import hashlib
import os
import sys
from pathlib import Path

import hypothesis
import pytest

# Speed is measured by benchmarks, never by tests (README.md): a property's examples have no
# deadline and a slow draw is no failure, whatever else shares the machine's cores. A test's
# own @settings keep these unless they say otherwise.
hypothesis.settings.register_profile(
    "suite", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
hypothesis.settings.load_profile("suite")

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


# pytest-xdist's worker, "gw0", "gw1"…; None in a run of one process (`make test` runs
# `-n auto`, docs in README.md, "Tests").
WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def pytest_configure(config: pytest.Config) -> None:
    """Workers share the machine's Redis: each names its keys with a prefix of its own, in this
    process's channel layer and in every server a test starts from this environment (the
    databases are pytest-django's own per worker, `test_test_gw0`, and tmp paths are apart)."""
    if WORKER is None:
        return
    from django.conf import settings

    prefix = f"{os.environ.get('CHANNEL_LAYER_PREFIX') or 'asgi'}-{WORKER}"
    os.environ["CHANNEL_LAYER_PREFIX"] = prefix
    layer = settings.CHANNEL_LAYERS["default"]
    if "prefix" in layer.get("CONFIG", {}):
        layer["CONFIG"]["prefix"] = prefix


# The modules that start servers and browsers take most of the suite's time, a few seconds to
# two minutes each. Workers take modules in their collection order (`--no-loadscope-reorder`
# in the Makefile; xdist's own order, by number of tests, left them to the end, one worker
# running the two longest alone for minutes); so the longest come first, then the rest, each
# worker picking up the next as it finishes (longest first: the last to finish are short).
LONGEST_FIRST = ("tests/live/test_faults.py", "tests/browser/test_axe.py")
LONG = ("tests/browser/", "tests/live/", "tests/deploy/")


def _weight(item: pytest.Item) -> int:
    path = item.nodeid.split("::")[0]
    if path in LONGEST_FIRST:
        return 0
    return 1 if path.startswith(LONG) else 2


@pytest.hookimpl(trylast=True)  # after pytest-django's own order
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if WORKER is not None:
        items.sort(key=_weight)  # stable: each module's tests in their order


def pytest_sessionstart(session: pytest.Session) -> None:
    """The pages name their static files by hash, from collectstatic's manifest (DEBUG is off
    under pytest-django): collect them, into the git-ignored STATIC_ROOT, when the manifest is
    missing or older than a file under static/ (a fresh clone, an edited script). Under xdist
    the controller does it before it starts the workers, which only read it."""
    from django.conf import settings
    from django.core.management import call_command

    _GOLDEN_AT_START.update(golden_digests())
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    sources = [path for path in Path(settings.BASE_DIR, "static").rglob("*") if path.is_file()]
    newest = max((path.stat().st_mtime for path in sources), default=0.0)
    if WORKER is None and (not manifest.exists() or manifest.stat().st_mtime < newest):
        call_command("collectstatic", interactive=False, verbosity=0)
    if _COLLECT_BETWEEN_TESTS:
        gc.freeze()  # what start-up loaded is never garbage: no collection scans it again
        gc.disable()


# A transactional test ends by emptying every table (Django's flush), the rows the data
# migrations made with them: the computer's seats (with their directory names) and the club's
# main ladder. One process running the whole suite runs those tests last (pytest-django's
# order); an xdist worker runs whole modules one after another, so a module's tests may follow
# another's flush. The next test that uses the database finds the rows a fresh database has.
_DATA_MIGRATIONS = (
    ("computer.migrations.0001_initial", "seats"),
    ("members.migrations.0001_members_and_figures", "members_for_users"),
    ("ladder.migrations.0002_the_main_ladder", "make"),
    ("ladder.migrations.0005_ladder_name_ru", "name_the_main_ladder"),
    ("ladder.migrations.0008_ladder_shot_clock_always", "give_every_ladder_a_clock"),
)
_flushed = False
_historical_apps = None  # the models as the migrations see them (no signals), read once


def _transactional(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    names = getattr(item, "fixturenames", ())
    return bool(marker and marker.kwargs.get("transaction")) or "transactional_db" in names


def _uses_database(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    return item.get_closest_marker("django_db") is not None or "db" in names


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    global _flushed, _historical_apps
    if _flushed and _uses_database(item):
        import importlib

        from django.db import connection
        from django.db.migrations.loader import MigrationLoader
        from pytest_django.plugin import blocking_manager_key

        with item.config.stash[blocking_manager_key].unblock():
            if _historical_apps is None:
                _historical_apps = MigrationLoader(connection).project_state().apps
            for module, function in _DATA_MIGRATIONS:
                getattr(importlib.import_module(module), function)(_historical_apps, None)
        _flushed = False
    if _transactional(item):
        _flushed = True


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


@pytest.fixture(autouse=True)
def _chat_rooms_never_busy(settings):  # type: ignore[no-untyped-def]
    """A room's own rate (SNOOKER_CHAT_ROOM_RATE, a line a second by default) out of the way
    of the tests that say many lines at once; the tests of that rate set their own."""
    settings.SNOOKER_CHAT_ROOM_RATE = "1000/s"


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
