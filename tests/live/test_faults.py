"""Faults heal by themselves (issue 37): the club under a crashed database and a lost Redis.

The test runs its own PostgreSQL (a throwaway cluster, tests.live.harness.OwnPostgres) and its
own Redis (OwnRedis), each on a port of its own, so it may crash them; the machine's servers
are not touched. Two daphne processes serve `MATCHES` matches, each player on a process of
their own and a spectator on each, and a lobby page on each; strokes flow on every table
while, one at a time, PostgreSQL is crashed (`pg_ctl stop -m immediate`) and started again,
Redis is killed and started again (empty), each for `OUTAGE` seconds, and Redis hangs (SIGSTOP,
then SIGCONT) for `HANG` seconds, longer than the reconnect grace. Every page reconnects as
the browser's does (harness.Page, LobbyPage), and one spectator and the lobby pages reload
during each outage. Throughout, each player asks to claim every second.

It checks that no claim is accepted (both players stay connected: a claim against one of
them is the fault leaving a trace), that every page is welcomed again after every fault and
none hangs, that nothing acked is lost or doubled (every acked request is stored once, at its
version; the versions run without a gap), and that every socket has every event exactly once,
in order, including the spectators, and that the servers' logs hold no traceback and no
ERROR line, only a line when a dependency is lost and one when it is back. After each fault
the tables play on for longer than the reconnect grace and two heartbeats, so a presence lost
for good would be claimable.

It prints its figures (how long the pages were dropped, when they were welcomed again and
when strokes were acked again after the dependency came back): docs/deploy.md, "Faults", and
docs/protocol.md quote them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import secrets
import shutil
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.live.harness import (
    Daphne,
    LiveClient,
    LobbyPage,
    OwnPostgres,
    OwnRedis,
    Page,
    ScratchDatabase,
    next_move,
    postgres_bin,
    run_ctl,
    until,
)
from tests.needs import missing

MATCHES = 4
HEARTBEAT = 1.0  # presence converges within two of them (docs/protocol.md)
# The reconnect grace: a player away this long may be claimed against. Longer than an outage
# and the page's backoff after it (0.5 + 1 + 2 + 4 s), so that a player dropped by a fault who
# comes back as the page does is never claimable.
GRACE = 10
OUTAGE = 3.0  # seconds each dependency is down
# Redis hangs longer than the grace and the stale limit: a heartbeat or a player's request held
# up behind the hung channel layer must not leave a connected player's presence stale for long
# enough to be claimed against (issue 37).
HANG = GRACE + 4.0
# After each fault: longer than the grace and two heartbeats, so that a presence lost for good
# (the row swept and never written again) becomes a claim the players' claims would win.
SETTLE = GRACE + 2 * HEARTBEAT + 1.0
PACE = 0.4  # seconds between a table's requests
ANSWER_WITHIN = 5.0  # an unanswered request is sent again (same client id) after this
RECOVER_WITHIN = 15.0  # every page welcomed again, every table acking, this long after
TOTAL = 240.0  # the whole run, set up apart: a hang fails with the servers' logs

# Answers that say the request did not happen and may be sent again as it is: the database was
# unreachable (`busy`: an OperationalError) or the server failed otherwise (`internal`).
RETRIED = ("busy", "internal")

_ids = itertools.count(1)
# What happened last and when (monotonic), to say when a broken promise was seen.
STARTED: list[tuple[str, float]] = [("the start", time.monotonic())]


@dataclass
class Table:
    match: int
    players: dict[str, Page]
    spectators: list[Page]
    acked: dict[str, int] = field(default_factory=dict)  # client id -> version acked
    ack_times: list[float] = field(default_factory=list)
    claims_accepted: list[str] = field(default_factory=list)
    claims_refused: dict[str, int] = field(default_factory=dict)  # code -> how many
    retries: int = 0  # requests sent again after no answer, a drop or an internal error

    @property
    def live(self) -> bool:
        seen = [p.client for p in self.players.values() if p.client.events]
        if not seen:
            return True
        return max(seen, key=lambda c: c.version).snapshot["scoreboard"]["to_act"] is not None

    @property
    def pages(self) -> list[Page]:
        return [*self.players.values(), *self.spectators]


@dataclass
class Fault:
    name: str
    outage: float  # seconds it was down
    began: float
    back: float  # when the dependency was back
    pages_dropped: int = 0
    rewelcomed: float = 0.0  # seconds from `back` until the last page was welcomed again
    strokes_back: float = 0.0  # seconds from `back` until every table had an ack again
    acked_during: int = 0


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """Its own PostgreSQL and Redis, two daphne processes on them."""
    bindir = postgres_bin()
    if bindir is None or shutil.which("redis-server") is None:
        missing("the fault test needs PostgreSQL's server programs (initdb, pg_ctl) and "
                "redis-server: apt-get install postgresql redis-server")  # fmt: skip
    postgres = OwnPostgres(bindir)
    redis = OwnRedis(tmp_path)
    servers: list[Daphne] = []
    try:
        postgres.init()
        redis.start()
        database = ScratchDatabase(postgres.url, prefix="faults")
        database.create()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "snooker_site.settings",
            "DATABASE_URL": database.url,
            "REDIS_URL": redis.url,
            "CHANNEL_LAYER_PREFIX": f"faults-{uuid.uuid4().hex[:12]}",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "SECURE_SSL_REDIRECT": "false",
            "PYTHONUNBUFFERED": "1",
            "SNOOKER_HEARTBEAT": str(HEARTBEAT),
            "SNOOKER_RECONNECT_GRACE": str(GRACE),
            "SNOOKER_AWAY_NOTICE": "1",
        }
        setup = run_ctl(env, "matches", str(MATCHES))
        for name in ("daphne-1", "daphne-2"):
            servers.append(Daphne(name, env, tmp_path))
        for server in servers:
            server.wait_healthy()
        yield {"postgres": postgres, "redis": redis, "servers": servers, "env": env,
               "setup": setup}  # fmt: skip
    finally:
        for server in servers:
            server.kill()
        redis.kill()
        postgres.destroy()


async def _answered(page: Page, table: Table, message: dict[str, Any], stop: asyncio.Event) -> None:
    """Send a player's request until it is answered, as the page does: the same client id
    again after a drop, an unanswered wait or an internal error (the request did not happen, or
    happened and is answered as a duplicate)."""
    client, cid = page.client, message["client_id"]
    while not stop.is_set():
        await page.up.wait()
        with contextlib.suppress(Exception):
            await client.send(message)
        deadline = time.monotonic() + ANSWER_WITHIN
        while time.monotonic() < deadline and page.up.is_set() and client.dropped is None:
            if cid in client.acks:
                table.acked[cid] = client.acks[cid]["version"]
                table.ack_times.append(time.monotonic())
                return
            if cid in client.refusals:
                break
            await asyncio.sleep(0.01)
        refusal = client.refusals.pop(cid, None)
        if refusal is not None and refusal["code"] not in RETRIED:
            return  # the table changed meanwhile: a new request, from a fresh look
        table.retries += 1
        await asyncio.sleep(0.5)


async def _play(table: Table, stop: asyncio.Event) -> None:
    while not stop.is_set():
        seen = [p.client for p in table.players.values() if p.client.events]
        if not seen:
            await asyncio.sleep(0.05)
            continue
        newest = max(seen, key=lambda c: c.version).snapshot
        if newest["scoreboard"]["to_act"] is None:  # over (a claim won: reported at the end)
            await asyncio.sleep(0.2)
            continue
        page = table.players[newest["scoreboard"]["to_act"]]
        if page.client.version < newest["version"]:
            await asyncio.sleep(0.05)  # its page catches up by its ping
            continue
        message = next_move(page.client.snapshot, f"{page.client.name}-{next(_ids)}")
        await _answered(page, table, message, stop)
        await asyncio.sleep(PACE)


async def _claim(table: Table, stop: asyncio.Event) -> None:
    """Each player asks to claim every second: with both at the table, every claim must be
    refused."""
    while not stop.is_set():
        for seat, page in table.players.items():
            if not page.up.is_set():
                continue
            cid = f"claim-{seat}-{next(_ids)}"
            with contextlib.suppress(Exception):
                await page.client.send({"type": "claim", "client_id": cid, "scope": "match"})
        await asyncio.sleep(1.0)
        for seat, page in table.players.items():
            client = page.client
            for cid in [c for c in client.acks if c.startswith("claim-")]:
                now = time.monotonic()
                when = f"{now - STARTED[-1][1]:.1f} s after {STARTED[-1][0]} began"
                other = table.players["B" if seat == "A" else "A"]
                drops = [f"{a - now:+.1f}..{b - now:+.1f} s" for a, b in other.outages[-2:]]
                state = "connected" if other.up.is_set() else "reconnecting"
                table.claims_accepted.append(
                    f"{cid} at v{client.acks.pop(cid)['version']}, {when}; the opponent "
                    f"{state}, last dropped {drops}"
                )
            for cid in [c for c in client.refusals if c.startswith("claim-")]:
                code = client.refusals.pop(cid)["code"]
                table.claims_refused[code] = table.claims_refused.get(code, 0) + 1


async def _outage(
    name: str,
    outage: float,
    down: Callable[[], None],
    up: Callable[[], None],
    reloading: list[Page | LobbyPage],
    tables: list[Table],
    pages: list[Page | LobbyPage],
) -> Fault:
    acks_before = sum(len(t.acked) for t in tables)
    began = time.monotonic()
    STARTED.append((f"{name} (down {outage:.0f} s)", began))
    await asyncio.to_thread(down)
    await asyncio.sleep(outage / 2)
    for page in reloading:  # pages (re)loaded while it is down
        await page.reload()
    await asyncio.sleep(outage / 2)
    acked_during = sum(len(t.acked) for t in tables) - acks_before
    await asyncio.to_thread(up)
    back = time.monotonic()
    fault = Fault(name, outage, began, back, acked_during=acked_during)
    await until(lambda: all(p.up.is_set() for p in pages), RECOVER_WITHIN)
    await until(lambda: all(any(t > back for t in table.ack_times) for table in tables
                             if table.live), RECOVER_WITHIN)  # fmt: skip
    dropped = [o for p in pages for o in p.outages if o[0] >= began - 0.1]
    fault.pages_dropped = len(dropped)
    # A page may be welcomed before the dependency is back (a match socket's hello needs Redis
    # only to be told of other processes' events): counted as 0.
    fault.rewelcomed = max((max(0.0, w - back) for _, w in dropped), default=0.0)
    fault.strokes_back = max(
        (min((t for t in table.ack_times if t > back), default=float("inf")) - back
         for table in tables if table.live),
        default=0.0,
    )  # fmt: skip
    return fault


async def test_faults_heal_by_themselves(rig: dict[str, Any]) -> None:
    one, two = rig["servers"]
    name = rig["setup"]["cookie_name"]
    tables: list[Table] = []
    for row in rig["setup"]["matches"]:
        match = row["match"]
        a = Page(LiveClient(f"A{match}", match, f"{name}={row['A']}"), one)
        b = Page(LiveClient(f"B{match}", match, f"{name}={row['B']}"), two)
        watchers = [Page(LiveClient(f"S{match}-{i}", match), server)
                    for i, server in enumerate((one, two), 1)]  # fmt: skip
        tables.append(Table(match, {"A": a, "B": b}, watchers))
    lobbies = [LobbyPage(f"lobby-{i}", server) for i, server in enumerate((one, two), 1)]
    pages: list[Page | LobbyPage] = [p for t in tables for p in t.pages] + list(lobbies)
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    faults: list[Fault] = []
    try:
        async with asyncio.timeout(TOTAL):
            await _run(tables, lobbies, pages, tasks, faults, stop, rig)
    except BaseException:
        for server in (one, two):
            print(f"--- {server.name} log ---\n{server.log()}")
        raise
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(p.stop() for p in pages), return_exceptions=True)


async def _run(
    tables: list[Table], lobbies: list[LobbyPage], pages: list[Page | LobbyPage],
    tasks: list[asyncio.Task[None]], faults: list[Fault], stop: asyncio.Event,
    rig: dict[str, Any],
) -> None:  # fmt: skip
    postgres: OwnPostgres = rig["postgres"]
    redis: OwnRedis = rig["redis"]
    one, two = rig["servers"]
    env = rig["env"]
    for page in pages:
        page.start()
    assert await until(lambda: all(p.up.is_set() for p in pages), 30), "pages not welcomed"
    for table in tables:
        tasks += [asyncio.create_task(_play(table, stop)),
                  asyncio.create_task(_claim(table, stop))]  # fmt: skip
    assert await until(lambda: all(len(t.acked) >= 3 for t in tables), 60), "no play"

    # One spectator of each table and both lobby pages reload while it is down.
    reloading: list[Page | LobbyPage] = [t.spectators[0] for t in tables] + list(lobbies)

    def redis_back() -> None:
        redis.start()

    faults_run: list[tuple[str, float, Callable[[], None], Callable[[], None]]] = [
        ("PostgreSQL crashed", OUTAGE, postgres.crash, postgres.start),
        ("Redis killed", OUTAGE, redis.kill, redis_back),
        ("Redis hung", HANG, redis.pause, redis.resume),
    ]
    for fault_name, outage, down, up in faults_run:
        faults.append(await _outage(fault_name, outage, down, up, reloading, tables, pages))
        await asyncio.sleep(SETTLE)  # play on, claims asked, past the grace

    stop.set()
    await asyncio.gather(*tasks)
    stored = await asyncio.to_thread(run_ctl, env, "verify", *(str(t.match) for t in tables))
    finals: dict[int, dict[str, Any]] = {int(k): v for k, v in stored["matches"].items()}
    for table in tables:
        final = finals[table.match]["version"]
        await until(lambda t=table, f=final: all(p.client.version >= f for p in t.pages),  # type: ignore[misc]
                     RECOVER_WITHIN)  # fmt: skip

    _print_figures(faults, tables, lobbies, (one, two))
    failures = _check(tables, finals, lobbies, faults, (one, two))
    assert not failures, "\n".join(failures)


def _check(
    tables: list[Table], finals: dict[int, dict[str, Any]], lobbies: list[LobbyPage],
    faults: list[Fault], servers: tuple[Daphne, ...],
) -> list[str]:  # fmt: skip
    """Every broken promise, each on a line of its own (all of them, not only the first)."""
    failures: list[str] = []
    for table in tables:
        stored = finals[table.match]
        tag = f"match {table.match}"
        if table.claims_accepted:
            failures.append(f"{tag}: claims accepted against a connected player: "
                            f"{table.claims_accepted}")  # fmt: skip
        if stored["status"] != "live":
            failures.append(f"{tag}: the match is {stored['status']}, not live")
        final = stored["version"]
        if stored["versions"] != list(range(1, final + 1)):
            failures.append(f"{tag}: stored versions are not 1..{final}")
        requests = [tuple(r) for r in stored["requests"]]
        if len(requests) != len(set(requests)):
            failures.append(f"{tag}: a request stored twice")
        lost = {c: v for c, v in table.acked.items() if stored["acked_at"].get(c) != v}
        if lost:
            failures.append(f"{tag}: acked but not stored at its version: {lost}")
        if not stored["rebuilt_equals_stored"]:
            failures.append(f"{tag}: the stored state is not its events' replay")
        for page in table.pages:
            client = page.client
            if client.problems:
                failures.append(f"{tag}: {client.name}: {client.problems}")
            versions = [e["version"] for e in client.events]
            if versions != list(range(1, final + 1)):
                missing_ = sorted(set(range(1, final + 1)) - set(versions))
                failures.append(f"{tag}: {client.name} has {len(versions)} of {final} events "
                                f"(missing {missing_[:10]})")  # fmt: skip
            if not page.up.is_set():
                failures.append(f"{tag}: {client.name} was not welcomed again")
            failures += [f"{tag}: {h}" for h in page.hung]
            # Claims are judged above; a stroke refused as stale was sent from an older look
            # (the table is read again): any other refusal is a fault leaving a trace.
            unexpected = [
                e for e in page.errors + client.errors
                if not str(e.get("client_id")).startswith("claim-")
                and e["code"] not in (*RETRIED, "stale_version", "conflict")
            ]  # fmt: skip
            if unexpected:
                failures.append(f"{tag}: {client.name} errors: {unexpected[:5]}")
    for lobby in lobbies:
        if not lobby.up.is_set():
            failures.append(f"{lobby.name} was not welcomed again")
        failures += lobby.hung
    # Quiet logs: an outage is said when it begins and when it ends, once for the process,
    # never with a traceback or as an error (a bug would be both).
    for server in servers:
        noise = _noise(server)
        if noise["tracebacks"] or noise["errors"]:
            failures.append(f"{server.name}: {noise['tracebacks']} tracebacks and "
                            f"{noise['errors']} ERROR lines in its log")  # fmt: skip
        # A line when it is lost and one when it is back, each fault; a pair more at most
        # (a connection made before Redis restarted, found closed when next used).
        if len(noise["outages"]) > 4 * len(faults):
            failures.append(f"{server.name}: more than a line when each dependency was lost "
                            f"and one when it was back: {noise['outages']}")  # fmt: skip
    for fault in faults:
        if fault.rewelcomed > RECOVER_WITHIN:
            failures.append(f"{fault.name}: pages welcomed again only {fault.rewelcomed:.1f} s "
                            "after")  # fmt: skip
        if fault.strokes_back > RECOVER_WITHIN:
            failures.append(f"{fault.name}: strokes acked again only {fault.strokes_back:.1f} s "
                            "after")  # fmt: skip
    return failures


def _print_figures(
    faults: list[Fault], tables: list[Table], lobbies: list[LobbyPage], servers: tuple[Daphne, ...]
) -> None:
    sockets = sum(len(t.pages) for t in tables)
    print(f"\nfaults: {MATCHES} matches, {sockets} match sockets and {len(lobbies)} lobby "
          f"sockets on 2 processes")  # fmt: skip
    for fault in faults:
        print(f"  {fault.name} for {fault.outage:.0f} s: {fault.pages_dropped} page drops; "
              f"every page welcomed again {fault.rewelcomed:.1f} s after it was back, every "
              f"table acking again after {fault.strokes_back:.1f} s; {fault.acked_during} "
              "requests acked while it was down")  # fmt: skip
    acked = sum(len(t.acked) for t in tables)
    retries = sum(t.retries for t in tables)
    refused: dict[str, int] = {}
    for table in tables:
        for code, n in table.claims_refused.items():
            refused[code] = refused.get(code, 0) + n
    print(f"  {acked} requests acked, {retries} sent again; claims refused: {refused}; "
          f"accepted: {sum(len(t.claims_accepted) for t in tables)}")  # fmt: skip
    for server in servers:
        noise = _noise(server)
        print(f"  {server.name}: {noise['tracebacks']} tracebacks and {noise['errors']} ERROR "
              f"lines in its log; about the outages: {noise['outages']}")  # fmt: skip


def _noise(server: Daphne) -> dict[str, Any]:
    """What a server's log said through the faults: its tracebacks, its ERROR lines, and its
    lines about the dependencies (one when one is lost and one when it is back, for the
    process: game/supervise.py)."""
    lines = server.log_path.read_text(errors="replace").splitlines()
    return {
        "tracebacks": sum(line.startswith("Traceback") for line in lines),
        "errors": sum(" ERROR " in line for line in lines),
        "outages": [line.split("WARNING", 1)[1].strip()[:40] for line in lines
                    if " WARNING " in line and (" lost (" in line or " back after " in line)],
    }  # fmt: skip
