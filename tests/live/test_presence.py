"""Presence cannot lie: after a client or a server process is killed with SIGKILL, everyone
sees the player gone within two heartbeats (docs/security.md, "Presence that lies").

Two daphne processes on PostgreSQL and Redis with a one-second heartbeat. Bob's browser is a
separate process killed with SIGKILL (the kernel closes its socket); then Bob, back through
server 2, loses that whole server to SIGKILL (nothing closes his socket's row: the other
process's heartbeat must find it silent). Alice, on server 1, watches presence.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.live.harness import Daphne, LiveClient, run_ctl

HEARTBEAT = 1.0

BROWSER = """
import asyncio, json, sys
from websockets.asyncio.client import connect
async def main():
    url, cookie, origin = sys.argv[1:4]
    ws = await connect(url, additional_headers={"Cookie": cookie}, origin=origin, proxy=None)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "last_version": None}))
    await ws.recv()
    print("ready", flush=True)
    await asyncio.sleep(3600)
asyncio.run(main())
"""


async def _until_bob(alice: LiveClient, online: bool, since: float, timeout: float) -> float:
    """Seconds from `since` until Alice's latest presence shows Bob online (or not)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if alice.presences and alice.presences[-1][1]["players"]["B"]["online"] is online:
            return alice.presences[-1][0] - since
        await asyncio.sleep(0.02)
    raise AssertionError(f"Bob never turned {'online' if online else 'away'} for Alice")


async def test_presence_converges_within_two_heartbeats_after_sigkill(
    server_env: dict[str, str],
    tmp_path: Path,
) -> None:
    # A going is told after the away notice (a reload is not a leaving): here within a beat.
    env = {**server_env, "SNOOKER_HEARTBEAT": str(HEARTBEAT), "SNOOKER_AWAY_NOTICE": "1"}
    one, two = Daphne("daphne-1", env, tmp_path), Daphne("daphne-2", env, tmp_path)
    alice: LiveClient | None = None
    bob: LiveClient | None = None
    browser = None
    try:
        one.wait_healthy()
        two.wait_healthy()
        setup = run_ctl(env, "setup")
        match, name = setup["match"], setup["cookie_name"]
        alice = LiveClient("alice", match, f"{name}={setup['sessions']['alice']}")
        await alice.open(one, last_version=None)

        # Bob's browser, a process of its own on server 2, killed outright.
        browser = subprocess.Popen(
            [sys.executable, "-c", BROWSER, f"{two.url}/ws/match/{match}/",
             f"{name}={setup['sessions']['bob']}", f"http://127.0.0.1:{two.port}"],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert browser.stdout is not None and browser.stdout.readline().strip() == "ready"
        await _until_bob(alice, True, time.monotonic(), 10)
        killed = time.monotonic()
        os.kill(browser.pid, signal.SIGKILL)
        client_crash = await _until_bob(alice, False, killed, 4 * HEARTBEAT)

        # Bob again, through server 2; then server 2 dies with his socket open.
        bob = LiveClient("bob", match, f"{name}={setup['sessions']['bob']}")
        await bob.open(two, last_version=None)
        await _until_bob(alice, True, time.monotonic(), 10)
        killed = time.monotonic()
        two.kill()
        server_crash = await _until_bob(alice, False, killed, 4 * HEARTBEAT)
        print(f"converged: client killed {client_crash:.2f} s, server killed {server_crash:.2f} s")
        assert client_crash <= 2 * HEARTBEAT
        assert server_crash <= 2 * HEARTBEAT + 0.5  # two beats, and the coalescing delay
        # Alice's own presence never wavered, and she can now claim once the grace is over.
        assert all(p["players"]["A"]["online"] for _, p in alice.presences)
    except BaseException:
        for server in (one, two):
            print(f"--- {server.name} log ---\n{server.log()}")
        raise
    finally:
        if browser is not None and browser.poll() is None:
            browser.kill()
        for client in (alice, bob):
            if client is not None:
                client.closing = True
        for server in (one, two):
            server.kill()
