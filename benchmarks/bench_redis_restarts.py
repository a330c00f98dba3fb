"""Memory across Redis restarts: `make bench-redis-restarts` (issue 37, "Memory that comes back").

One daphne on SQLite and a Redis of the benchmark's own (tests.live.harness.OwnRedis); four
matches, each with its two players and two spectators, and two lobby pages, all reconnecting
as the pages do (harness.Page, LobbyPage). Redis is killed and started again `--restarts` times
(down `--down` seconds each); after each, once every page is welcomed again and `--settle`
seconds have passed, it prints the server's resident set (VmRSS) and, with `--census`, what
grew since the first restart among the server's live objects by type and its asyncio tasks
(benchmarks/census/: a census taken on SIGUSR1).

The last line is one JSON object: {"rss_mb": [after each restart], "growth": RSS after the
last / after the first - 1}. The club's target: within 5 % after ten restarts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live.harness import (  # noqa: E402
    Daphne,
    LiveClient,
    LobbyPage,
    OwnRedis,
    Page,
    run_json,
)

CENSUS = Path(__file__).resolve().parent / "census"
EXCEPTION = re.compile(r"^[a-z_.]*[A-Z]\w*(Error|Exception|Closed)\b.*$", re.MULTILINE)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def census(server: Daphne, out: Path) -> dict[str, Any]:
    path = Path(f"{out}.{server.proc.pid}")
    before = len(path.read_text().splitlines()) if path.exists() else 0
    server.proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        lines = path.read_text().splitlines() if path.exists() else []
        if len(lines) > before:
            last: dict[str, Any] = json.loads(lines[-1])
            return last
        time.sleep(0.1)
    raise RuntimeError("no census")


def grew(first: dict[str, int], last: dict[str, int], top: int = 12) -> list[tuple[str, int]]:
    diffs = [(k, last.get(k, 0) - first.get(k, 0)) for k in set(first) | set(last)]
    return sorted((d for d in diffs if d[1] > 0), key=lambda d: -d[1])[:top]


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    redis = OwnRedis(tmp)
    redis.start()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    out = tmp / "census"
    env |= {
        "DJANGO_SETTINGS_MODULE": "snooker_site.settings", "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(64), "SECURE_SSL_REDIRECT": "false",
        "PYTHONUNBUFFERED": "1", "DATABASE_URL": f"sqlite:///{tmp}/club.sqlite3",
        "REDIS_URL": redis.url, "CHANNEL_LAYER_PREFIX": "restarts",
        "PYTHONPATH": f"{ROOT}:{CENSUS}", "BENCH_CENSUS": str(out),
        "SNOOKER_HEARTBEAT": "2",
    }  # fmt: skip
    setup = run_json(env, "-m", "tests.live.ctl", "matches", str(args.matches))
    server = Daphne("daphne", env, tmp)
    pages: list[Page | LobbyPage] = []
    try:
        server.wait_healthy()
        name = setup["cookie_name"]
        for row in setup["matches"]:
            match = row["match"]
            for seat in ("A", "B"):
                cookie = f"{name}={row[seat]}"
                pages.append(Page(LiveClient(f"{seat}{match}", match, cookie), server))
            pages += [Page(LiveClient(f"S{match}-{i}", match), server) for i in range(2)]
        pages += [LobbyPage(f"lobby-{i}", server) for i in range(2)]
        for page in pages:
            page.start()
        await until_up(pages)
        stop = asyncio.Event()
        plays: list[asyncio.Task[None]] = []
        if args.play:  # strokes flowing on every table, as the fault test plays them
            from tests.live.test_faults import Table, _play

            match_pages = [p for p in pages if isinstance(p, Page)]
            for k in range(0, len(match_pages), 4):
                a, b, *watchers = match_pages[k : k + 4]
                table = Table(a.client.match_id, {"A": a, "B": b}, watchers)
                plays.append(asyncio.create_task(_play(table, stop)))
        await asyncio.sleep(args.settle)
        print(f"{len(pages)} sockets on one daphne; before any restart: "
              f"{rss_mb(server.proc.pid)} MB", flush=True)  # fmt: skip
        rss: list[float] = []
        censuses: list[dict[str, Any]] = []
        for n in range(1, args.restarts + 1):
            redis.kill()
            await asyncio.sleep(args.down)
            redis.start()
            await until_up(pages)
            await asyncio.sleep(args.settle)
            rss.append(rss_mb(server.proc.pid))
            line = f"after restart {n}: {rss[-1]} MB"
            if args.census:
                censuses.append(await asyncio.to_thread(census, server, out))
                if len(censuses) > 1:
                    types = grew(censuses[0]["types"], censuses[-1]["types"], 6)
                    line += f"; objects grown since the first: {types}"
            print(line, flush=True)
        if args.census and len(censuses) > 1:
            print("tasks after the first restart:", censuses[0]["tasks"])
            print("tasks after the last:", censuses[-1]["tasks"])
            print("objects grown:", grew(censuses[0]["types"], censuses[-1]["types"], 25))
        stop.set()
        await asyncio.gather(*plays, return_exceptions=True)
        log = server.log_path.read_text(errors="replace")
        # What the tracebacks were (their last lines), most frequent first.
        kinds = Counter(m.group(0)[:120] for m in EXCEPTION.finditer(log))
        print("tracebacks' exceptions:", kinds.most_common(5))
        return {"rss_mb": rss, "growth": round(rss[-1] / rss[0] - 1, 4),
                "tracebacks": log.count("Traceback")}  # fmt: skip
    finally:
        await asyncio.gather(*(p.stop() for p in pages), return_exceptions=True)
        server.kill()
        redis.kill()


async def until_up(pages: list[Page | LobbyPage], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not all(p.up.is_set() for p in pages):
        if time.monotonic() > deadline:
            down = [p.name if isinstance(p, LobbyPage) else p.client.name
                    for p in pages if not p.up.is_set()]  # fmt: skip
            raise RuntimeError(f"not welcomed again: {down}")
        await asyncio.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--down", type=float, default=2.0, help="seconds Redis is down")
    parser.add_argument("--settle", type=float, default=4.0, help="seconds after pages are back")
    parser.add_argument("--census", action="store_true", help="count the server's objects")
    parser.add_argument("--play", action="store_true", help="strokes flowing on every table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-restarts-") as tmp:
        result = asyncio.run(run(args, Path(tmp)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
