"""What deploy/ ships is accepted by the tools that will run it: nginx -t on the site,
systemd-analyze on the units, bash on the scripts; and the proxy's copy of the pages'
security headers says what the club's settings say."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings

from tests.deploy.render import DEPLOY, ROOT, nginx
from tests.needs import missing


def test_nginx_accepts_the_shipped_site(tmp_path: Path) -> None:
    rendered = nginx(tmp_path / "nginx")
    done = subprocess.run(
        rendered.command("-t"), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr


def _directives(text: str, name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;]*);", text, flags=re.MULTILINE)


def test_the_proxy_sets_the_forwarded_headers_rather_than_appending() -> None:
    proxy = (DEPLOY / "nginx" / "snooker-proxy.conf").read_text()
    headers = dict(value.split(None, 1) for value in _directives(proxy, "proxy_set_header"))
    assert headers["X-Forwarded-For"] == "$remote_addr"  # not $proxy_add_x_forwarded_for
    assert headers["X-Forwarded-Proto"] == "$scheme"
    site = (DEPLOY / "nginx" / "snooker.conf").read_text()
    assert "proxy_add_x_forwarded_for" not in site + proxy
    # Every proxied location carries the snippet.
    assert site.count("proxy_pass http://snooker;") == site.count("snooker-proxy.conf;")
    for slow_client in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert _directives(site, slow_client), slow_client
    assert _directives(site, "limit_conn") and _directives(site, "limit_req")


def test_the_proxy_limits_websockets_per_address(settings: Settings) -> None:
    """New websockets a second and websockets held open, per address, refused by nginx
    before daphne parses a handshake (issue 24; bench_strangers.py --through-proxy)."""
    site = (DEPLOY / "nginx" / "snooker.conf").read_text()
    sockets = site[site.index("location /ws/ {") :]
    sockets = sockets[: sockets.index("\n    }")]
    zones = {
        zone.split("zone=")[1].split(":")[0]: zone.split()[0]
        for zone in _directives(site, "limit_(?:req|conn)_zone")
    }
    (rate,) = _directives(sockets, "limit_req")
    (held,) = _directives(sockets, "limit_conn")
    name, count = held.split()
    assert zones[rate.split()[0].removeprefix("zone=")] == "$binary_remote_addr"
    assert zones[name] == "$binary_remote_addr"
    # Room for a clubhouse behind one NAT: the club's own cap in each of the two processes.
    upstreams = re.findall(r"^\s*server 127\.0\.0\.1:\d+", site, flags=re.MULTILINE)
    assert int(count) >= len(upstreams) * settings.SNOOKER["MAX_SOCKETS_PER_ADDRESS"]


def test_the_static_files_headers_are_the_pages(settings: Settings) -> None:
    """nginx serves /static/ itself, with a copy of the headers the pages get from Django."""
    from csp.utils import build_policy

    settings.SNOOKER_CSP_CONNECT_SRC = ""
    snippet = (DEPLOY / "nginx" / "snooker-static-headers.conf").read_text()
    headers = dict(re.findall(r'^add_header (\S+) "([^"]*)" always;$', snippet, re.MULTILINE))
    assert len(headers) == len(_directives(snippet, "add_header"))

    def directives(policy: str) -> set[str]:
        return {part.strip() for part in policy.split(";") if part.strip()}

    assert directives(headers["Content-Security-Policy"]) == directives(build_policy())
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == settings.X_FRAME_OPTIONS
    assert headers["Referrer-Policy"] == settings.SECURE_REFERRER_POLICY
    assert headers["Cross-Origin-Opener-Policy"] == settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")


def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        missing("systemd-analyze is not installed (apt-get install systemd)")
    env = tmp_path / "snooker.env"
    env.write_text((DEPLOY / "snooker.env.example").read_text())
    venv = Path(ROOT / ".venv").resolve()
    for unit in (DEPLOY / "systemd").iterdir():
        text = unit.read_text()
        for old, new in {
            "/srv/snooker/venv": str(venv),
            "/srv/snooker/app": str(ROOT),
            "/etc/snooker/snooker.env": str(env),
        }.items():
            text = text.replace(old, new)
        (tmp_path / unit.name).write_text(text)
    units = [
        str(tmp_path / name)
        for name in ("snooker@8001.service", "snooker.target", "snooker-computer.service",
                     "snooker-backup.service", "snooker-backup.timer")
    ]  # fmt: skip
    done = subprocess.run(
        [analyze, "verify", *units], capture_output=True, text=True, timeout=120, check=False
    )
    complaints = [line for line in done.stderr.splitlines() if str(tmp_path) in line]
    assert done.returncode == 0 and not complaints, done.stderr


@pytest.mark.parametrize("script", sorted((DEPLOY / "bin").iterdir()), ids=lambda p: p.name)
def test_the_scripts_parse(script: Path) -> None:
    assert script.stat().st_mode & 0o111, f"{script.name} is not executable"
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
