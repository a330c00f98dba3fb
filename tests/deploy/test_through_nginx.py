"""The deployment we ship, end to end: the real nginx site from deploy/ (with a test
certificate, on free ports) in front of two daphne processes on PostgreSQL and Redis, as
docs/deploy.md sets them up (DEBUG off, SNOOKER_TRUSTED_PROXIES=1, collected static files).

Chromium trusts the certificate (by its key), two members sign up over https://, one
challenges, the other accepts, they play over wss://; each daphne is restarted in turn
mid-match (a rolling upgrade) and nothing is lost. The headers (HSTS, CSP) are checked on a
page and on static files, and sign-ups with forged X-Forwarded-For are limited by the address
nginx saw.

Needs nginx, Chromium (with Playwright), PostgreSQL and Redis: skips locally without nginx or
Chromium, fails in CI (.ci/run installs them); PostgreSQL and Redis are `make test`'s anyway.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import http.client
import json
import os
import re
import secrets
import socket
import ssl
import subprocess
import time
import uuid
from asyncio import Event
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest
import redis
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from game.balance import to_move
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Server
from tests.deploy.render import NGINX, Nginx, nginx, required
from tests.live.harness import (
    Daphne,
    ScratchDatabase,
    check_redis,
    drop_redis_keys,
    free_port,
    postgres_url,
    redis_url,
    run_json,
    run_python,
    until,
)
from tests.live.harness import (
    Page as LivePage,
)
from tests.needs import missing

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - requirements.txt installs it
    sync_playwright = None

PASSWORD = "green-baize-77"
BALANCE_EVERY = 1  # seconds between balancing passes (game/balance.py), within a test's patience
CROWD = 2  # daphnes[CROWD] is the crowd's process (SNOOKER_CROWD=true), as snooker@8003


@dataclass
class Site:
    tmp: Path
    env: dict[str, str]
    nginx: Nginx
    proc: subprocess.Popen[bytes]
    https_port: int
    http_port: int
    cert: Path
    daphnes: list[Daphne] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"https://localhost:{self.https_port}"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def get(
        self, path: str, source: str = "127.0.0.1", **headers: str
    ) -> tuple[int, dict[str, list[str]], bytes]:
        """One HTTPS request to nginx from `source` (any 127/8 address is this machine)."""
        conn = http.client.HTTPSConnection(
            "localhost", self.https_port, context=self.tls(), timeout=15,
            source_address=(source, 0),
        )  # fmt: skip
        try:
            conn.request("GET", path, headers=headers)
            answer = conn.getresponse()
            return answer.status, _headers(answer), answer.read()
        finally:
            conn.close()

    def restart(self, index: int) -> None:
        """Stop one daphne (SIGTERM, as systemctl restart does) and start it again on its port,
        once it answers /healthz: one step of deploy/bin/snooker-upgrade."""
        old = self.daphnes[index]
        old.stop()
        self.start(index, f"{old.name}-again", old.port)

    def start(self, index: int, name: str, port: int | None = None) -> None:
        """daphnes[index] started (again, on `port`), as its unit would."""
        env = {**self.env, "SNOOKER_CROWD": "true"} if index == CROWD else self.env
        new = Daphne(name, env, self.tmp, port=port)
        self.daphnes[index] = new
        new.wait_healthy(timeout=60)


def _headers(answer: http.client.HTTPResponse) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in answer.getheaders():
        out.setdefault(name.lower(), []).append(value)
    return out


def _spki(cert: Path) -> str:
    """The certificate's key as Chromium's --ignore-certificate-errors-spki-list names it."""
    der = subprocess.run(
        ["openssl", "x509", "-in", str(cert), "-pubkey", "-noout"],
        check=True, capture_output=True,
    ).stdout  # fmt: skip
    key = subprocess.run(
        ["openssl", "pkey", "-pubin", "-outform", "der"], input=der, check=True,
        capture_output=True,
    ).stdout  # fmt: skip
    return base64.b64encode(hashlib.sha256(key).digest()).decode()


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited:\n{log.read_text(errors='replace')}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nginx did not listen on {port}")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    required(NGINX, "nginx")
    if sync_playwright is None or not Path(CHROMIUM).exists():
        missing("needs playwright (pip) and /usr/bin/chromium (apt install chromium)")
    problem = check_redis(redis_url())
    if problem:
        pytest.fail(problem)  # `make test` needs Redis and PostgreSQL (README)
    tmp = tmp_path_factory.mktemp("through-nginx")
    scratch = ScratchDatabase(postgres_url(), prefix="snooker_e2e")
    scratch.create()
    prefix = f"e2e{uuid.uuid4().hex[:10]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SNOOKER_", "SECURE_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="snooker_site.settings", PYTHONUNBUFFERED="1",
        DEBUG="false", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="localhost,127.0.0.1",
        DATABASE_URL=scratch.url, REDIS_URL=redis_url(), CHANNEL_LAYER_PREFIX=prefix,
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto", SNOOKER_TRUSTED_PROXIES="1",
        STATIC_ROOT=str(tmp / "static"), SNOOKER_SIGNUP_RATE="5/h",
        SNOOKER_BALANCE_EVERY=str(BALANCE_EVERY),
    )  # fmt: skip
    daphnes: list[Daphne] = []
    proc: subprocess.Popen[bytes] | None = None
    try:
        run_python(env, "manage.py", "migrate", "--noinput", "-v", "0", timeout=300)
        run_python(env, "manage.py", "collectstatic", "--noinput", "-v", "0", timeout=300)
        daphnes = [Daphne(f"daphne-{n}", env, tmp) for n in (1, 2)]
        daphnes.append(Daphne("daphne-crowd", {**env, "SNOOKER_CROWD": "true"}, tmp))
        https_port, http_port = free_port(), free_port()
        rendered = nginx(
            tmp / "nginx", upstreams=[d.port for d in daphnes[:CROWD]],
            crowd=daphnes[CROWD].port, https_port=https_port, http_port=http_port,
            static_root=tmp / "static",
        )  # fmt: skip
        log = tmp / "nginx" / "logs" / "stderr.log"
        with log.open("wb") as stderr:
            proc = subprocess.Popen(rendered.command(), stdout=subprocess.DEVNULL, stderr=stderr)
        _wait_for_port(https_port, proc, log)
        for daphne in daphnes:
            daphne.wait_healthy(timeout=60)
        yield Site(tmp, env, rendered, proc, https_port, http_port, tmp / "nginx" / "cert.pem",
                   daphnes)  # fmt: skip
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        for daphne in daphnes:
            daphne.stop()
        scratch.drop()
        drop_redis_keys(redis_url(), prefix)


@pytest.fixture(scope="module")
def browser(site: Site) -> Iterator[Browser]:
    assert sync_playwright is not None
    trust = f"--ignore-certificate-errors-spki-list={_spki(site.cert)}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, trust], headless=True
        )
        yield browser
        browser.close()


# --- headers -----------------------------------------------------------------------------------


def test_pages_and_static_files_carry_hsts_and_csp(site: Site) -> None:
    status, page, body = site.get("/accounts/login/")
    assert status == 200
    assert page["strict-transport-security"] == ["max-age=31536000; includeSubDomains"]  # once
    assert "script-src 'self'" in page["content-security-policy"][0]
    html = body.decode()
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', html)
    script = re.search(r'src="(/static/js/[a-z_]+\.[0-9a-f]{12}\.js)"', html) or re.search(
        r'href="(/static/img/favicon\.[0-9a-f]{12}\.svg)"', html
    )
    assert stylesheet and script, "the page names its static files by hash"
    for path in (stylesheet.group(1), script.group(1)):
        status, headers, _ = site.get(path, **{"Accept-Encoding": "gzip"})
        assert status == 200, path
        assert headers["strict-transport-security"] == page["strict-transport-security"]
        assert set(headers["content-security-policy"][0].split("; ")) == set(
            page["content-security-policy"][0].split("; ")
        )
        assert headers["x-content-type-options"] == ["nosniff"]
        assert "immutable" in headers["cache-control"][0], path
    status, headers, _ = site.get("/static/css/site.css")
    assert status == 200 and "immutable" not in headers["cache-control"][0]
    # A traversal never reaches a file outside the static folder.
    for path in ("/static/../snooker_site/settings.py", "/static/%2e%2e/manage.py"):
        status, headers, body = site.get(path)
        assert status in (400, 404), (path, status)
        assert b"SECRET_KEY" not in body and b"django" not in body.lower()
    # Plain HTTP goes to HTTPS.
    conn = http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=10)
    conn.request("GET", "/accounts/login/", headers={"Host": "localhost"})
    moved = conn.getresponse()
    assert moved.status == 301
    assert moved.getheader("Location") == "https://localhost/accounts/login/"
    conn.close()


# --- forged X-Forwarded-For ----------------------------------------------------------------------


def _sign_up(site: Site, name: str, source: str, forged: str) -> int:
    """A sign-up POST from `source`, with a forged X-Forwarded-For, as a script would send it
    (the form's CSRF token and cookie first)."""
    status, headers, body = site.get("/accounts/signup/", source=source)
    assert status == 200
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert token
    cookie = "; ".join(c.split(";", 1)[0] for c in headers.get("set-cookie", []))
    form = urlencode({"csrfmiddlewaretoken": token.group(1).decode(), "username": name,
                      "password1": PASSWORD, "password2": PASSWORD})  # fmt: skip
    conn = http.client.HTTPSConnection(
        "localhost", site.https_port, context=site.tls(), timeout=15, source_address=(source, 0)
    )
    try:
        conn.request("POST", "/accounts/signup/", body=form, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
            "Origin": site.url, "Referer": f"{site.url}/accounts/signup/",
            "X-Forwarded-For": forged, "X-Real-IP": forged,
        })  # fmt: skip
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def test_forged_forwarded_for_is_limited_by_the_address_nginx_saw(site: Site) -> None:
    """SNOOKER_SIGNUP_RATE is 5/h here: from one real address, whatever each request claims
    (a new address in X-Forwarded-For every time), the sixth is refused; another real address
    is not held up."""
    statuses = [
        _sign_up(site, f"forger{n}", "127.0.0.3", f"10.{n}.0.1, 198.51.100.{n}") for n in range(7)
    ]
    assert statuses == [302] * 5 + [429] * 2, statuses
    assert _sign_up(site, "honest", "127.0.0.4", "10.0.0.1") == 302


# --- playing through the proxy, across a rolling restart --------------------------------------


def _sign_up_in(context: BrowserContext, site: Site, name: str) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    answer = page.goto(f"{site.url}/accounts/signup/")
    assert answer is not None and answer.ok
    assert answer.headers["strict-transport-security"].startswith("max-age=31536000")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{site.url}/")
    page.wait_for_function("() => window.clubLobby && clubLobby().connection === 'open'")
    return page


def test_two_members_play_over_https_and_a_rolling_restart_loses_nothing(
    site: Site, browser: Browser
) -> None:
    from tests.browser import strokes
    from tests.browser.test_club import on_the_table
    from tests.browser.test_match_page import (
        DESKTOP,
        click_table,
        set_angle,
        set_power,
        settled,
        state,
        strike,
    )

    contexts = {name: browser.new_context(viewport=DESKTOP) for name in ("alice", "bob")}
    alice = _sign_up_in(contexts["alice"], site, "alice")
    bob = _sign_up_in(contexts["bob"], site, "bob")

    alice.goto(f"{site.url}/challenges/new/?opponent=bob")
    alice.select_option("select[name=best_of]", "1")
    alice.get_by_test_id("send-challenge").click()
    expect(alice.get_by_test_id("waiting")).to_be_visible()
    row = bob.get_by_test_id("incoming").get_by_test_id("challenge-row")
    expect(row).to_have_count(1)
    row.get_by_test_id("accept").click()
    server = Server(site.url, site.env, 0)
    match_id = on_the_table(bob, server)
    assert on_the_table(alice, server) == match_id
    assert alice.url.startswith("https://")
    pages = [alice, bob]
    settled(pages, 1)

    here = Server(site.url, site.env, match_id)
    snap = here.snapshot()
    breaker, other = (alice, bob) if snap["scoreboard"]["to_act"] == "A" else (bob, alice)
    assert state(breaker)["seat"] == snap["scoreboard"]["to_act"]

    # A rolling upgrade: each daphne restarted in turn; the pages reconnect through nginx.
    site.restart(0)
    settled(pages, 1)
    click_table(breaker, (150.0, -1150.0))
    cue = tuple(state(breaker)["aim"]["cue_ball"])
    speed = set_power(breaker, 8.0)
    found = strokes.break_off(strokes.frame_of(snap), cue, speed)  # type: ignore[arg-type]
    set_angle(breaker, found.angle)
    strike(breaker)
    settled(pages, 2)
    site.restart(1)
    settled(pages, 2)

    other.get_by_test_id("concede-match").click()
    other.get_by_test_id("confirm-yes").click()
    settled(pages, 3)

    # Nothing lost: the stored match has every event, in order, once; each page saw them all.
    stored = here.manage(
        "from game.models import MatchEvent\n"
        f"print(list(MatchEvent.objects.filter(match_id={match_id})"
        ".order_by('version').values_list('version', flat=True)))"
    )
    assert stored.strip().splitlines()[-1] == "[1, 2, 3]"
    for page in pages:
        assert state(page)["shownVersion"] == 3
        assert page.errors == [], page.errors  # type: ignore[attr-defined]


SPREAD_SOCKETS = 40


async def _watching(
    site: Site, match: int, i: int, welcomes: list[int], stop: Event, path: str = "match"
) -> None:
    """A spectator's page through nginx, from a loopback address of its own (nginx limits
    sockets per address): hello, then whatever comes; after any close, back on the match page's
    backoff (static/js/connection.js), reset by a welcome. On `/ws/{path}/`: today's page
    opens `watch`, the crowd's; `match` is the players' (and a page from before the crowd's)."""
    source = f"127.1.{i // 250}.{i % 250 + 1}"
    attempt = 0
    while not stop.is_set():
        try:
            async with ws_connect(
                f"wss://localhost:{site.https_port}/ws/{path}/{match}/", ssl=site.tls(),
                origin=Origin(site.url), local_addr=(source, 0), proxy=None, open_timeout=10,
            ) as ws:  # fmt: skip
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "last_version": None}))
                async for text in ws:
                    if str(text).startswith('{"type":"welcome"'):
                        welcomes[i] += 1
                        attempt = 0
        except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
            pass
        await asyncio.sleep(LivePage.BACKOFF[min(attempt, len(LivePage.BACKOFF) - 1)])
        attempt += 1


def _held(site: Site, kind: str = "tables") -> dict[str, int]:
    """What each live process of a kind (the players', `tables`, or the `crowd`'s) says it
    holds (game/balance.py's keys, three seconds' life)."""
    client = redis.Redis.from_url(redis_url())
    try:
        prefix = site.env["CHANNEL_LAYER_PREFIX"]
        keys = list(client.scan_iter(match=f"{prefix}balance:{kind}:*"))
        values = client.mget(keys) if keys else []
        return {k.decode(): int(v) for k, v in zip(keys, values, strict=True) if v is not None}
    finally:
        client.close()


@pytest.fixture(scope="module")
def watched(site: Site) -> int:
    """A match for the spectators' sockets of the tests below (tests.live.ctl's players)."""
    setup = run_json(site.env, "-m", "tests.live.ctl", "matches", "1")
    match: int = setup["matches"][0]["match"]
    return match


def test_after_a_rolling_restart_the_sockets_spread_again(site: Site, watched: int) -> None:
    """Each daphne restarted in turn leaves every socket on the one restarted first (a socket
    stays where it landed; least_conn only places new ones): the balancer asks the excess to
    reconnect, and nginx hands them to the other process."""
    match = watched

    async def run() -> tuple[float, float, list[int]]:
        stop = Event()
        welcomes = [0] * SPREAD_SOCKETS
        tasks = [asyncio.create_task(_watching(site, match, i, welcomes, stop))
                 for i in range(SPREAD_SOCKETS)]  # fmt: skip
        try:
            # (>=: the browser test's pages, if it ran before, are still open)
            await _until_held(site, lambda h: sum(h.values()) >= SPREAD_SOCKETS, 60)
            peaks: list[int] = []
            watch = asyncio.create_task(_peaks(site, peaks))
            for index in (0, 1):  # deploy/bin/snooker-upgrade's rolling restart
                await asyncio.to_thread(site.restart, index)
            restarted = time.monotonic()
            # Every socket reconnected after the second restart; then spread again, as far as
            # the balancer asks (its own measure: neither has any to move). The counts are up to
            # a pass old, so they are read until no page has been welcomed for two passes: a
            # process may move its excess in two steps, the second after its cool-down.
            quiet_since, seen = time.monotonic(), sum(welcomes)

            def spread_out(h: dict[str, int]) -> bool:
                nonlocal quiet_since, seen
                if sum(welcomes) != seen:
                    quiet_since, seen = time.monotonic(), sum(welcomes)
                return (len(h) == 2 and sum(h.values()) >= SPREAD_SOCKETS
                        and not any(to_move(n, {o: m for o, m in h.items() if o != p})
                                    for p, n in h.items())
                        and time.monotonic() - quiet_since > 2 * BALANCE_EVERY)  # fmt: skip

            spread = await _until_held(site, spread_out, 60)
            took = time.monotonic() - restarted - 2 * BALANCE_EVERY
            watch.cancel()
            # Without the balancer one process would hold them all from now on.
            assert max(peaks) >= SPREAD_SOCKETS * 0.9, "the restart never piled them up"
            most = max(spread.values()) / SPREAD_SOCKETS
            settled = list(welcomes)
            await asyncio.sleep(3)  # three balancing passes: nobody moved again
            assert sum(welcomes) - sum(settled) == 0, "sockets kept being moved"
            return took, most, welcomes
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        took, most, welcomes = pool.submit(asyncio.run, run()).result()
    print(f"spread again {took:.1f} s after the rolling restart; the fuller process holds "
          f"{most:.0%}; {sum(welcomes)} welcomes for {SPREAD_SOCKETS} sockets")  # fmt: skip


CROWD_SOCKETS = 6


def test_the_crowd_has_a_process_of_its_own_and_comes_back_to_it(site: Site, watched: int) -> None:
    """The spectators' sockets (/ws/watch/) reach the crowd's process only; while it is down
    the players' processes take them (nginx's backup servers), and once it is up again they
    ask them to reconnect, and nginx hands them back to it (docs/deploy.md, "The crowd's own
    process")."""
    match = watched

    async def run() -> None:
        stop = Event()
        welcomes = [0] * CROWD_SOCKETS
        tasks = [asyncio.create_task(_watching(site, match, i, welcomes, stop, "watch"))
                 for i in range(CROWD_SOCKETS)]  # fmt: skip
        try:
            await _until_held(site, lambda h: sum(h.values()) == CROWD_SOCKETS, 30, "crowd")
            await asyncio.to_thread(site.daphnes[CROWD].stop)
            # Every page welcomed again, by a players' process: the crowd's is down.
            assert await until(lambda: all(w >= 2 for w in welcomes), 30), welcomes
            await _until_held(site, lambda h: sum(h.values()) >= CROWD_SOCKETS, 10)
            await asyncio.to_thread(site.start, CROWD, "daphne-crowd-again",
                                    site.daphnes[CROWD].port)  # fmt: skip
            await _until_held(site, lambda h: sum(h.values()) == CROWD_SOCKETS, 30, "crowd")
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        pool.submit(asyncio.run, run()).result()


async def _peaks(site: Site, peaks: list[int]) -> None:
    while True:
        held = await asyncio.to_thread(_held, site)
        peaks.append(max(held.values(), default=0))
        await asyncio.sleep(0.1)


async def _until_held(
    site: Site, done: Callable[[dict[str, int]], bool], timeout: float, kind: str = "tables"
) -> dict[str, int]:
    deadline = time.monotonic() + timeout
    while True:
        held = await asyncio.to_thread(_held, site, kind)
        if done(held):
            return held
        if time.monotonic() > deadline:
            raise AssertionError(f"the processes hold {held}")
        await asyncio.sleep(0.2)


def test_a_slow_client_is_dropped(site: Site) -> None:
    """Headers that never end hold no connection for good: nginx ends it after
    client_header_timeout (10 s), a deadline for the whole header, not a pause between bytes."""
    raw = socket.create_connection(("127.0.0.1", site.https_port), timeout=30)
    with site.tls().wrap_socket(raw, server_hostname="localhost") as tls:
        tls.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        started = time.monotonic()
        try:
            answer = tls.recv(1024)  # returns when nginx gives up: a 408, or just the close
        except (ssl.SSLError, ConnectionResetError):
            answer = b""
        waited = time.monotonic() - started
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:100]
    assert 5 < waited < 20, waited


# --- the deployment, tight (issue 42) ---------------------------------------------------------


def _closed_without_answer(conn: http.client.HTTPConnection, host: str) -> bool:
    """True when nginx closes the connection without a word (its 444)."""
    try:
        conn.request("GET", "/accounts/login/", headers={"Host": host})
        conn.getresponse()
    except (http.client.RemoteDisconnected, ConnectionResetError, ssl.SSLError):
        return True
    finally:
        conn.close()
    return False


def test_no_version_and_no_unknown_name_reaches_daphne(site: Site) -> None:
    # server_tokens off: "nginx" on every answer and error page, never its version.
    status, headers, _ = site.get("/accounts/login/")
    assert status == 200 and headers["server"] == ["nginx"]
    status, headers, body = site.get("/static/no-such-file.css")
    assert status == 404 and headers["server"] == ["nginx"]
    assert not re.search(rb"nginx/\d", body)
    # Port 80: an unknown Host is closed without an answer; the club's own name is sent to
    # the club's own name, whatever Host asked.
    assert _closed_without_answer(
        http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=10), "evil.example"
    )
    # Port 443: a handshake for a name the club has no certificate for is refused ...
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with (
        socket.create_connection(("127.0.0.1", site.https_port), timeout=10) as raw,
        pytest.raises(ssl.SSLError, match=r"UNRECOGNIZED_NAME|unrecognized name"),
    ):
        context.wrap_socket(raw, server_hostname="evil.example")
    # ... and a request made over the club's handshake with another Host is dropped by nginx.
    conn = http.client.HTTPSConnection("localhost", site.https_port, context=site.tls(), timeout=10)
    assert _closed_without_answer(conn, "evil.example")


def test_the_access_log_holds_no_token(site: Site) -> None:
    secret = secrets.token_urlsafe(16)
    site.get(f"/invite/{secret}/?x=1", Referer=f"{site.url}/invite/{secret}/")
    site.get(f"/accounts/reset/MQ/{secret}/")
    site.get("/players/?q=plain")
    log = site.nginx.folder / "logs" / "snooker.access.log"
    deadline = time.monotonic() + 10
    while "q=plain" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)  # nginx writes the line after the answer
    text = log.read_text()
    assert "/players/?q=plain" in text
    assert secret not in text
    assert '"GET /invite/.../?x=1 ' in text and '"GET /accounts/reset/.../ ' in text


def _handshake(site: Site, *, version: ssl.TLSVersion, ciphers: str | None = None) -> str:
    """The suite nginx agreed to, or raises ssl.SSLError when it refused."""
    context = site.tls()
    context.minimum_version = context.maximum_version = version
    if ciphers is not None:
        context.set_ciphers(ciphers)
    with (
        socket.create_connection(("127.0.0.1", site.https_port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname="localhost") as tls,
    ):
        suite = tls.cipher()
        assert suite is not None
        return suite[0]


def test_tls_is_mozillas_intermediate(site: Site) -> None:
    """TLS 1.3, and TLS 1.2 with ECDHE and AES-GCM or ChaCha20 only: no CBC, no SHA-1 MAC, no
    RSA key exchange; nothing older than 1.2."""
    assert _handshake(site, version=ssl.TLSVersion.TLSv1_3).startswith("TLS_")
    agreed = _handshake(site, version=ssl.TLSVersion.TLSv1_2)
    assert agreed.startswith("ECDHE-") and ("GCM" in agreed or "CHACHA20" in agreed), agreed
    for good in ("ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305"):
        assert _handshake(site, version=ssl.TLSVersion.TLSv1_2, ciphers=good) == good
    for weak in ("ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "AES128-GCM-SHA256"):
        with pytest.raises(ssl.SSLError):
            _handshake(site, version=ssl.TLSVersion.TLSv1_2, ciphers=weak)
    with pytest.raises(ssl.SSLError):
        _handshake(site, version=ssl.TLSVersion.TLSv1_1)
