"""The computer's pool ends with its server, however the server ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A server in miniature: the pool as computer.driver makes it, one decision's worth of work to
# start its worker, then waiting to be killed.
SERVER = """
import multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
from computer.thinking import start_worker

if __name__ == "__main__":
    pool = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker
    )
    print(pool.submit(os.getpid).result(), flush=True)
    sys.stdin.read()
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended too
        return stat.read().split(") ")[-1][0] != "Z"


def test_a_worker_ends_when_its_server_is_killed() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert server.stdout is not None
    worker = int(server.stdout.readline())
    assert _alive(worker)
    server.send_signal(signal.SIGKILL)  # no shutdown of the pool, as after a crash
    server.wait()
    deadline = time.monotonic() + 15
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)  # waiting for another process to end: there is no event to wait on
    assert not _alive(worker)
