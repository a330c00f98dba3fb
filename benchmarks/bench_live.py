"""Live-play benchmark: `make bench-live` (or `.venv/bin/python benchmarks/bench_live.py`).

Real websocket clients on loopback against real daphne processes: N matches, each with two
players and M spectators, one request (stroke or choice) per match every `--interval` seconds
for `--duration` seconds, in two set-ups:

- memory: one daphne, SQLite in a temporary directory, the in-memory channel layer;
- redis: two daphne processes sharing a fresh PostgreSQL database and Redis, every match's
  sockets spread over both.

It reports the latency from sending a request to the last spectator of that match receiving
its event, requests settled per second, error messages, lost events (version gaps at the end
against the database's final version), each daphne's peak RSS and CPU during play. The last
line printed is one JSON object: {"memory": {...}, "redis": {...}} (docs/performance.md, "Live
play").

With `--lobby N`, N anonymous lobby sockets (/ws/lobby/, spread over the servers) watch the
lobby while the matches are played: it reports how many coalesced updates each receives per
second and their size, and, over a sample of them, the latency from sending a request to a
lobby socket receiving a row of that match at that version or later ("Lobby").

With `--computer N`, N more matches are played against the computer (`--computer-level`, Pro
by default: the longest thinker) beside the humans' matches: a member in seat A plays as the
players do, the computer answers (docs/opponent.md). In the redis set-up it plays from a
process of its own, as deployed (`manage.py play_computer`, SNOOKER_COMPUTER_PROCESS; with
`--computer-in-servers`, from the servers, as one process must). Their requests and events are
counted apart ("computer"), so the figures above stay the humans' alone: run it with and
without them to see what the computer's tables cost the other tables.

With `--through-proxy`, the clients speak TLS to the shipped nginx site (deploy/nginx/, its
limits as shipped) in front of the daphne processes, each client from a loopback address of
its own as browsers on the internet would be (benchmarks/proxy.py); nginx's CPU is reported
beside the servers'. With `--probe`, each server times its collector's pauses, its event
loop's lag and where each player's request spent its time during play (benchmarks/probe/).

With `--analysing N`, N processes analyse frames for the coach meanwhile, as the computer's
pool does (its idle scheduling class: docs/coach.md, "Cost"); run it with and without, back to
back, to see what a running analysis costs the members' acks.

With `--chatters N`, N of the spectators are members who chat in their match's spectators'
room at the flood limit's edge (a line every 2.05 s, each its own words), the first
spectators of every match in turn: the players' acks with and without them, back to back,
say what the chat costs the strokes (issue 41; docs/chat.md, "Load"). With `--chat-apart`
the chatters' sockets are held by a process of their own (not the one timing the acks), and
with `--silent` they say nothing: `benchmarks/pairs.py` compares `--chatters N --chat-apart
--silent` with `--chatters N --chat-apart`, the same sockets with and without their lines.
With `--crowd-apart` (redis) every player's socket is on the first server and every
spectator's on the second (on the crowd's path, started with SNOOKER_CROWD as the deployment's
snooker@8003, so below the first's priority), as nginx places them (the balancer off).

With `--hog N`, one more member holds N player sockets spread over `--hog-tables` practice
tables of their own (as many as the club lets them open: refused ones are counted), and
during play half of them send stale strokes and half aim (`--hog-rate`, 15 a second each;
aims at `--hog-aim-rate`, 10), each socket within a player's rate: what one member's sockets
cost the other members' acks (issue 42; docs/performance.md, "One member's many sockets").
Run it with and without `--hog`, back to back; with `--hog-apart` the hog's sockets are
held by a process of their own (not the one timing the others' acks).

The clients all run in this one asyncio process; their JSON handling is kept minimal (only the
players parse events in full, for the snapshot) so that the clients are not the bottleneck.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import resource
import secrets
import ssl
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, only benchmarks/ is on the path: the project and its test harness are at
# the root.
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from busy import analysing, busy  # noqa: E402
from probe import ClientPauses, percentile, set_aside  # noqa: E402
from probe import environment as probe_environment  # noqa: E402
from probe import summary as probe_summary  # noqa: E402
from proxy import BEHIND_PROXY, Proxy  # noqa: E402

from tests.live.harness import (  # noqa: E402
    BALL_RADIUS,
    D_SPOTS,
    Daphne,
    Process,
    ScratchDatabase,
    balls_on,
    computer_player,
    drop_redis_keys,
    logged_in_session,
    postgres_url,
    redis_url,
    run_json,
)

SETUPS = ("memory", "redis")
BEST_OF = 35  # long enough that no match ends on its own within a run
# Daphne drops a handshake the application has not accepted within 5 s, and accepting needs
# the database: do not pile them up.
CONNECTS_AT_ONCE = 10
CONNECT_ATTEMPTS = 5
# Live events are serialised in key order, so their head is cheap to read without parsing.
EVENT_HEAD = re.compile(r'\{"type":"event","version":(\d+),')
LOBBY_SAMPLE = 25  # lobby sockets that parse every update to time it (the rest count them)
TYPE_HEAD = re.compile(r'\{"type":"(\w+)"')


# --- the Django side (run as a subprocess against the benchmark's database) ----------------------
def django_setup(
    matches: int, computers: int = 0, level: str = "pro", hog_tables: int = 0, chatters: int = 0
) -> dict[str, Any]:
    """Migrate, then create the players, their matches and logged-in sessions (and members'
    matches against the computer, and the hog's practice tables, started)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from computer.service import play_computer
    from game import service

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    rows = []
    # Who breaks is drawn, as in a club, not always A: the proxy's least_conn hands a match's
    # twelve sockets out in turn, so every match's A sits on the same process, which would
    # then take all the opening breaks (the costliest strokes) while the other took none.
    draws = random.Random(0)
    for i in range(matches):
        # No password: hashing 2N of them would dominate the set-up time.
        a = users.create_user(f"bench-a{i}", password=None)
        b = users.create_user(f"bench-b{i}", password=None)
        match = service.create_match(a, b, BEST_OF, draw=draws.choice(("A", "B")))
        rows.append({"match": match.pk, "A": logged_in_session(a), "B": logged_in_session(b)})
    against = []
    for i in range(computers):
        member = users.create_user(f"bench-c{i}", password=None)
        match = play_computer(member, level, BEST_OF)
        against.append({"match": match.pk, "A": logged_in_session(member)})
    hog: dict[str, Any] = {"matches": []}
    if hog_tables:
        from game import clock
        from game.models import Match

        member = users.create_user("bench-hog", password=None)
        hog["A"] = logged_in_session(member)
        for _ in range(hog_tables):
            table = service.create_match(member, member, BEST_OF, draw="A", practice=True)
            now = clock.now()
            Match.objects.filter(pk=table.pk).update(started=now, arrived_a=now, arrived_b=now)
            hog["matches"].append(table.pk)
    # Members who watch and chat (`--chatters`): each a session of their own, and a usable
    # password (one hash for all: an account without one is a guest, who says presets only).
    from django.contrib.auth.hashers import make_password

    for i in range(chatters):
        users.create_user(f"bench-s{i}", password=None)
    users.filter(username__startswith="bench-s").update(password=make_password(secrets.token_hex()))
    # (Sessions after the password: a session keeps a hash of the password it was made with.)
    talking = [logged_in_session(users.get(username=f"bench-s{i}")) for i in range(chatters)]
    return {
        "cookie_name": settings.SESSION_COOKIE_NAME, "matches": rows, "computer": against,
        "hog": hog, "chatters": talking,
    }  # fmt: skip


def django_final() -> dict[str, Any]:
    import django

    django.setup()
    from game.models import Match, MatchEvent

    return {
        "versions": {str(pk): v for pk, v in Match.objects.values_list("pk", "version")},
        "events": MatchEvent.objects.count(),
    }


def run_django(env: dict[str, str], *args: str) -> dict[str, Any]:
    return run_json(env, __file__, *args, timeout=600)


# --- servers ------------------------------------------------------------------------------------
class Target(NamedTuple):
    """Where a client connects: a daphne directly, or the proxy (TLS, from `source`)."""

    base: str  # ws://127.0.0.1:PORT or wss://localhost:PORT
    tls: ssl.SSLContext | None = None
    source: str | None = None  # the client's own loopback address (through the proxy)

    def connect(self, path: str, headers: dict[str, str] | None = None) -> Any:
        return connect(
            self.base + path, additional_headers=headers, proxy=None, compression=None,
            open_timeout=60, ping_interval=None, ssl=self.tls,
            local_addr=(self.source, 0) if self.source else None,
        )  # fmt: skip


def address(i: int) -> str:
    """The i-th client's own loopback address (127.1.0.1, 127.1.0.2, ...)."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


class Measured(Process):
    """A process, with what the benchmark reports of it."""

    def rss_mb(self) -> float:
        """The resident set now (VmRSS)."""
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
        return float("nan")

    def peak_rss_mb(self) -> float:
        # VmHWM: the resident set's high-water mark, kept by the kernel (no psutil needed).
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
        return float("nan")

    def cpu_seconds(self) -> float:
        """User and system CPU time the process has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def server_errors(self) -> int:
        """Tracebacks in the server's log (failures the clients may only see as `internal`);
        the first is printed, as the log goes with the temporary directory."""
        text = self.log_path.read_text(errors="replace")
        count = text.count("Traceback")
        if count:
            at = text.index("Traceback")
            print(f"  {self.name}: {count} tracebacks; the first:\n{text[at - 300 : at + 2500]}")
        return count


class Server(Measured, Daphne):
    """A daphne process."""


# --- playing ------------------------------------------------------------------------------------
def next_move(snapshot: dict[str, Any], client_id: str, rng: random.Random) -> dict[str, Any]:
    """A legal request for the player to act: "play" on a pending choice, else a stroke at
    the nearest ball on at 2–4 m/s (from a free spot in the D when in hand)."""
    frame, version = snapshot["frame"], snapshot["version"]
    if frame["pending"] is not None:
        options = frame["pending"]["options"]
        option = "play" if "play" in options else options[0]
        return {"type": "choose", "client_id": client_id, "version": version, "option": option}
    balls: dict[str, list[float]] = frame["balls"]
    cue: tuple[float, float] | None = None
    if frame["in_hand"]:
        cue = next(
            (s for s in D_SPOTS
             if all(math.dist(s, p) > 2 * BALL_RADIUS + 1 for n, p in balls.items()
                    if n != "white")),
            D_SPOTS[0],
        )  # fmt: skip
        start = cue
    else:
        start = (balls["white"][0], balls["white"][1])
    targets = balls_on(frame["on"], balls)
    tx, ty = balls[min(targets, key=lambda b: math.dist(start, balls[b]))]
    message: dict[str, Any] = {
        "type": "stroke", "client_id": client_id, "version": version,
        "angle": math.atan2(ty - start[1], tx - start[0]), "speed": rng.uniform(2.0, 4.0),
    }  # fmt: skip
    if cue is not None:
        message["cue_ball"] = list(cue)
    return message


# --- clients ------------------------------------------------------------------------------------
@dataclass
class Stats:
    errors: Counter[str] = field(default_factory=Counter)
    out_of_order: int = 0
    disconnects: int = 0
    connect_retries: int = 0
    latencies: list[float] = field(default_factory=list)
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency)
    # Send to ack: the service's share (queueing for the database thread, physics, commit).
    ack_latencies: list[float] = field(default_factory=list)
    ack_timeline: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency)
    settled: int = 0
    lines_said: int = 0  # chat lines sent by the chatting spectators (`--chatters`)
    lines_heard: int = 0  # chat lines received, by every socket
    by_10s: list[float | None] = field(default_factory=list)
    ack_by_10s: list[float | None] = field(default_factory=list)


@dataclass
class MatchPlay:
    """One match's bookkeeping: when each request was sent, and its spectators' arrivals."""

    match_id: int
    spectators: int
    sent_at: dict[int, float] = field(default_factory=dict)  # event version -> send time
    # The version the request in flight will create; None once it is answered (an event
    # reached a player, or an error came back).
    awaiting: int | None = None
    arrivals: dict[int, int] = field(default_factory=dict)  # event version -> spectators
    requests: int = 0
    skipped: int = 0  # ticks with the previous request still unanswered


class Client:
    def __init__(self, play: MatchPlay, stats: Stats, seat: str | None, cookie: str | None) -> None:
        self.play, self.stats, self.seat, self.cookie = play, stats, seat, cookie
        self.start_version = 0  # the version of the welcome snapshot
        self.version = 0
        self.seen = 0  # distinct events received after the welcome
        self.snapshot: dict[str, Any] | None = None
        self.welcomed = asyncio.Event()
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def open(self, target: Target) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else None
        self.welcomed.clear()
        self.ws = await target.connect(f"/ws/match/{self.play.match_id}/", headers)
        self.task = asyncio.create_task(self._read())
        await self.ws.send('{"type":"hello","protocol":1}')
        await asyncio.wait_for(self.welcomed.wait(), 60)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self._take(text)
        except ConnectionClosed:
            pass
        self.stats.disconnects += 1

    def _take(self, text: str) -> None:
        now = time.monotonic()
        head = EVENT_HEAD.match(text)
        if head is not None and self.seat is None:
            self._event(int(head.group(1)), now)  # a spectator needs nothing but the version
            return
        kind = TYPE_HEAD.match(text)
        if kind is not None and kind.group(1) == "line":
            self.stats.lines_heard += 1
            return
        if kind is None or kind.group(1) in ("event", "welcome", "error", "ack"):
            message = json.loads(text)
            kind_name = message["type"]
        else:
            return  # presence, aim, pong: nothing to count
        if kind_name == "event":
            self._event(message["version"], now)
            self.snapshot = message["snapshot"]
        elif kind_name == "welcome":
            snapshot = message["snapshot"]
            if snapshot is not None:
                if self.welcomed.is_set():  # a resync mid-run: count what it skipped as lost
                    self.stats.out_of_order += 1
                else:
                    self.start_version = snapshot["version"]
                self.version = snapshot["version"]
                self.snapshot = snapshot
            self.welcomed.set()
        elif kind_name == "error":
            self.stats.errors[message["code"]] += 1
            if self.seat is not None:  # a player's request refused (a spectator's line is
                self.play.awaiting = None  # no answer to the match's request)
        elif kind_name == "ack":
            sent = self.play.sent_at.get(message["version"])
            if sent is not None and not message["duplicate"]:
                self.stats.ack_latencies.append(now - sent)
                self.stats.ack_timeline.append((sent, now - sent))

    def _event(self, version: int, now: float) -> None:
        if version != self.version + 1:
            self.stats.out_of_order += 1
        if version <= self.version:
            return
        self.version = version
        self.seen += 1
        # Only a player's copy answers the request: a spectator may have the event before
        # either player, and a stroke sent then would be stale.
        awaiting = self.play.awaiting
        if self.seat is not None and awaiting is not None and version >= awaiting:
            self.play.awaiting = None
        if self.seat is None:
            play = self.play
            count = play.arrivals.get(version, 0) + 1
            play.arrivals[version] = count
            if count == play.spectators and version in play.sent_at:
                sent = play.sent_at[version]
                self.stats.latencies.append(now - sent)
                self.stats.timeline.append((sent, now - sent))
                self.stats.settled += 1

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.task is not None:
            self.task.cancel()


@dataclass
class LobbyStats:
    updates: int = 0  # update messages received, by every lobby socket
    bytes: int = 0
    latencies: list[float] = field(default_factory=list)  # request sent -> row seen
    disconnects: int = 0


class LobbySocket:
    """An anonymous visitor on the lobby page. A sampled one reads every update and times the
    rows against the requests that made them."""

    def __init__(self, stats: LobbyStats, plays: dict[int, MatchPlay], sample: bool) -> None:
        self.stats, self.plays, self.sample = stats, plays, sample
        self.seen: dict[int, int] = {}  # match id -> the newest version a row showed
        self.welcomed = asyncio.Event()
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def open(self, target: Target) -> None:
        self.ws = await target.connect("/ws/lobby/")
        self.task = asyncio.create_task(self._read())
        await self.ws.send('{"type":"hello","protocol":1}')
        await asyncio.wait_for(self.welcomed.wait(), 60)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self._take(text)
        except ConnectionClosed:
            pass
        self.stats.disconnects += 1

    def _take(self, text: str) -> None:
        now = time.monotonic()
        kind = TYPE_HEAD.match(text)
        name = kind.group(1) if kind else ""
        if name == "welcome":
            for row in json.loads(text)["matches"]:
                self.seen[row["id"]] = row["version"]
            self.welcomed.set()
            return
        if name != "update":
            return
        self.stats.updates += 1
        self.stats.bytes += len(text)
        if not self.sample:
            return
        for row in json.loads(text)["matches"]:
            play = self.plays.get(row["id"])
            before = self.seen.get(row["id"], 0)
            if play is None or row["version"] <= before:
                continue
            self.seen[row["id"]] = row["version"]
            for version in range(before + 1, row["version"] + 1):
                sent = play.sent_at.get(version)
                if sent is not None:
                    self.stats.latencies.append(now - sent)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.task is not None:
            self.task.cancel()


class HogSocket:
    """One of the hog's sockets at their own practice table: stale strokes or aims, at a
    player's rate, for the length of play; whatever comes back is read and dropped."""

    def __init__(self, match_id: int, cookie: str, index: int) -> None:
        self.match_id, self.cookie, self.index = match_id, cookie, index
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None
        self.sent = self.received = 0

    async def open(self, target: Target) -> bool:
        """Whether the club let it in (and welcomed it)."""
        try:
            self.ws = await target.connect(f"/ws/watch/{self.match_id}/", {"Cookie": self.cookie})
            await self.ws.send('{"type":"hello","protocol":1}')
            welcome = await asyncio.wait_for(self.ws.recv(), 60)
        except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed):
            return False
        if '"welcome"' not in welcome:
            return False
        self.task = asyncio.create_task(self._read())
        return True

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _ in self.ws:
                self.received += 1

    async def hog(self, rate: float, aim_rate: float, until: float) -> None:
        stale = self.index % 2 == 0
        period = 1 / (rate if stale else aim_rate)
        tick = time.monotonic() + period * random.Random(self.index).random()
        n = 0
        with contextlib.suppress(ConnectionClosed):
            while tick < until:
                await asyncio.sleep(max(0.0, tick - time.monotonic()))
                n += 1
                if stale:  # version 0: older than the welcome's (1) or any since
                    text = (f'{{"type":"stroke","client_id":"h{self.index}-{n}","version":0,'
                            f'"angle":0.0,"speed":3.0}}')  # fmt: skip
                else:
                    text = f'{{"type":"aim","angle":{n % 628 / 100},"speed":2.0}}'
                await self.ws.send(text)
                self.sent += 1
                tick += period

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.task is not None:
            self.task.cancel()


async def drive_match(
    play: MatchPlay, players: dict[str, Client], interval: float, until: float,
    rng: random.Random,
) -> None:  # fmt: skip
    """One request every `interval` seconds, from whichever player is to act."""
    # Spread the matches over the interval, each at a phase of its own that it keeps: a tick
    # is reckoned from when it was due, not from when this client's loop got round to it, or
    # one stall of the loop (its first second is busy) bunches the matches it held up into a
    # cohort that strikes together every interval for the rest of the run.
    tick = time.monotonic() + rng.uniform(0, interval)
    await asyncio.sleep(max(0.0, tick - time.monotonic()))
    n = 0
    while tick < until:
        newest = max(players.values(), key=lambda c: c.version)
        snapshot = newest.snapshot
        if snapshot is None or snapshot["winner"] is not None:
            return
        actor = players.get(snapshot["scoreboard"]["to_act"])
        if actor is None:  # the computer's turn: it plays from the server
            play.skipped += 1
            tick += interval
            await asyncio.sleep(max(0.0, min(tick, until) - time.monotonic()))
            continue
        # Act only once the last request is answered and on the latest state the actor has;
        # a slow server then shows as fewer requests settled, not as refused stale ones.
        if play.awaiting is None and actor.snapshot is not None and actor.version == newest.version:
            n += 1
            message = next_move(actor.snapshot, f"r{n}", rng)
            play.awaiting = actor.version + 1
            play.sent_at[play.awaiting] = time.monotonic()
            play.requests += 1
            await actor.send(message)
        else:
            play.skipped += 1
        tick += interval
        await asyncio.sleep(max(0.0, min(tick, until) - time.monotonic()))


def _p99_by_10s(timeline: list[tuple[float, float]], start: float) -> list[float | None]:
    """The p99 of (sent, latency) pairs in each 10 s of play, by send time, in ms."""
    buckets: dict[int, list[float]] = {}
    for sent, latency in timeline:
        buckets.setdefault(int((sent - start) // 10), []).append(latency * 1000)
    return [percentile(sorted(buckets.get(i, [])), 99) for i in range(max(buckets, default=-1) + 1)]


# --- one set-up ---------------------------------------------------------------------------------
@dataclass
class Run:
    stats: Stats
    plays: list[MatchPlay]
    clients: list[Client]
    lobbies: list[LobbySocket]
    lobby: LobbyStats
    connect_s: float
    elapsed: float
    cpu_s: list[float]  # each server's CPU seconds during play
    client_cpu_s: float  # this process's (every client's) CPU seconds during play
    window: tuple[float, float]  # play, on the machine's monotonic clock (for --probe)
    proxy_cpu_s: float | None  # nginx's (master and worker), through the proxy
    computer: Stats  # the members' requests in matches against the computer
    computer_clients: list[Client]
    client_gc: dict[str, Any]  # this process's collector pauses during play, by generation
    hogs: list[HogSocket]  # the hog's sockets the club let in (here: none when apart)
    hog_refused: int  # the hog's sockets the club refused
    hog_figures: tuple[int, int, int]  # the hog's sockets held, messages sent and received


async def run_clients(
    setup: dict[str, Any], servers: list[Server], args: argparse.Namespace, proxy: Proxy | None
) -> Run:
    direct = [Target(f"ws://127.0.0.1:{server.port}") for server in servers]
    sources = iter(range(10**6))

    def target(n: int) -> Target:
        """The n-th server in turn; through the proxy, its one address, from a new source."""
        if proxy is None:
            return direct[n % len(direct)]
        return Target(proxy.url(""), tls, address(next(sources)))

    tls = proxy.tls() if proxy is not None else None
    stats = Stats()
    rng = random.Random(1)
    plays: list[MatchPlay] = []
    seated: list[dict[str, Client]] = []
    everyone: list[tuple[Client, Target]] = []
    name = setup["cookie_name"]
    talking = setup.get("chatters", [])

    apart: list[tuple[int, str, Target]] = []  # `--chat-apart`: match, cookie, server

    def chatter(i: int, j: int) -> str | None:
        """The j-th spectator of match i: a chatting member while there are some, the first
        spectators of every match in turn (so a busy match has as many as there are)."""
        n = j * len(setup["matches"]) + i
        return f"{name}={talking[n]}" if n < len(talking) else None

    for i, row in enumerate(setup["matches"]):
        play = MatchPlay(row["match"], args.spectators)
        plays.append(play)
        players = {s: Client(play, stats, s, f"{name}={row[s]}") for s in ("A", "B")}
        seated.append(players)
        # Spread each match's sockets over the servers: the players on different ones (with
        # `--crowd-apart`, every player on the first and every spectator on the second).
        if args.crowd_apart:
            everyone += [(players["A"], target(0)), (players["B"], target(0))]
        else:
            everyone += [(players["A"], target(i)),
                         (players["B"], target(i + 1))]  # fmt: skip
        for j in range(args.spectators):
            cookie = chatter(i, j)
            where = target(1) if args.crowd_apart else target(i + j)
            if cookie is not None and args.chat_apart:  # held by the chatters' own process
                apart.append((row["match"], cookie, where))
                play.spectators -= 1
            else:
                everyone.append((Client(play, stats, None, cookie), where))
    # Matches against the computer: the member alone at the table, counted apart.
    computer = Stats()
    against: list[tuple[MatchPlay, dict[str, Client]]] = []
    for i, row in enumerate(setup.get("computer", [])):
        play = MatchPlay(row["match"], 0)
        member = Client(play, computer, "A", f"{name}={row['A']}")
        against.append((play, {"A": member}))
        everyone.append((member, target(i)))
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)

    async def open_one(client: Client, port: Target) -> None:
        # A handshake the server does not accept in time is retried, as a browser would.
        for attempt in range(CONNECT_ATTEMPTS):
            async with gate:
                try:
                    await client.open(port)
                    return
                except (OSError, TimeoutError, InvalidHandshake):
                    if attempt == CONNECT_ATTEMPTS - 1:
                        raise
                    stats.connect_retries += 1
                    await client.close()
            await asyncio.sleep(1.0 + rng.random())

    lobby = LobbyStats()
    by_id = {p.match_id: p for p in plays}
    lobbies = [LobbySocket(lobby, by_id, i < LOBBY_SAMPLE) for i in range(args.lobby)]

    async def open_lobby(socket: LobbySocket, port: Target) -> None:
        async with gate:
            await socket.open(port)

    began = time.monotonic()
    chatters = Apart(_chatters_main, apart, args.silent) if apart else None
    await asyncio.gather(*(open_one(c, p) for c, p in everyone))
    await asyncio.gather(*(open_lobby(s, target(i)) for i, s in enumerate(lobbies)))
    if chatters is not None:
        assert await asyncio.to_thread(chatters.opened) == "open"
    connect_s = time.monotonic() - began
    print(f"  {len(everyone)} + {len(lobbies)} lobby sockets open in {connect_s:.1f} s",
          flush=True)  # fmt: skip
    hog = setup.get("hog", {"matches": []})
    hogs: list[HogSocket] = []
    held = hog_refused = 0
    hog_apart: Apart | None = None
    if args.hog and hog["matches"]:
        tables = hog["matches"]
        wanted = [
            (tables[i % len(tables)], f"{name}={hog['A']}", i, target(i)) for i in range(args.hog)
        ]
        if args.hog_apart:
            hog_apart = Apart(_hog_main, wanted, args.hog_rate, args.hog_aim_rate)
            held, hog_refused = await asyncio.to_thread(hog_apart.opened)
        else:
            hogs = await _open_hog(wanted)
            held, hog_refused = len(hogs), len(wanted) - len(hogs)
        where = ", apart" if hog_apart is not None else ""
        print(f"  the hog holds {held} sockets ({hog_refused} refused){where}", flush=True)
    await asyncio.sleep(2)  # let the arrivals' presence and lobby updates pass
    set_aside()  # this client's sockets, out of its collector's way
    lobby.updates = lobby.bytes = 0
    lobby.latencies.clear()

    pauses = ClientPauses()
    cpu_before = [server.cpu_seconds() for server in servers]
    proxy_before = proxy.cpu_seconds() if proxy is not None else 0.0
    client_before = _own_cpu()
    start = time.monotonic()
    until = start + args.duration
    for held_apart in (chatters, hog_apart):
        if held_apart is not None:
            held_apart.go(until)
    talking_here = [] if args.silent else [c for c, _ in everyone if c.cookie and c.seat is None]
    await asyncio.gather(
        *(drive_match(p, s, args.interval, until, rng) for p, s in zip(plays, seated, strict=True)),
        *(drive_match(p, s, args.interval, until, rng) for p, s in against),
        *(h.hog(args.hog_rate, args.hog_aim_rate, until) for h in hogs),
        *(chat(c, k, until, stats) for k, c in enumerate(talking_here)),
    )
    # Let the last requests settle before judging what was lost.
    drain_until = time.monotonic() + args.drain
    while time.monotonic() < drain_until:
        if all(p.arrivals.get(max(p.sent_at, default=0), 0) == p.spectators for p in plays):
            break
        await asyncio.sleep(0.2)
    elapsed = time.monotonic() - start
    pauses.stop()
    if chatters is not None:
        said, heard, refused = await asyncio.to_thread(chatters.stop)
        stats.lines_said += said
        stats.lines_heard += heard
        stats.errors.update(Counter(refused))
    if hog_apart is not None:
        hog_sent, hog_received = await asyncio.to_thread(hog_apart.stop)
    else:
        hog_sent, hog_received = sum(h.sent for h in hogs), sum(h.received for h in hogs)
    cpu_s = [server.cpu_seconds() - b for server, b in zip(servers, cpu_before, strict=True)]
    proxy_cpu_s = proxy.cpu_seconds() - proxy_before if proxy is not None else None
    client_cpu_s = _own_cpu() - client_before
    mine = {id(s["A"]) for _, s in against}
    clients = [c for c, _ in everyone if id(c) not in mine]
    computer_clients = [s["A"] for _, s in against]
    # p99 latency per 10 s of play (by send time): shows whether the tail is a stall.
    stats.by_10s = _p99_by_10s(stats.timeline, start)
    stats.ack_by_10s = _p99_by_10s(stats.ack_timeline, start)
    return Run(
        stats, plays, clients, lobbies, lobby, connect_s, elapsed, cpu_s, client_cpu_s,
        (start, start + elapsed), proxy_cpu_s, computer, computer_clients, pauses.summary(),
        hogs, hog_refused, (held, hog_sent, hog_received),
    )  # fmt: skip


SAYINGS = (
    "what a pot",
    "safety battle again",
    "he needs snookers now",
    "lovely screw back",
    "that red was never going in",
    "great positional play",
    "the pink is tricky from there",
)
# A chatting spectator says a line every this many seconds: the flood rule's edge (five lines
# in ten seconds, rules/chat.py), each line its own words (no near-copies).
CHAT_EVERY = 2.05


async def chat(client: Client, k: int, until: float, stats: Stats) -> None:
    """A member watching says a line in the spectators' room at the flood limit's edge."""
    await asyncio.sleep((k % 20) * CHAT_EVERY / 20)  # spread over the period
    n = 0
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            text = f"{SAYINGS[(n + k) % len(SAYINGS)]} ({n})"  # never a near-copy of the last two
            await client.send({"type": "say", "room": "spectators", "text": text})
            stats.lines_said += 1
        n += 1
        await asyncio.sleep(CHAT_EVERY)


class Apart:
    """Sockets held by a process of their own (`--chat-apart`, `--hog-apart`), so that their
    messages (200 chatters send 100 lines a second and hear their rooms' lines; a hog sends
    hundreds a second) do not share the event loop that times the players' acks: what is
    measured is the servers' cost of them, not this process's. `main(pipe, *args)` opens its
    sockets and says what it holds, waits for the end of play, plays until then, waits for
    the end of the drain, closes them and says what they did."""

    def __init__(self, main: Any, *args: Any) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_below, args=(main, theirs, *args))
        self.process.start()

    def opened(self) -> Any:
        return self.pipe.recv()

    def go(self, until: float) -> None:
        self.pipe.send(until)  # (time.monotonic is the machine's, the same in both)

    def stop(self) -> Any:
        self.pipe.send(None)
        done = self.pipe.recv()
        self.process.join(30)
        return done


# The held-apart clients run below the servers' priority: their CPU stands for the members'
# own browsers, elsewhere in a club, and on this machine must not take a core from the servers
# whose cost is measured (they still get every idle moment: their lines are counted, `said`).
APART_NICENESS = 10


def _below(main: Any, *args: Any) -> None:
    os.nice(APART_NICENESS)
    main(*args)


def _chatters_main(pipe: Any, sockets: list[tuple[int, str, Target]], silent: bool) -> None:
    asyncio.run(_chatters(pipe, sockets, silent))


async def _chatters(pipe: Any, sockets: list[tuple[int, str, Target]], silent: bool) -> None:
    """The chatting spectators (`Apart`); `silent`: they hold their places and say nothing,
    so that both arms of a pair have the same sockets. Says lines said, heard and refused."""
    stats = Stats()
    clients = [(Client(MatchPlay(m, 0), stats, None, cookie), t) for m, cookie, t in sockets]
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)

    async def open_one(client: Client, target: Target) -> None:
        async with gate:
            await client.open(target)

    await asyncio.gather(*(open_one(c, t) for c, t in clients))
    pipe.send("open")
    until = await asyncio.to_thread(pipe.recv)
    if not silent:
        await asyncio.gather(*(chat(c, k, until, stats) for k, (c, _) in enumerate(clients)))
    await asyncio.to_thread(pipe.recv)  # the drain is over
    await asyncio.gather(*(c.close() for c, _ in clients))
    pipe.send((stats.lines_said, stats.lines_heard, dict(stats.errors)))


async def _open_hog(sockets: list[tuple[int, str, int, Target]]) -> list[HogSocket]:
    """The hog's sockets the club lets in, opened one at a time (the gate counts in order)."""
    held: list[HogSocket] = []
    for match_id, cookie, index, target in sockets:
        socket = HogSocket(match_id, cookie, index)
        if await socket.open(target):
            held.append(socket)
        else:
            await socket.close()
    return held


def _hog_main(
    pipe: Any, sockets: list[tuple[int, str, int, Target]], rate: float, aim_rate: float
) -> None:
    asyncio.run(_hog(pipe, sockets, rate, aim_rate))


async def _hog(
    pipe: Any, sockets: list[tuple[int, str, int, Target]], rate: float, aim_rate: float
) -> None:
    """The hog's sockets (`Apart`): held, then sockets refused; sent, then received."""
    held = await _open_hog(sockets)
    pipe.send((len(held), len(sockets) - len(held)))
    until = await asyncio.to_thread(pipe.recv)
    await asyncio.gather(*(h.hog(rate, aim_rate, until) for h in held))
    await asyncio.to_thread(pipe.recv)
    await asyncio.gather(*(h.close() for h in held))
    pipe.send((sum(h.sent for h in held), sum(h.received for h in held)))


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_setup(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    print(f"{kind}: {args.matches} matches x (2 players + {args.spectators} spectators)"
          f" + {args.lobby} lobby sockets", flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix=f"bench-live-{kind}-") as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env |= {"DJANGO_SETTINGS_MODULE": "snooker_site.settings", "DEBUG": "false",
                "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
                # DEBUG off needs a key of its own; the servers speak plain HTTP on loopback.
                "SECRET_KEY": secrets.token_urlsafe(64),
                "SECURE_SSL_REDIRECT": "false",
                # Every client here shares 127.0.0.1: lift the per-address and per-match caps
                # (bench_strangers.py measures those).
                "SNOOKER_MAX_SOCKETS_PER_ADDRESS": "100000", "SNOOKER_HANDSHAKE_BURST": "100000",
                "SNOOKER_MAX_SOCKETS_PER_MATCH": "100000",
                "SNOOKER_CHAT_ADDRESS_RATE": "100000/10s"}  # fmt: skip
        if args.crowd_apart:  # the sockets stay where they were put, not spread again
            env["SNOOKER_BALANCE_EVERY"] = "0"
        database: ScratchDatabase | None = None
        prefix = f"bench-{uuid.uuid4().hex[:12]}"
        redis = redis_url()
        if kind == "memory":
            env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
            servers_wanted = 1
        else:
            database = ScratchDatabase(postgres_url(), "snooker_bench")
            database.create()
            env |= {"DATABASE_URL": database.url, "REDIS_URL": redis,
                    "CHANNEL_LAYER_PREFIX": prefix}  # fmt: skip
            servers_wanted = 2
        apart = kind == "redis" and args.computer > 0 and not args.computer_in_servers
        if apart:
            env["SNOOKER_COMPUTER_PROCESS"] = "true"
        if args.through_proxy:
            env |= BEHIND_PROXY
        probe = Path(tmp) / "probe"
        if args.probe:
            env |= probe_environment(ROOT, probe)
        servers: list[Server] = []
        player: Measured | None = None  # the computer's own process
        started: list[Measured] = []  # every process, to stop and to read for tracebacks
        proxy: Proxy | None = None
        try:
            began = time.monotonic()
            setup = run_django(
                env, "--django-setup", str(args.matches), "--computer", str(args.computer),
                "--computer-level", args.computer_level,
                "--hog-tables", str(args.hog_tables if args.hog else 0),
                "--chatters", str(args.chatters),
            )  # fmt: skip
            print(f"  database ready in {time.monotonic() - began:.1f} s", flush=True)
            # With `--crowd-apart` the second is the crowd's process, as deployed (SNOOKER_CROWD).
            crowd = {"SNOOKER_CROWD": "true"} if args.crowd_apart else {}
            servers = [
                Server(f"daphne-{i + 1}", env | crowd if i == 1 else env, Path(tmp))
                for i in range(servers_wanted)
            ]
            started += servers
            for server in servers:
                server.wait_healthy()
            if apart:
                player = computer_player(env, Path(tmp), Measured)
                started.append(player)
            idle_rss = [s.rss_mb() for s in servers]
            if args.through_proxy:
                sockets = (2 + args.spectators) * args.matches + args.lobby + args.computer
                # Two connections a socket (the client's, daphne's), and room to spare.
                proxy = Proxy(Path(tmp) / "nginx", [s.port for s in servers], 2 * sockets + 256)
            player_before = player.cpu_seconds() if player is not None else 0.0
            run = asyncio.run(run_clients(setup, servers, args, proxy))
            # Its CPU from the clients' first connection to the end of play.
            player_cpu_s = player.cpu_seconds() - player_before if player is not None else None
            stats, plays, clients, elapsed = run.stats, run.plays, run.clients, run.elapsed
            final = run_django(env, "--django-final")["versions"]
            lost = sum(
                max(0, final[str(c.play.match_id)] - c.start_version - c.seen) for c in clients
            )
            rss = [s.peak_rss_mb() for s in servers]
            if args.probe:
                time.sleep(1.5)  # the probes' next write
                probes = [probe_summary(probe, s.proc.pid, run.window) for s in servers]
            server_errors = sum(s.server_errors() for s in started)
            dropped = stats.disconnects  # sockets the servers closed during the run
            # What the matches against the computer did: the members' requests, and the
            # events (theirs and the computer's) the matches moved on by.
            computer_events = sum(
                final[str(c.play.match_id)] - c.start_version for c in run.computer_clients
            )
            asyncio.run(_close_all([*clients, *run.lobbies, *run.computer_clients, *run.hogs]))
        finally:
            if proxy is not None:
                proxy.stop()
            for process in started:
                process.stop()
            if database is not None:
                database.drop()
                drop_redis_keys(redis, prefix)
    ms = sorted(x * 1000 for x in stats.latencies)
    ack_ms = sorted(x * 1000 for x in stats.ack_latencies)
    requests = sum(p.requests for p in plays)
    skipped = sum(p.skipped for p in plays)
    result = {
        "matches": args.matches,
        "spectators": args.spectators,
        "sockets": len(clients),
        "lobby_sockets": len(run.lobbies),
        "interval_s": args.interval,
        "duration_s": round(elapsed, 1),
        "connect_s": round(run.connect_s, 1),
        "requests": requests,
        "settled": stats.settled,
        "skipped_ticks": skipped,
        "p50_ms": percentile(ms, 50),
        "p99_ms": percentile(ms, 99),
        "max_ms": percentile(ms, 100),
        "ack_p50_ms": percentile(ack_ms, 50),
        "ack_p99_ms": percentile(ack_ms, 99),
        "ack_ms": [round(x, 2) for x in ack_ms],  # for benchmarks/pairs.py's pooling
        "strokes_per_s": round(stats.settled / elapsed, 2),
        "p99_ms_by_10s": stats.by_10s,
        "ack_p99_ms_by_10s": stats.ack_by_10s,
        "errors": sum(stats.errors.values()),
        "error_codes": dict(stats.errors),
        "chat_lines_said": stats.lines_said,
        "chat_lines_heard": stats.lines_heard,
        "lost": lost,
        "out_of_order": stats.out_of_order,
        "disconnects": dropped,
        "connect_retries": stats.connect_retries,
        "server_tracebacks": server_errors,
        "peak_rss_mb": rss,
        # Each process's peak over its size before the clients came, per socket it served
        # (the sockets spread evenly over the processes).
        "kb_per_socket": round(
            1024 * (sum(rss) - sum(idle_rss)) / max(1, len(clients) + len(run.lobbies)), 1
        ),
        # CPU of each daphne during play, as a share of one core.
        "cpu_percent": [round(100 * c / elapsed, 1) for c in run.cpu_s],
        "client_cpu_percent": round(100 * run.client_cpu_s / elapsed, 1),
        "client_gc": run.client_gc,
    }
    if args.probe:
        result["server_probe"] = probes
    if run.proxy_cpu_s is not None:
        result["through_proxy"] = True
        result["proxy_cpu_percent"] = round(100 * run.proxy_cpu_s / elapsed, 1)
    if run.lobbies:
        lobby_ms = sorted(x * 1000 for x in run.lobby.latencies)
        per_socket = run.lobby.updates / len(run.lobbies)
        result |= {
            "lobby_updates_per_socket_per_s": round(per_socket / elapsed, 2),
            "lobby_bytes_per_update": round(run.lobby.bytes / max(1, run.lobby.updates)),
            "lobby_p50_ms": percentile(lobby_ms, 50),
            "lobby_p99_ms": percentile(lobby_ms, 99),
            "lobby_max_ms": percentile(lobby_ms, 100),
            "lobby_samples": len(lobby_ms),
            "lobby_disconnects": run.lobby.disconnects,
        }
    if args.hog:
        result["hog"] = {
            "tried": args.hog, "held": run.hog_figures[0], "refused": run.hog_refused,
            "tables": args.hog_tables, "sent": run.hog_figures[1],
            "received": run.hog_figures[2],
        }  # fmt: skip
    if run.computer_clients:
        member_acks = sorted(x * 1000 for x in run.computer.ack_latencies)
        result["computer"] = {
            "matches": len(run.computer_clients),
            "level": args.computer_level,
            "member_requests": sum(c.play.requests for c in run.computer_clients),
            "events": computer_events,
            "member_ack_p99_ms": percentile(member_acks, 99),
            "errors": dict(run.computer.errors),
            "played_by": "its own process" if player_cpu_s is not None else "the servers",
        }
        if player_cpu_s is not None:
            result["computer"]["process_cpu_percent"] = round(
                100 * player_cpu_s / (elapsed + run.connect_s), 1
            )
    shown = {k: v for k, v in result.items() if k != "ack_ms"}  # (in the last line's JSON)
    print(f"  {shown}", flush=True)
    return result


async def _close_all(clients: list[Client | LobbySocket | HogSocket]) -> None:
    await asyncio.gather(*(c.close() for c in clients))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=10, help="per match")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between requests")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--drain", type=float, default=15.0, help="seconds to let play settle")
    parser.add_argument("--setups", default=",".join(SETUPS), help="memory,redis")
    parser.add_argument("--lobby", type=int, default=0, help="lobby sockets watching")
    parser.add_argument("--computer", type=int, default=0, help="matches against the computer")
    parser.add_argument("--computer-level", default="pro", choices=("novice", "club", "pro"))
    parser.add_argument(
        "--computer-in-servers", action="store_true",
        help="the servers play the computer's tables (redis: else its own process does)",
    )  # fmt: skip
    parser.add_argument(
        "--through-proxy", action="store_true", help="the shipped nginx in front (TLS)"
    )
    parser.add_argument("--hog", type=int, default=0, help="one member's sockets (issue 42)")
    parser.add_argument("--hog-tables", type=int, default=6, help="the hog's practice tables")
    parser.add_argument(
        "--hog-apart", action="store_true",
        help="the hog's sockets in a process of their own (not the one timing the acks)",
    )  # fmt: skip
    parser.add_argument("--hog-rate", type=float, default=15.0, help="stale strokes a second")
    parser.add_argument("--hog-aim-rate", type=float, default=10.0, help="aims a second")
    parser.add_argument("--probe", action="store_true", help="time the servers' GC and loop lag")
    parser.add_argument(
        "--busy", type=int, default=0, help="processes spinning meanwhile (a slow day)"
    )
    parser.add_argument(
        "--analysing", type=int, default=0,
        help="processes analysing frames meanwhile, at the pool's priority (docs/coach.md)",
    )  # fmt: skip
    parser.add_argument(
        "--chatters", type=int, default=0,
        help="spectators who are members and chat at the flood limit's edge (issue 41)",
    )  # fmt: skip
    parser.add_argument(
        "--chat-apart", action="store_true",
        help="the chatters' sockets in a process of their own (not the one timing the acks)",
    )  # fmt: skip
    parser.add_argument(
        "--crowd-apart",
        action="store_true",
        help="redis: every player on the first server, every spectator on the second",
    )
    parser.add_argument(
        "--silent", action="store_true", help="the chatters hold their sockets and say nothing"
    )
    parser.add_argument("--django-setup", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--django-final", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.django_setup is not None:
        print(json.dumps(django_setup(
            args.django_setup, args.computer, args.computer_level, args.hog_tables,
            args.chatters,
        )))  # fmt: skip
        return
    if args.django_final:
        print(json.dumps(django_final()))
        return
    # 1,200 client sockets here and as many in the servers (which inherit the limit).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    unknown = set(setups) - set(SETUPS)
    if unknown:
        parser.error(f"unknown set-up(s): {', '.join(sorted(unknown))}")
    with busy(args.busy), analysing(args.analysing):
        results = {kind: run_setup(kind, args) for kind in setups}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
