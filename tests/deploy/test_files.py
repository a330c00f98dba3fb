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
    # Every proxied location carries the snippet (a websocket's through its own, which does).
    websocket = (DEPLOY / "nginx" / "snooker-websocket.conf").read_text()
    assert "snooker-proxy.conf;" in websocket
    assert site.count("proxy_pass http://snooker") == site.count("snooker-proxy.conf;") + (
        site.count("snooker-websocket.conf;")
    )
    for slow_client in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert _directives(site, slow_client), slow_client
    assert _directives(site, "limit_conn") and _directives(site, "limit_req")


def test_the_proxy_limits_websockets_per_address(settings: Settings) -> None:
    """New websockets a second and websockets held open, per address, refused by nginx
    before daphne parses a handshake (issue 24; bench_strangers.py --through-proxy)."""
    site = (DEPLOY / "nginx" / "snooker.conf").read_text()
    sockets = (DEPLOY / "nginx" / "snooker-websocket.conf").read_text()
    for location in ("location /ws/ {", "location /ws/watch/ {"):
        body = site[site.index(location) :]
        assert "snooker-websocket.conf;" in body[: body.index("\n    }")], location
    zones = {
        zone.split("zone=")[1].split(":")[0]: zone.split()[0]
        for zone in _directives(site, "limit_(?:req|conn)_zone")
    }
    (rate,) = _directives(sockets, "limit_req")
    (held,) = _directives(sockets, "limit_conn")
    name, count = held.split()
    assert zones[rate.split()[0].removeprefix("zone=")] == "$snooker_prefix"
    assert zones[name] == "$snooker_prefix"
    # Room for a clubhouse behind one NAT: the club's own cap in each of the processes.
    upstreams = set(re.findall(r"^\s*server 127\.0\.0\.1:(\d+)", site, flags=re.MULTILINE))
    assert int(count) >= len(upstreams) * settings.SNOOKER["MAX_SOCKETS_PER_ADDRESS"]


def test_the_proxy_counts_websockets_per_ipv6_64_as_the_club_does() -> None:
    """The websockets' zones are keyed by a map of `$binary_remote_addr`: an IPv6 address by
    its /64 (its first 8 bytes), an IPv4 one whole, as accounts/addresses.py counts (issue 42:
    counted per address, one host's /64 opened 60 sockets from each of its addresses)."""
    import ipaddress

    from accounts import addresses

    site = (DEPLOY / "nginx" / "snooker.conf").read_text()
    body = re.search(r"map \$binary_remote_addr \$snooker_prefix \{(.*?)\n\}", site, re.DOTALL)
    assert body is not None
    rules = [line.strip().rstrip(";") for line in body[1].strip().splitlines()]
    pattern, value = rules[0].rsplit(None, 1)
    assert pattern.startswith('"~') and not pattern.startswith('"~*')  # bytes: case matters
    assert value == "$1" and rules[1].split() == ["default", "$binary_remote_addr"]
    regex = re.compile(pattern.strip('"').removeprefix("~").encode())

    def key(address: str) -> bytes:
        """What nginx's map makes of the address's `$binary_remote_addr`."""
        packed = ipaddress.ip_address(address).packed
        found = regex.search(packed)
        return found[1] if found else packed

    one, other = "2001:db8:0:a::1", "2001:db8:0:a:ffff:ffff:ffff:a0a"  # a newline byte too
    assert key(one) == key(other) == ipaddress.ip_address(addresses.grouped(one)).packed[:8]
    assert key("2001:db8:0:b::1") != key(one)
    assert key("192.0.2.10") == bytes([192, 0, 2, 10]) != key("192.0.2.11")


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
                     "snooker-backup.service", "snooker-backup.timer",
                     "snooker-prune.service", "snooker-prune.timer")
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


def test_no_secret_is_ever_an_argument() -> None:
    """A command line is readable by every user of the machine (ps, /proc/PID/cmdline): no
    script or instruction in deploy/ or docs/deploy.md passes the environment file's values or
    DATABASE_URL (which may hold a password) as arguments."""
    texts = {path.name: path.read_text() for path in sorted(DEPLOY.rglob("*")) if path.is_file()}
    texts["deploy.md"] = (ROOT / "docs" / "deploy.md").read_text()
    for name, text in texts.items():
        assert not re.search(r"env \$\(cat|xargs", text), name
        assert not re.search(r"--dbname=\"?\$DATABASE_URL", text), name
        assert not re.search(r"(?:^|\s)SECRET_KEY=\S", text.replace("SECRET_KEY=change-me", "")), (
            name
        )
    for script in ("snooker-backup", "snooker-restore"):
        assert "snooker-pgenv" in texts[script]


def test_redis_is_reached_as_the_club_s_user() -> None:
    env = (DEPLOY / "snooker.env.example").read_text()
    (url,) = re.findall(r"^REDIS_URL=(\S+)$", env, flags=re.MULTILINE)
    assert re.fullmatch(r"redis://snooker:[^@]+@127\.0\.0\.1:6379/0", url)
    acl = (DEPLOY / "redis" / "users.acl").read_text().splitlines()
    assert acl[0] == "user default off"
    assert acl[1].startswith("user snooker on #") and "-@dangerous" in acl[1]


def test_the_server_installs_only_what_runs() -> None:
    """requirements.txt holds what the club runs; the test and lint tools are in
    requirements-dev.txt, which the deployment never installs and `make test` does."""

    def pins(name: str) -> set[str]:
        lines = (ROOT / name).read_text().splitlines()
        return {line.split("==")[0].split("[")[0].lower() for line in lines if "==" in line}

    runtime, dev = pins("requirements.txt"), pins("requirements-dev.txt")
    assert not runtime & dev
    for tool in ("pytest", "pytest-django", "hypothesis", "mypy", "ruff", "playwright", "polib"):
        assert tool in dev and tool not in runtime, tool
    assert {"django", "daphne", "channels-redis", "psycopg"} <= runtime
    assert (ROOT / "requirements-dev.txt").read_text().count("-r requirements.txt\n") == 1
    upgrade = (DEPLOY / "bin" / "snooker-upgrade").read_text()
    deploy_doc = (ROOT / "docs" / "deploy.md").read_text()
    for text in (upgrade, deploy_doc):
        installs = [line for line in text.splitlines() if "pip" in line and " install" in line]
        assert installs and all("-r " in line for line in installs)
        assert all("requirements.txt" in line and "-dev" not in line for line in installs)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run: venv static$", makefile, flags=re.MULTILINE)
    assert re.search(r"^test: venv-dev ", makefile, flags=re.MULTILINE)
