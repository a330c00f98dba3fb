"""The shipped proxy in front of a benchmark's daphne processes (`--through-proxy`).

deploy/nginx/ rendered as tests/deploy runs it (tests/deploy/render.py: a self-signed
certificate for localhost, the logs in the run's folder, free ports), with every limit as
shipped: the clients speak TLS to nginx, which proxies to daphne. The servers are then run as
a club runs them behind it (docs/deploy.md): they trust one proxy for the client's address
(`SNOOKER_TRUSTED_PROXIES=1`), so the per-address gates count each client's own loopback
address, which nginx sets in X-Forwarded-For.
"""

from __future__ import annotations

import os
import socket
import ssl
import time
from pathlib import Path

from tests.deploy.render import nginx
from tests.live.harness import Process, free_port

# What the servers need behind the proxy (added to their environment).
BEHIND_PROXY = {
    "SNOOKER_TRUSTED_PROXIES": "1",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "ALLOWED_HOSTS": "localhost,127.0.0.1",
}


class Proxy(Process):
    """nginx with the shipped site, in front of daphne on `upstreams`."""

    def __init__(self, folder: Path, upstreams: list[int], worker_connections: int) -> None:
        self.port = free_port()
        rendered = nginx(
            folder, upstreams=upstreams, https_port=self.port, http_port=free_port(),
            worker_connections=worker_connections,
        )  # fmt: skip
        self.cert = folder / "cert.pem"
        super().__init__("stderr", rendered.command(), dict(os.environ), folder / "logs")
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited:\n{self.log_path.read_text(errors='replace')}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not listen on {self.port}") from None
                time.sleep(0.1)

    def url(self, path: str) -> str:
        return f"wss://localhost:{self.port}{path}"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def cpu_seconds(self) -> float:
        """User and system CPU time of nginx's master and workers so far."""
        total = 0.0
        for pid in [self.proc.pid, *_children(self.proc.pid)]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def refusals(self) -> int:
        """Requests nginx refused with 429 (its per-address limits), from its access log."""
        log = self.log_path.parent / "snooker.access.log"
        if not log.exists():
            return 0
        return sum(1 for line in log.open(errors="replace") if '" 429 ' in line)


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []
