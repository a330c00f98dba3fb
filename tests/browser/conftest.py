"""Browser tests: a real daphne on a free loopback port, Debian's Chromium driven by Playwright.

Each module's server runs against a SQLite file of its own, copied from one migrated once for
the session with users alice/bob/carol (password `pw-snooker-1`), with the in-memory channel
layer (no REDIS_URL); a best-of-3 match, alice (A) to break, is made for it. The tests' own
Django snippets (new matches, snapshots) run in one process per module (`Shell`). One Chromium
serves the whole package.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from tests.live.harness import ROOT, Daphne, last_json, run_python
from tests.needs import missing

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
PASSWORD = "pw-snooker-1"
ARTIFACTS = ROOT / "artifacts"

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # pragma: no cover - requirements.txt installs it
    sync_playwright = None


class Shell:
    """A Django process of the module's own against the server's database (tests/browser/
    shell.py), which runs the tests' snippets one at a time."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.browser.shell"], cwd=ROOT, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip

    def run(self, code: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(code) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the shell exited ({self.proc.wait()}) running:\n{code}")
        answer = json.loads(line)
        if answer["error"] is not None:
            raise RuntimeError(f"{code}\nfailed:\n{answer['printed']}\n{answer['error']}")
        printed: str = answer["printed"]
        return printed

    def stop(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Server:
    url: str
    env: dict[str, str]
    match_id: int
    shell: Shell | None = None  # None: a `manage.py shell` each time (tests/deploy's servers)

    def manage(self, code: str) -> str:
        """Run Python against the server's database, as `manage.py shell -c` would; what it
        printed."""
        if self.shell is None:
            return run_python(self.env, "manage.py", "shell", "-v", "0", "-c", code, timeout=60)
        return self.shell.run(code)

    def new_match(self, best_of: int, started: bool = False, **options: Any) -> Server:
        """Alice (A, who breaks) against Bob; the same server, pointed at the new match.
        `started`: as if both had been at the table together, so that Alice plays alone
        (strokes wait for the start, game/service.py)."""
        keywords = "".join(f", {k}={v!r}" for k, v in options.items())
        made = self.manage(
            "from django.contrib.auth import get_user_model; from game import service\n"
            "from game import clock; from game.models import Match\n"
            "U = get_user_model().objects\n"
            "m = service.create_match(U.get(username='alice'), U.get(username='bob'),"
            f" {best_of}, draw='A'{keywords})\n"
            f"if {started!r}: Match.objects.filter(pk=m.pk).update(started=clock.now())\n"
            "print(m.pk)"
        )
        return replace(self, match_id=int(made.strip().splitlines()[-1]))

    def snapshot(self) -> dict[str, Any]:
        """The match's public snapshot as the server stores it."""
        text = self.manage(
            f"from game import service; print(service.snapshot({self.match_id})[1].text())"
        )
        snapshot: dict[str, Any] = last_json(text)
        return snapshot


def _needs_a_browser() -> None:
    if sync_playwright is None or not Path(CHROMIUM).exists():
        why = "browser tests need playwright (pip) and /usr/bin/chromium (apt install chromium)"
        missing(why)


def _environment(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="snooker_site.settings",
        DEBUG="true",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="session")
def club_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database migrated, with alice, bob and carol, made once for the run: each module's
    server starts from a copy (the migrations and the password hashing cost 11 s of CPU, each
    worker's at once when pytest-xdist's workers start: the first to come makes it, under a
    lock in the run's own directory, and the others wait for it)."""
    _needs_a_browser()
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # the workers' directories are in the run's
    database = run / "club.sqlite3"
    with (run / "club.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not database.exists():
            making = run / "club.sqlite3.making"
            making.unlink(missing_ok=True)
            _make_club_database(making)
            making.rename(database)
    return database


def _make_club_database(database: Path) -> None:
    env = _environment(database)
    run_python(env, "manage.py", "migrate", "--noinput", "-v", "0")
    run_python(env, "manage.py", "shell", "-v", "0", "-c",
        "from django.contrib.auth import get_user_model\n"
        "U = get_user_model().objects\n"
        + "".join(
            f"U.create_user({n!r}, password={PASSWORD!r})\n" for n in ("alice", "bob", "carol")
        ),
    )  # fmt: skip


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest, club_database: Path
) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser")
    shutil.copyfile(club_database, tmp / "db.sqlite3")
    env = _environment(tmp / "db.sqlite3")
    # A module may run its server with settings of its own (SERVER_ENV: a short stall time).
    env.update(getattr(request.module, "SERVER_ENV", {}))
    daphne = Daphne("daphne", env, tmp)
    shell = Shell(env)
    try:
        server = Server(daphne.http_url, env, 0, shell).new_match(3)
        daphne.wait_healthy()
        yield server
    finally:
        shell.stop()
        daphne.kill()  # its database is thrown away: nothing to shut down for


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    # One Chromium for the package's modules (each test opens contexts of its own). Not for
    # the session: while the sync API is open, asyncio sees a running loop in this thread,
    # which async tests run after this package must not inherit.
    _needs_a_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


# A member's session cookie per server's database (a port is used again by a later module's
# server), from their first sign-in there: a login through the
# form cost 2.3 s on average (the password's hashing, the login page and the lobby it leads
# to), 263 s of the browser tests' 1,000 in 114 logins, where one per member and module checks
# the form as well.
_SESSIONS: dict[tuple[str, str], list[Any]] = {}


def login(context: BrowserContext, server: Server, username: str) -> None:
    """Sign in: through the real login form the first time on this server, after that with
    the session it gave (a member signed in in two browsers)."""
    database = server.env.get("DATABASE_URL", server.url)
    known = _SESSIONS.get((database, username))
    if known is not None:
        context.add_cookies(known)
        return
    page = context.new_page()
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    page.close()
    cookies = [c for c in context.cookies(server.url) if c["name"] == "sessionid"]
    assert cookies, "signed in without a session cookie"
    _SESSIONS[(database, username)] = cookies


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


__all__ = ["Page", "Server", "login"]
