"""deploy/ as a test runs it: the shipped files with the paths of a test's own folder, ports
and certificate in place of a server's (the rest of each file is used as shipped)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.needs import missing

ROOT = Path(__file__).resolve().parent.parent.parent
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def required(tool: str | None, what: str) -> str:
    """The tool's path; without it the test skips on a laptop and fails in CI, which installs
    it (.ci/run)."""
    if tool is None:
        missing(f"{what} is not installed (apt-get install {what})")
    return tool


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, valid for a day, with the key a
    club's certbot makes (ECDSA P-256: a handshake costs nginx a tenth of RSA-2048's)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


@dataclass(frozen=True)
class Nginx:
    folder: Path
    conf: Path  # the main configuration, which includes the rendered site

    def command(self, *args: str) -> list[str]:
        return [required(NGINX, "nginx"), "-p", str(self.folder), "-c", str(self.conf), *args]


def nginx(
    folder: Path,
    *,
    upstreams: list[int] | None = None,
    crowd: int | None = None,
    https_port: int = 443,
    http_port: int = 80,
    static_root: Path | None = None,
    worker_connections: int = 4096,
) -> Nginx:
    """deploy/nginx/ rendered into `folder`: the site with its snippets, certificate, logs and
    static folder there, listening on the given ports (IPv4 only: a test machine may have no
    IPv6), proxying to daphne on `upstreams` (the shipped 8001, 8002 if None) and the crowd's
    sockets to `crowd` (the shipped 8003 if None), with `upstreams` its backups; and a main
    configuration around it as Debian's nginx.conf would be (a worker a core), with
    `worker_connections` (each proxied websocket holds two: docs/deploy.md, "nginx")."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "logs").mkdir(exist_ok=True)
    (folder / "snippets").mkdir(exist_ok=True)
    cert, key = certificate(folder)
    for snippet in (
        "snooker-proxy.conf", "snooker-static-headers.conf", "snooker-tls.conf",
        "snooker-websocket.conf",
    ):  # fmt: skip
        text = (DEPLOY / "nginx" / snippet).read_text()  # a snippet may include another
        (folder / "snippets" / snippet).write_text(
            text.replace("/etc/nginx/snippets/", f"{folder}/snippets/")
        )
    site = (DEPLOY / "nginx" / "snooker.conf").read_text()
    static_parent = (static_root or folder / "static").parent
    replacements = {
        "/etc/nginx/snippets/": f"{folder}/snippets/",
        "/etc/letsencrypt/live/club.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/club.example.org/privkey.pem": str(key),
        "/var/log/nginx/": f"{folder}/logs/",
        "/var/www/letsencrypt": f"{folder}/acme",
        "root /srv/snooker;": f"root {static_parent};",
        "server_name club.example.org;": "server_name localhost 127.0.0.1;",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:443 ssl http2;": "",
        "listen [::]:80;": "",
        "listen 80 default_server;": f"listen 127.0.0.1:{http_port} default_server;",
        "listen 443 ssl default_server;": f"listen 127.0.0.1:{https_port} ssl default_server;",
        "listen [::]:80 default_server;": "",
        "listen [::]:443 ssl default_server;": "",
        "return 301 https://club.example.org$request_uri;": "return 301 https://localhost$request_uri;",
    }
    for old, new in replacements.items():
        assert old in site, f"deploy/nginx/snooker.conf no longer has {old!r}"
        site = site.replace(old, new)
    if upstreams is not None:
        for backup in ("", " backup"):
            shipped = f"    server 127.0.0.1:8001 max_fails=0{backup};\n"
            shipped += f"    server 127.0.0.1:8002 max_fails=0{backup};\n"
            assert shipped in site
            site = site.replace(
                shipped,
                "".join(f"    server 127.0.0.1:{p} max_fails=0{backup};\n" for p in upstreams),
            )
    if crowd is not None:
        shipped = "    server 127.0.0.1:8003 max_fails=0;\n"
        assert shipped in site
        site = site.replace(shipped, f"    server 127.0.0.1:{crowd} max_fails=0;\n")
    (folder / "snooker.conf").write_text(site)
    conf = folder / "nginx.conf"
    conf.write_text(
        ("user root root;\n" if os.geteuid() == 0 else "")  # the test's files are root's only
        + f"""daemon off;
master_process on;
worker_processes auto;
pid {folder}/nginx.pid;
error_log {folder}/logs/error.log warn;
worker_rlimit_nofile {2 * worker_connections + 64};
events {{ worker_connections {worker_connections}; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    # As Debian's nginx.conf has them: the site's own must win over these.
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
    ssl_prefer_server_ciphers on;
    gzip on;
    access_log {folder}/logs/access.log;
    client_body_temp_path {folder}/tmp/body;
    proxy_temp_path {folder}/tmp/proxy;
    fastcgi_temp_path {folder}/tmp/fastcgi;
    uwsgi_temp_path {folder}/tmp/uwsgi;
    scgi_temp_path {folder}/tmp/scgi;
    include {folder}/snooker.conf;
}}
"""
    )
    (folder / "tmp").mkdir(exist_ok=True)
    return Nginx(folder, conf)
