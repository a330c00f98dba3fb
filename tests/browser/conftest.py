"""Browser tests: a real daphne on a free loopback port, Debian's Chromium driven by Playwright.

The server runs against a fresh SQLite file in a temporary directory with the in-memory
channel layer (no REDIS_URL). Users alice/bob (password `pw-snooker-1`) and a best-of-3 match,
alice (A) to break, are created by `manage.py shell` with the same environment.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass
class Server:
    url: str
    env: dict[str, str]
    match_id: int

    def manage(self, code: str) -> str:
        """Run Python in `manage.py shell` against the server's database; its stdout."""
        return run_python(self.env, "manage.py", "shell", "-v", "0", "-c", code, timeout=60)

    def new_match(self, best_of: int, **options: Any) -> Server:
        """Alice (A, who breaks) against Bob; the same server, pointed at the new match."""
        keywords = "".join(f", {k}={v!r}" for k, v in options.items())
        made = self.manage(
            "from django.contrib.auth import get_user_model; from game import service\n"
            "U = get_user_model().objects\n"
            "print(service.create_match(U.get(username='alice'), U.get(username='bob'),"
            f" {best_of}, draw='A'{keywords}).pk)"
        )
        return Server(self.url, self.env, int(made.strip().splitlines()[-1]))

    def snapshot(self) -> dict[str, Any]:
        """The match's public snapshot as the server stores it."""
        text = self.manage(
            f"from game import service; print(service.snapshot({self.match_id})[1].text())"
        )
        snapshot: dict[str, Any] = last_json(text)
        return snapshot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if sync_playwright is None or not Path(CHROMIUM).exists():
        why = "browser tests need playwright (pip) and /usr/bin/chromium (apt install chromium)"
        missing(why)
    tmp = tmp_path_factory.mktemp("browser")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="snooker_site.settings",
        DEBUG="true",
        PYTHONUNBUFFERED="1",
    )
    run_python(env, "manage.py", "migrate", "--noinput", "-v", "0")
    daphne = Daphne("daphne", env, tmp)
    try:
        users = Server(daphne.http_url, env, 0)
        users.manage(
            "from django.contrib.auth import get_user_model\n"
            "U = get_user_model().objects\n"
            + "".join(
                f"U.create_user({n!r}, password={PASSWORD!r})\n" for n in ("alice", "bob", "carol")
            )
        )
        server = users.new_match(3)
        daphne.wait_healthy()
        yield server
    finally:
        daphne.stop()


@pytest.fixture(scope="module")
def browser(server: Server) -> Iterator[Browser]:
    # Module scope: while the sync API is open, asyncio sees a running loop in this thread,
    # which async tests run later in the session must not inherit.
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def login(context: BrowserContext, server: Server, username: str) -> None:
    """Sign in through the real login form."""
    page = context.new_page()
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    page.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


__all__ = ["Page", "Server", "login"]
