"""Real servers for the multi-process test: a scratch PostgreSQL database, daphne processes,
and websocket clients that keep the protocol's bookkeeping (versions, acks, errors).

The browser tests (tests/browser/conftest.py) and the live benchmark (benchmarks/bench_live.py)
start their servers, run their Django-side scripts and make their databases with the same
pieces: free_port, Daphne, run_python / run_json, logged_in_session and ScratchDatabase.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis
from psycopg import sql
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test"
PROTOCOL = 1


# --- services ------------------------------------------------------------------------------
def redis_url() -> str:
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def postgres_url() -> str:
    """The PostgreSQL server to make scratch databases on: DATABASE_URL's if it is one."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_POSTGRES_URL


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def check_redis(url: str) -> str | None:
    """None if Redis answers, else why not (the caller fails: these tests never skip)."""
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        return f"Redis is not reachable at {url}: {exc}"
    finally:
        client.close()
    return None


def drop_redis_keys(url: str, prefix: str) -> None:
    # channels_redis keeps group keys for a day; a killed server never discards its members.
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


class ScratchDatabase:
    """A fresh PostgreSQL database for one run, dropped (forcibly) at the end."""

    def __init__(self, server_url: str, prefix: str = "snooker_mp") -> None:
        self.server_url = server_url
        self.name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.url = with_database(server_url, self.name)

    def _admin(self) -> psycopg.Connection[Any]:
        # Connect to the server's own database to create or drop another one.
        return psycopg.connect(with_database(self.server_url, "postgres"), autocommit=True,
                               connect_timeout=3)  # fmt: skip

    def create(self) -> None:
        with self._admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        with self._admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )


# --- the Django side (subprocesses with the servers' environment) ----------------------------
def run_python(env: dict[str, str], *args: str, timeout: float = 120) -> str:
    """Run `python ARGS` at the repository root with `env`; its stdout. On failure, raise
    with everything it printed."""
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def last_json(stdout: str) -> Any:
    """The JSON value on the last line of a script's output."""
    return json.loads(stdout.strip().splitlines()[-1])


def run_json(env: dict[str, str], *args: str, timeout: float = 120) -> dict[str, Any]:
    """Run a Django-side script (`python ARGS`) whose last line is one JSON object."""
    result: dict[str, Any] = last_json(run_python(env, *args, timeout=timeout))
    return result


def run_ctl(env: dict[str, str], *args: str) -> dict[str, Any]:
    """Run tests/live/ctl.py against the scratch database."""
    return run_json(env, "-m", "tests.live.ctl", *args)


def logged_in_session(user: Any) -> str:
    """A logged-in session, as the login view would store it; the key is the cookie value.
    Call it with Django set up, against the servers' database."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    key: str = session.session_key
    return key


# --- servers -------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Process:
    """One long-running process at the repository root; its output goes to a log file shown
    on failure."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT)  # fmt: skip

    def kill(self) -> None:
        """SIGKILL: no cleanup in the process (a crash, not a shutdown)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._log.close()

    def stop(self) -> None:
        """SIGTERM, a shutdown; SIGKILL if it takes more than 10 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]


class Daphne(Process):
    """One server process on loopback."""

    def __init__(
        self, name: str, env: dict[str, str], log_dir: Path, port: int | None = None
    ) -> None:
        self.port = port or free_port()  # a port of its own, or a stopped one's (a restart)
        daphne = str(Path(sys.executable).parent / "daphne")
        argv = [daphne, "-b", "127.0.0.1", "-p", str(self.port), "snooker_site.asgi:application"]
        super().__init__(name, argv, env, log_dir)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited early:\n{self.log()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.http_url}/healthz", timeout=1) as answer,
            ):
                if answer.status == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not answer /healthz in {timeout}s:\n{self.log()}")


P = TypeVar("P", bound=Process)


def computer_player(env: dict[str, str], log_dir: Path, kind: type[P] = Process) -> P:  # type: ignore[assignment]
    """The computer opponent's own process (`manage.py play_computer`), as a `kind`: `env`
    must name Redis and say SNOOKER_COMPUTER_PROCESS=true, as the servers' does."""
    return kind("computer", [sys.executable, "manage.py", "play_computer"], env, log_dir)


async def until(done: Callable[[], bool], timeout: float, every: float = 0.02) -> bool:
    """Whether `done()` came true within `timeout` seconds, looked at every `every`."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(every)
    return True


# --- clients -------------------------------------------------------------------------------
class LiveClient:
    """One browser over a real websocket. Events must arrive in order, each exactly once,
    across reconnections; anything else is recorded in `problems` for the test to assert."""

    def __init__(self, name: str, match_id: int, cookie: str | None = None) -> None:
        self.name, self.match_id, self.cookie = name, match_id, cookie
        self.version = 0  # the last event version this client has
        self.events: list[dict[str, Any]] = []
        self.welcomes: list[dict[str, Any]] = []
        self.acks: dict[str, dict[str, Any]] = {}
        self.errors: list[dict[str, Any]] = []
        self.refusals: dict[str, dict[str, Any]] = {}  # client id -> the error answering it
        self.presences: list[tuple[float, dict[str, Any]]] = []  # (when, message)
        self.lines: list[dict[str, Any]] = []  # chat lines heard (`line` messages)
        self.problems: list[str] = []
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.seat: str | None = None
        self.closing = False  # we are closing the socket (else a close is the server's)
        self.dropped: str | None = None

    @property
    def snapshot(self) -> dict[str, Any]:
        snap: dict[str, Any] = self.events[-1]["snapshot"]
        return snap

    async def open(self, server: Daphne, last_version: int | None) -> dict[str, Any]:
        headers = {"Cookie": self.cookie} if self.cookie else None
        self.closing, self.dropped = False, None
        self.ws = await connect(
            f"{server.url}/ws/match/{self.match_id}/", additional_headers=headers,
            origin=Origin(f"http://127.0.0.1:{server.port}"), proxy=None, compression=None,
        )  # fmt: skip
        self.reader = asyncio.create_task(self._read(self.ws))
        count = len(self.welcomes)
        await self.send({"type": "hello", "protocol": PROTOCOL, "last_version": last_version})
        await self.wait_until(lambda: len(self.welcomes) > count, f"{self.name} welcome")
        welcome = self.welcomes[-1]
        self.seat = welcome["seat"]
        return welcome

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                self._take(json.loads(text))
        if not self.closing:
            self.dropped = f"closed by the server ({ws.close_code} {ws.close_reason!r})"

    def _take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "event":
            if message["version"] != self.version + 1:
                self.problems.append(
                    f"{self.name}: event {message['version']} after {self.version}"
                )
            self.version = message["version"]
            self.events.append(message)
        elif kind == "welcome":
            snapshot = message["snapshot"]
            # A client with nothing to catch up on gets the snapshot at its own version;
            # any other snapshot replaces missed events: a gap this test never expects.
            if snapshot is not None and snapshot["version"] != self.version:
                self.problems.append(
                    f"{self.name}: snapshot v{snapshot['version']} instead of events after "
                    f"v{self.version}"
                )
                self.version = snapshot["version"]
            self.welcomes.append(message)
        elif kind == "ack":
            self.acks[message["client_id"]] = message
        elif kind == "error":
            self.errors.append(message)
            if message.get("client_id") is not None:
                self.refusals[message["client_id"]] = message
        elif kind == "presence":
            self.presences.append((time.monotonic(), message))
        elif kind == "line":
            self.lines.append(message)

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def wait_until(
        self, done: Callable[[], bool], what: str, timeout: float = 15.0, ping: bool = False
    ) -> None:
        """Poll until `done()`; with `ping`, ping now and then as a browser does, which makes
        the server fill any gap from the database."""
        deadline = time.monotonic() + timeout
        next_ping = time.monotonic() + 0.5
        while not done():
            if self.errors:
                raise AssertionError(f"{self.name} got errors: {self.errors}")
            if self.dropped:
                raise AssertionError(f"{self.name} waiting for {what}: {self.dropped}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what} (at v{self.version})")
            if ping and time.monotonic() >= next_ping:
                await self.send({"type": "ping", "version": self.version})
                next_ping = time.monotonic() + 0.5
            await asyncio.sleep(0.01)

    async def wait_version(self, version: int, timeout: float = 15.0) -> None:
        await self.wait_until(
            lambda: self.version >= version, f"{self.name} to reach v{version}", timeout, True
        )

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader


# --- playing ---------------------------------------------------------------------------------
BALL_RADIUS = 26.25  # mm
# Cue-ball spots inside the D (baulk line y = -1084.5, radius 292), tried in order.
D_SPOTS = [(150.0, -1150.0), (-150.0, -1150.0), (0.0, -1200.0), (100.0, -1250.0),
           (-100.0, -1250.0), (200.0, -1120.0), (-200.0, -1120.0), (0.0, -1300.0)]  # fmt: skip
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")


def free_spot(balls: dict[str, list[float]]) -> tuple[float, float]:
    for spot in D_SPOTS:
        if all(
            math.dist(spot, pos) > 2 * BALL_RADIUS + 1 for name, pos in balls.items()
            if name != "white"
        ):  # fmt: skip
            return spot
    raise AssertionError(f"no free spot in the D among {D_SPOTS}")


def balls_on(on: str, balls: dict[str, list[float]]) -> list[str]:
    if on == "red":
        names = [b for b in balls if b.startswith("red")]
    elif on == "colour":
        names = [b for b in balls if b in COLOURS]
    else:
        names = [on] if on in balls else []
    return names or [b for b in balls if b != "white"]


def next_move(snapshot: dict[str, Any], client_id: str, speed: float = 3.0) -> dict[str, Any]:
    """A legal request for whoever is to act: take a pending choice ("play" if offered), or
    strike at the nearest ball on (from a free spot in the D when in hand)."""
    frame, version = snapshot["frame"], snapshot["version"]
    pending = frame["pending"]
    if pending is not None:
        options = pending["options"]
        option = "play" if "play" in options else options[0]
        return {"type": "choose", "client_id": client_id, "version": version, "option": option}
    balls = frame["balls"]
    cue: tuple[float, float] | None = None
    if frame["in_hand"]:
        cue = free_spot(balls)
        start = cue
    else:
        start = (balls["white"][0], balls["white"][1])
    target = min(balls_on(frame["on"], balls), key=lambda b: math.dist(start, balls[b]))
    tx, ty = balls[target]
    message: dict[str, Any] = {
        "type": "stroke", "client_id": client_id, "version": version,
        "angle": math.atan2(ty - start[1], tx - start[0]), "speed": speed,
    }  # fmt: skip
    if cue is not None:
        message["cue_ball"] = list(cue)
    return message


# --- services of a test's own (tests/live/test_faults.py) ------------------------------------
def postgres_bin() -> Path | None:
    """The directory of PostgreSQL's server programs (initdb, pg_ctl), the newest installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3])
                   if p.parts[-3].isdigit() else 0)  # fmt: skip
    if found:
        return found[-1].parent
    for name in ("pg_ctl",):
        if (path := shutil.which(name)) is not None:
            return Path(path).parent
    return None


class OwnPostgres:
    """A throwaway PostgreSQL cluster on a port of its own, in a directory of its own: the test
    may crash and restart it without touching the machine's server. As root, it runs as the
    `postgres` user (the server refuses root)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="snooker-pg-"))
        self.data = self.dir / "data"
        self.log_path = self.dir / "server.log"
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *argv: str, timeout: float = 120) -> None:
        done = subprocess.run([*self._as, *argv], capture_output=True, text=True,
                              timeout=timeout, check=False)  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")

    def init(self) -> None:
        # fsync off: a crash of the server process keeps what it committed (the kernel has it);
        # only a crash of the machine would need fsync.
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")  # fmt: skip
        self.start()

    def start(self) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off "
                   "-c max_connections=200")  # fmt: skip
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_path),
                  "-o", options, "-w", "-t", "60", "start")  # fmt: skip

    def crash(self) -> None:
        """The immediate shutdown: every server process quits at once, without a checkpoint,
        as after a crash (the next start recovers from the WAL)."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                  "stop")  # fmt: skip

    def destroy(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "-w", "stop")  # fmt: skip
        shutil.rmtree(self.dir, ignore_errors=True)


class OwnRedis:
    """A redis-server of the test's own on a port of its own, without persistence: a restart
    comes back empty, as a Redis used only as the channel layer may."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_dir = log_dir
        self.proc: Process | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--daemonize", "no"]  # fmt: skip
        self.proc = Process(f"redis-{self.starts}", argv, dict(os.environ), self.log_dir)
        deadline = time.monotonic() + 10
        while check_redis(self.url) is not None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not come up:\n{self.proc.log()}")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()

    def pause(self) -> None:
        """SIGSTOP: the server hangs, its sockets open (as a Redis swapping or stuck)."""
        assert self.proc is not None
        self.proc.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.proc.send_signal(signal.SIGCONT)


class Page:
    """A browser page's socket to a match, as static/js/socket.js keeps it: it pings every
    `ping_every` seconds (which fills any gap from the database), and after a drop, or a
    handshake refused or unanswered, reconnects with `hello{last_version}` (0 at first: the
    whole log arrives as events, so every page has 1..final) on the match page's
    backoff (reset by a welcome). `client.problems` keeps what the protocol forbids (a gap, a
    double, a snapshot instead of fewer than 100 missed events); `outages` when it was not
    welcomed, for the figures."""

    BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 10.0)
    WELCOME_WITHIN = 20.0  # a welcome later than this is a hung socket: reported, then retried

    def __init__(self, client: LiveClient, server: Daphne, ping_every: float = 2.0) -> None:
        self.client, self.server, self.ping_every = client, server, ping_every
        self.up = asyncio.Event()
        self.down_since: float | None = time.monotonic()
        self.outages: list[tuple[float, float]] = []  # (dropped, welcomed again), monotonic
        self.hung: list[str] = []  # handshakes never welcomed nor closed
        self.refused: list[str] = []  # why each attempt failed
        self.errors: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None
        self.stopped = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._keep())

    async def _keep(self) -> None:
        attempt = 0
        while not self.stopped:
            # The answers to the page's requests are the driver's to read (`refusals`): they do
            # not stop the page from connecting again.
            self.errors.extend(self.client.errors)
            self.client.errors.clear()
            try:
                await asyncio.wait_for(
                    self.client.open(self.server, self.client.version),
                    self.WELCOME_WITHIN,
                )
            except TimeoutError:
                self.hung.append(f"{self.client.name}: no welcome nor close in "
                                 f"{self.WELCOME_WITHIN:.0f} s")  # fmt: skip
                await self._drop()
            except (OSError, AssertionError, InvalidHandshake, ConnectionClosed) as exc:
                self.refused.append(f"{type(exc).__name__}: {exc}")
                await self._drop()
            else:
                attempt = 0
                if self.down_since is not None:
                    self.outages.append((self.down_since, time.monotonic()))
                    self.down_since = None
                self.up.set()
                await self._watch()
                continue
            await asyncio.sleep(self.BACKOFF[min(attempt, len(self.BACKOFF) - 1)])
            attempt += 1

    async def _watch(self) -> None:
        """While the socket lasts: ping now and then, as a page does."""
        while not self.stopped and self.client.dropped is None:
            with contextlib.suppress(ConnectionClosed):
                await self.client.send({"type": "ping", "version": self.client.version})
            for _ in range(int(self.ping_every / 0.05)):
                if self.stopped or self.client.dropped is not None:
                    break
                await asyncio.sleep(0.05)
        if not self.stopped:
            self.up.clear()
            self.down_since = time.monotonic()
            await self._drop()

    async def _drop(self) -> None:
        ws, self.client.ws = self.client.ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        if self.client.reader is not None:
            self.client.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.client.reader

    async def reload(self) -> None:
        """The page reloads: its socket closes and it connects again at once."""
        self.client.closing = True
        self.client.dropped = "reloaded"
        self.up.clear()
        self.down_since = time.monotonic()

    async def stop(self) -> None:
        self.stopped = True
        self.client.closing = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        await self._drop()


class LobbyPage:
    """The lobby page's socket (/ws/lobby/): hello, welcome, updates; reconnects as the club's
    pages do (static/js/clubsocket.js's backoff) and counts its welcomes."""

    BACKOFF = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)

    def __init__(self, name: str, server: Daphne) -> None:
        self.name, self.server = name, server
        self.welcomes = 0
        self.up = asyncio.Event()
        self.down_since: float | None = time.monotonic()
        self.outages: list[tuple[float, float]] = []
        self.hung: list[str] = []
        self.refused: list[str] = []
        self.ws: ClientConnection | None = None
        self.task: asyncio.Task[None] | None = None
        self.stopped = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._keep())

    async def _keep(self) -> None:
        attempt = 0
        while not self.stopped:
            try:
                self.ws = await connect(
                    f"{self.server.url}/ws/lobby/", proxy=None, compression=None,
                    origin=Origin(f"http://127.0.0.1:{self.server.port}"),
                )  # fmt: skip
                await self.ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))
                while True:
                    text = await asyncio.wait_for(self.ws.recv(), Page.WELCOME_WITHIN)
                    if json.loads(text)["type"] == "welcome":
                        break
            except TimeoutError:
                self.hung.append(f"{self.name}: no welcome nor close in "
                                 f"{Page.WELCOME_WITHIN:.0f} s")  # fmt: skip
            except (OSError, InvalidHandshake, ConnectionClosed) as exc:
                self.refused.append(f"{type(exc).__name__}: {exc}")
            else:
                attempt = 0
                self.welcomes += 1
                if self.down_since is not None:
                    self.outages.append((self.down_since, time.monotonic()))
                    self.down_since = None
                self.up.set()
                with contextlib.suppress(ConnectionClosed):
                    async for _ in self.ws:
                        pass
                if self.stopped:
                    return
                self.up.clear()
                self.down_since = time.monotonic()
                continue
            finally:
                if not self.up.is_set() and self.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.ws.close(), 2)
            await asyncio.sleep(self.BACKOFF[min(attempt, len(self.BACKOFF) - 1)])
            attempt += 1

    async def reload(self) -> None:
        self.up.clear()
        self.down_since = time.monotonic()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)

    async def stop(self) -> None:
        self.stopped = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
