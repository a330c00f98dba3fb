"""What a crowd and an attack cost a match: `make bench-strangers`.

One daphne (SQLite, in-memory layer), one match: two players playing a request every
`--interval` seconds (0.5) for `--duration` seconds (60) and `--spectators` honest spectators
(1,000), each from its own loopback address. Run twice: quietly, then with `--hostile`
sockets (200) from 10 addresses flooding `hello`, `ping` and `aim` (half at 9 a second, half
at 100), coming back a second after they are closed or refused; the players start 5 s into
the attack. The players' client runs in this process, the crowd in another (a client loop
busy with a thousand sockets would delay the players' reading of their acks), the attackers
in a third (a loop busy flooding would delay the crowd's reading of its events).
Reports, for each run, the players' ack p50/p99/max (send to ack) and when the acks over
100 ms came, the spectators' event p50/p99 (send to each spectator's copy), whether every
honest spectator received every event, and the server's CPU. The last line printed is one
JSON object.

With `--through-proxy`, every client speaks TLS to the shipped nginx site (deploy/nginx/,
with its per-address limits) in front of the daphne, which then counts each client's address
from X-Forwarded-For (benchmarks/proxy.py); nginx's CPU and its refusals (429) are reported
too. With `--probe`, the server also times its collector's pauses and its event loop's lag
(benchmarks/probe/sitecustomize.py), reported over each run's play.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import secrets
import ssl
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_live import EVENT_HEAD, Server, next_move  # noqa: E402
from busy import busy  # noqa: E402
from probe import ClientPauses, percentile, set_aside  # noqa: E402
from probe import environment as probe_environment  # noqa: E402
from probe import summary as probe_summary  # noqa: E402
from proxy import BEHIND_PROXY, Proxy  # noqa: E402

from tests.live.harness import run_json  # noqa: E402

HOSTILE_ADDRESSES = 10  # the attack comes from this many addresses (20 sockets each)


def django_setup() -> dict[str, Any]:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from game import service
    from tests.live.harness import logged_in_session

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    a = users.create_user("bench-a", password=None)
    b = users.create_user("bench-b", password=None)
    match = service.create_match(a, b, 35, draw="A")
    return {"cookie_name": settings.SESSION_COOKIE_NAME, "match": match.pk,
            "A": logged_in_session(a), "B": logged_in_session(b)}  # fmt: skip


def address(i: int) -> str:
    """The i-th client's own loopback address (127.1.0.1, 127.1.0.2, ...)."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


class Socket:
    """One honest client: counts the events it receives and when."""

    def __init__(
        self, url: str, source: str, cookie: str | None = None, tls: ssl.SSLContext | None = None
    ) -> None:
        self.url, self.source, self.cookie, self.tls = url, source, cookie, tls
        self.versions: list[int] = []
        self.arrivals: dict[int, float] = {}
        self.snapshot: dict[str, Any] | None = None
        self.acks: dict[str, float] = {}
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def open(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else None
        self.ws = await connect(
            self.url, additional_headers=headers, local_addr=(self.source, 0), proxy=None,
            compression=None, open_timeout=60, ping_interval=None, ssl=self.tls,
        )  # fmt: skip
        self.reader = asyncio.create_task(self._read())
        await self.ws.send('{"type":"hello","protocol":1}')
        await asyncio.wait_for(self.ready.wait(), 60)

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                now = time.monotonic()
                head = EVENT_HEAD.match(text)
                if head is not None:
                    version = int(head.group(1))
                    self.versions.append(version)
                    self.arrivals[version] = now
                    if self.cookie:
                        self.snapshot = json.loads(text)["snapshot"]
                elif text.startswith('{"type":"welcome"'):
                    welcome = json.loads(text)
                    if welcome["snapshot"]:
                        self.snapshot = welcome["snapshot"]
                    self.ready.set()
                elif text.startswith('{"type":"ack"'):
                    self.acks[json.loads(text)["client_id"]] = now


async def hostile(
    url: str,
    source: str,
    rate: float,
    stop: float,
    counts: dict[str, int],
    tls: ssl.SSLContext | None,
) -> None:
    """A stranger flooding hello, ping and aim at `rate` a second, back as soon as closed."""
    messages = ['{"type":"hello","protocol":1}', '{"type":"ping","version":0}',
                '{"type":"aim","angle":1.0,"speed":3.0,"cue_ball":[0,-1150]}',
                '{"type":"hello","protocol":1,"last_version":0}']  # fmt: skip
    while time.monotonic() < stop:
        try:
            async with connect(url, local_addr=(source, 0), proxy=None, compression=None,
                               open_timeout=10, ping_interval=None, ssl=tls) as ws:  # fmt: skip
                counts["connected"] += 1

                async def drain() -> None:
                    with contextlib.suppress(Exception):
                        async for _ in ws:
                            counts["answers"] += 1

                reader = asyncio.create_task(drain())
                while time.monotonic() < stop:
                    await ws.send(random.choice(messages))
                    counts["sent"] += 1
                    await asyncio.sleep(1 / rate)
                reader.cancel()
        except Exception:
            counts["refused_or_closed"] += 1
            # Back a second later: a faster storm of handshakes is a connection-rate attack,
            # which the proxy in front limits per address (docs/security.md).
            await asyncio.sleep(1.0)


async def attackers(url: str, args: argparse.Namespace, stop: float, conn: Connection) -> None:
    """The hostile sockets until `stop` (the machine's monotonic clock), then their counts."""
    tls = _tls(args)
    counts = {"connected": 0, "sent": 0, "answers": 0, "refused_or_closed": 0}
    tasks = []
    for i in range(args.hostile):
        rate = 9.0 if i % 2 else 100.0  # just inside the limit, or far over it
        source = f"127.2.0.{i % HOSTILE_ADDRESSES + 1}"
        tasks.append(asyncio.create_task(hostile(url, source, rate, stop, counts, tls)))
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    for task in tasks:
        task.cancel()
    conn.send(counts)


def attack_process(url: str, args: argparse.Namespace, stop: float, conn: Connection) -> None:
    # The attackers' machines are not the server's: here they share its two cores, and at
    # the same priority their client's own loop (a core's worth of handshakes a second) took
    # CPU from the server and the honest clients, which is no cost the server's protection
    # can lower. At a lower priority they still use every idle moment, and the same flood
    # reaches the server (its counts are reported).
    os.nice(10)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(attackers(url, args, stop, conn))


async def crowd(url: str, args: argparse.Namespace, attack: bool, conn: Connection) -> None:
    """The honest spectators, in a process of their own (a client loop busy with a thousand
    sockets would otherwise delay the players' own reading of their acks, and the figure is
    the server's), and the attackers in a third (a loop busy flooding would delay the
    spectators' reading of their events)."""
    tls = _tls(args)
    watchers = [Socket(url, address(i), tls=tls) for i in range(args.spectators)]
    gate = asyncio.Semaphore(20)

    async def open_one(s: Socket) -> None:
        async with gate:
            await s.open()

    await asyncio.gather(*(open_one(s) for s in watchers))
    set_aside()  # the crowd's sockets, out of its collector's way
    loop = asyncio.get_running_loop()
    attacker = None
    if attack:
        # Until the players' last request has reached everyone (as long as they play, 2 s).
        stop = time.monotonic() + 5 + args.duration + 2
        ours, theirs = multiprocessing.Pipe()
        attacker = multiprocessing.get_context("spawn").Process(
            target=attack_process, args=(url, args, stop, theirs)
        )
        attacker.start()
        await asyncio.sleep(5)  # the flood is under way: its sockets are in and sending
    pauses = ClientPauses()
    conn.send("go")
    sent: dict[int, float] = await loop.run_in_executor(None, conn.recv)
    pauses.stop()
    await asyncio.sleep(2)  # the last event reaches everyone
    counts = None
    if attacker is not None:
        counts = await loop.run_in_executor(None, ours.recv)
        attacker.join(30)
    events = [
        (w.arrivals[v] - t) * 1000 for w in watchers for v, t in sent.items() if v in w.arrivals
    ]
    missing = sum(1 for w in watchers for v in sent if v not in w.arrivals)
    for w in watchers:
        with contextlib.suppress(Exception):
            await w.ws.close()
    events.sort()
    conn.send({
        "event_p50_ms": percentile(events, 50), "event_p99_ms": percentile(events, 99),
        "honest_spectators": len(watchers), "events_missed": missing,
        "every_spectator_got_every_event": missing == 0, "crowd_gc": pauses.summary(),
        **({"hostile": counts} if counts is not None else {}),
    })  # fmt: skip


def crowd_process(url: str, args: argparse.Namespace, attack: bool, conn: Connection) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(crowd(url, args, attack, conn))


def _tls(args: argparse.Namespace) -> ssl.SSLContext | None:
    """The clients' TLS, trusting the proxy's test certificate (made in each process)."""
    return ssl.create_default_context(cafile=args.cert) if args.cert else None


async def run(setup: dict[str, Any], url: str, args: argparse.Namespace, attack: bool):  # type: ignore[no-untyped-def]
    name = setup["cookie_name"]
    tls = _tls(args)
    players = {s: Socket(url, "127.0.0.1", f"{name}={setup[s]}", tls) for s in ("A", "B")}
    for p in players.values():
        await p.open()
    # Monotonic clocks are the machine's: the crowd's arrival times compare with ours.
    ours, theirs = multiprocessing.Pipe()
    helper = multiprocessing.get_context("spawn").Process(
        target=crowd_process, args=(url, args, attack, theirs)
    )
    helper.start()
    loop = asyncio.get_running_loop()
    assert await loop.run_in_executor(None, ours.recv) == "go"
    stop = time.monotonic() + args.duration
    sent: dict[int, float] = {}  # version -> when its request was sent
    acks: list[float] = []
    slow: list[tuple[float, float]] = []  # (seconds into the run, ms) of acks over 100 ms
    rng = random.Random(1)
    n = 0
    start = time.monotonic()
    while time.monotonic() < stop:
        newest = max(players.values(), key=lambda p: len(p.versions))
        snap = newest.snapshot
        assert snap is not None
        actor = players[snap["scoreboard"]["to_act"]]
        n += 1
        client_id = f"{'x' if attack else 'q'}{n}"
        message = next_move(snap, client_id, rng)
        sent[snap["version"] + 1] = t0 = time.monotonic()
        await actor.ws.send(json.dumps(message))
        while client_id not in actor.acks and time.monotonic() < t0 + 10:
            await asyncio.sleep(0.002)
        if client_id in actor.acks:
            acks.append(actor.acks[client_id] - t0)
            if acks[-1] > 0.1:
                slow.append((round(t0 - start, 1), round(acks[-1] * 1000)))
        while snap["version"] + 1 not in actor.arrivals and time.monotonic() < t0 + 10:
            await asyncio.sleep(0.002)
        await asyncio.sleep(args.interval)
    window = (start, time.monotonic())
    ours.send(sent)
    spectators = await loop.run_in_executor(None, ours.recv)
    helper.join(30)
    for p in players.values():
        with contextlib.suppress(Exception):
            await p.ws.close()
    ack_ms = sorted(a * 1000 for a in acks)
    return {
        "requests": len(sent),
        "ack_p50_ms": percentile(ack_ms, 50), "ack_p99_ms": percentile(ack_ms, 99),
        "ack_max_ms": round(ack_ms[-1], 1) if ack_ms else None,
        "acks_over_100_ms": slow, **spectators, "window": window,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--hostile", type=int, default=200)
    # Two requests a second for a minute: over a hundred acks, so that p99 is not one ack.
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between requests")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play per run")
    parser.add_argument("--runs", default="quiet,under_attack", help="which runs, in order")
    parser.add_argument(
        "--through-proxy", action="store_true", help="the shipped nginx in front (TLS)"
    )
    parser.add_argument("--probe", action="store_true", help="time the server's GC and loop lag")
    parser.add_argument(
        "--busy", type=int, default=0, help="processes spinning meanwhile (a slow day)"
    )
    parser.add_argument("--django-setup", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.django_setup:
        print(json.dumps(django_setup()))
        return
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results = {}
    # Room in the match for the honest crowd and the attackers alike: the flood is the test.
    room = args.spectators + args.hostile + 10
    with tempfile.TemporaryDirectory(prefix="bench-strangers-") as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env |= {"DJANGO_SETTINGS_MODULE": "snooker_site.settings", "DEBUG": "false",
                "SECRET_KEY": secrets.token_urlsafe(64), "SECURE_SSL_REDIRECT": "false",
                "PYTHONPATH": str(ROOT),
                "PYTHONUNBUFFERED": "1", "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
                "SNOOKER_MAX_SOCKETS_PER_MATCH": str(room)}  # fmt: skip
        if args.through_proxy:
            env |= BEHIND_PROXY
        probe = Path(tmp) / "probe.json"
        if args.probe:
            env |= probe_environment(ROOT, probe)
        setup = run_json(env, __file__, "--django-setup", timeout=600)
        server = Server("daphne", env, Path(tmp))
        proxy: Proxy | None = None
        args.cert = None
        url = f"ws://127.0.0.1:{server.port}/ws/match/{setup['match']}/"
        try:
            server.wait_healthy()
            if args.through_proxy:
                # Two connections a socket (client, daphne), the crowd and the attack at once.
                room = 2 * (args.spectators + args.hostile) + 256
                proxy = Proxy(Path(tmp) / "nginx", [server.port], worker_connections=room)
                args.cert = str(proxy.cert)
                url = proxy.url(f"/ws/match/{setup['match']}/")
            with busy(args.busy):  # a slow day, if asked for
                for label in args.runs.split(","):
                    attack = label == "under_attack"
                    crowd = f"2 players + {args.spectators} spectators"
                    print(f"{label}: {crowd}" + (f" + {args.hostile} hostile" if attack else ""))
                    cpu, began = server.cpu_seconds(), time.monotonic()
                    nginx_cpu = proxy.cpu_seconds() if proxy else 0.0
                    refused = proxy.refusals() if proxy else 0
                    results[label] = asyncio.run(run(setup, url, args, attack))
                    window = results[label].pop("window")
                    if args.probe:
                        time.sleep(1.5)  # the probe's next write
                        summary = probe_summary(probe, server.proc.pid, window)
                        results[label]["server_probe"] = summary
                    # The server's CPU over the whole run (the crowd's arrival included), as a
                    # share of one core.
                    took = time.monotonic() - began
                    share = (server.cpu_seconds() - cpu) / took
                    results[label]["server_cpu_percent"] = round(100 * share, 1)
                    if proxy is not None:
                        share = (proxy.cpu_seconds() - nginx_cpu) / took
                        results[label]["proxy_cpu_percent"] = round(100 * share, 1)
                        results[label]["proxy_refusals"] = proxy.refusals() - refused
                    print(f"  {results[label]}", flush=True)
            results["server_tracebacks"] = server.server_errors()  # type: ignore[assignment]
            results["peak_rss_mb"] = server.peak_rss_mb()  # type: ignore[assignment]
        finally:
            if proxy is not None:
                proxy.stop()
            server.stop()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
