"""Deployment fails closed (docs/security.md, "Deployment"): no production start on the
development key, secure cookies, HSTS and the SSL redirect by default with DEBUG off, `check
--deploy` clean, a Content-Security-Policy on the pages and the same headers on /static/; and
`make run` still starts on a fresh machine with nothing set."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.asgi import get_asgi_application
from django.templatetags.static import static as static_url
from django.test import Client
from pytest_django.fixtures import Settings

from snooker_site import knobs
from snooker_site.headers import page_headers
from tests.live.harness import Daphne, run_python

ROOT = Path(__file__).resolve().parent.parent
# Everything a deployment may set (docs/settings.md); a "fresh machine" has none of them.
KNOBS = knobs.NAMES
SETTINGS = (
    "DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE",
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER", "EMAIL_BACKEND", "AXES_FAILURE_LIMIT",
    "SNOOKER_SIGNUP_RATE",
)  # fmt: skip


def environment(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KNOBS}
    env.update(DJANGO_SETTINGS_MODULE="snooker_site.settings", PYTHONUNBUFFERED="1", **values)
    return env


def production(tmp_path: Path, **values: str) -> dict[str, str]:
    return environment(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="club.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **values,
    )


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def settings_under(env: dict[str, str]) -> dict[str, Any]:
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{k: getattr(settings, k) for k in {SETTINGS!r}}}))"
    )
    done = run(env, "-c", code)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# --- failing closed ---------------------------------------------------------------------------


def test_check_deploy_passes_under_a_production_environment(tmp_path: Path) -> None:
    done = run(production(tmp_path), "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_catches_a_weak_production(tmp_path: Path) -> None:
    """The check the test above passes is a real one: switch one protection off and it fails."""
    env = production(tmp_path, SECURE_HSTS_SECONDS="0", SESSION_COOKIE_SECURE="false")
    done = run(env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode != 0
    assert "security.W004" in done.stderr and "security.W012" in done.stderr


def test_debug_off_without_a_secret_key_refuses_to_start(tmp_path: Path) -> None:
    env = production(tmp_path)
    del env["SECRET_KEY"]
    for args in (("manage.py", "check"), ("-c", "import snooker_site.asgi")):
        done = run(env, *args)
        assert done.returncode != 0
        assert "ImproperlyConfigured: SECRET_KEY is not set" in done.stderr, done.stderr


def test_debug_off_is_secure_by_default(tmp_path: Path) -> None:
    assert settings_under(production(tmp_path)) == {
        "DEBUG": False,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "LANGUAGE_COOKIE_SECURE": True,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SECURE_PROXY_SSL_HEADER": None,
        "EMAIL_BACKEND": "snooker_site.mail.WithheldBackend",
        "AXES_FAILURE_LIMIT": 10,
        "SNOOKER_SIGNUP_RATE": "10/h",
    }


def test_each_protection_is_set_by_the_environment(tmp_path: Path) -> None:
    env = production(
        tmp_path,
        SESSION_COOKIE_SECURE="false", CSRF_COOKIE_SECURE="0", SECURE_SSL_REDIRECT="no",
        SECURE_HSTS_SECONDS="60", SECURE_HSTS_INCLUDE_SUBDOMAINS="false",
        SECURE_HSTS_PRELOAD="off", SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
        EMAIL_HOST="smtp.example.org", SNOOKER_LOGIN_FAILURES="4", SNOOKER_SIGNUP_RATE="3/15m",
    )  # fmt: skip
    assert settings_under(env) == {
        "DEBUG": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "LANGUAGE_COOKIE_SECURE": False,
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 60,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "AXES_FAILURE_LIMIT": 4,
        "SNOOKER_SIGNUP_RATE": "3/15m",
    }
    env["SECURE_PROXY_SSL_HEADER"] = "X-Forwarded-Scheme=secure"
    assert settings_under(env)["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_SCHEME", "secure"]


def test_smtp_is_configured_by_the_environment(tmp_path: Path) -> None:
    env = production(
        tmp_path, EMAIL_HOST="smtp.example.org", EMAIL_PORT="465", EMAIL_HOST_USER="club",
        EMAIL_HOST_PASSWORD="s3cret", EMAIL_USE_TLS="false",
        DEFAULT_FROM_EMAIL="Club <club@example.org>",
    )  # fmt: skip
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        "from django.core.mail import get_connection; c = get_connection(); "
        "print(json.dumps([type(c).__module__, c.host, c.port, c.username, c.password, c.use_tls,"
        " settings.DEFAULT_FROM_EMAIL]))"
    )
    done = run(env, "-c", code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [
        "django.core.mail.backends.smtp", "smtp.example.org", 465, "club", "s3cret", False,
        "Club <club@example.org>",
    ]  # fmt: skip


def test_a_bad_rate_stops_the_start(tmp_path: Path) -> None:
    done = run(production(tmp_path, SNOOKER_SIGNUP_RATE="ten an hour"), "manage.py", "check")
    assert done.returncode != 0
    assert "SNOOKER_SIGNUP_RATE='ten an hour' is not a rate" in done.stderr


def test_the_computers_own_process_needs_redis(tmp_path: Path) -> None:
    """The servers tell that process of its turns through Redis: without it, no start (and,
    with it off, `play_computer` refuses to run beside servers that play those tables)."""
    done = run(production(tmp_path, SNOOKER_COMPUTER_PROCESS="true"), "manage.py", "check")
    assert done.returncode != 0
    assert "SNOOKER_COMPUTER_PROCESS needs REDIS_URL" in done.stderr
    done = run(production(tmp_path), "manage.py", "play_computer")
    assert done.returncode != 0
    assert "the servers play the computer's tables themselves" in done.stderr


def test_a_fresh_machine_runs_with_nothing_set(tmp_path: Path) -> None:
    """`make run` with no variables: DEBUG on, the development key, plain HTTP. (Only the
    database is moved, to keep this test off the working copy's db.sqlite3.)"""
    env = environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert settings_under(env)["DEBUG"] is True
    assert settings_under(env)["SECURE_SSL_REDIRECT"] is False
    run_python(env, "manage.py", "migrate", "--noinput", "-v", "0")
    daphne = Daphne("fresh", env, tmp_path)
    try:
        daphne.wait_healthy()
        for path in ("/", "/accounts/login/", "/static/css/site.css"):
            with urllib.request.urlopen(f"{daphne.http_url}{path}", timeout=10) as answer:
                assert answer.status == 200, path
                assert answer.url == f"{daphne.http_url}{path}"  # no redirect to https
                assert "Strict-Transport-Security" not in answer.headers
                assert "Content-Security-Policy" in answer.headers
                assert "secure" not in answer.headers.get("Set-Cookie", "").lower()
    finally:
        daphne.stop()


# --- the headers: pages by middleware, /static/ by WhiteNoise after SecurityMiddleware ----------

SECURITY = (
    "content-security-policy", "x-content-type-options", "referrer-policy",
    "cross-origin-opener-policy", "x-frame-options", "strict-transport-security",
)  # fmt: skip


async def get(app: Any, path: str, *, scheme: str = "http", **headers: str) -> dict[str, Any]:
    """GET through an ASGI app as daphne would; status, headers (lower-case names), body."""
    scope = {
        "type": "http", "http_version": "1.1", "method": "GET", "scheme": scheme, "path": path,
        "query_string": b"", "root_path": "",
        "headers": [(b"host", b"testserver")]
        + [(k.replace("_", "-").lower().encode(), v.encode()) for k, v in headers.items()],
    }  # fmt: skip
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=10)
    body = b""
    while True:
        message = await communicator.receive_output(timeout=10)
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await communicator.wait(timeout=10)
    names = {bytes(k).decode().lower(): bytes(v).decode() for k, v in start["headers"]}
    return {"status": start["status"], "headers": names, "body": body}


def wrapped() -> Any:
    """The HTTP app as snooker_site/asgi.py builds it, built afresh: the middleware (WhiteNoise
    and SecurityMiddleware) read the settings when they are made."""
    return get_asgi_application()


@pytest.mark.django_db
def test_the_policy_allows_no_inline_script_or_style(client: Client) -> None:
    policy = client.get("/healthz")["Content-Security-Policy"]
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["object-src"] == directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


@pytest.mark.django_db
async def test_static_files_carry_the_same_headers_as_pages(settings: Settings) -> None:
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    app = wrapped()
    page = await get(app, "/healthz", scheme="https")
    static = await get(app, "/static/css/site.css", scheme="https")
    assert page["status"] == static["status"] == 200
    assert b"--baize" in static["body"]
    for name in SECURITY:
        assert name in page["headers"], name
        assert static["headers"].get(name) == page["headers"][name], name
    assert static["headers"]["strict-transport-security"] == "max-age=3600; includeSubDomains"
    # HSTS only over HTTPS, as for the pages.
    plain = await get(app, "/static/css/site.css")
    assert "strict-transport-security" not in plain["headers"]
    assert plain["headers"]["content-security-policy"] == page["headers"]["content-security-policy"]
    # The static handler's own headers stay.
    assert static["headers"]["content-type"].startswith("text/css")
    # The pages name the hashed file, cached for ever; its plain name only briefly.
    hashed = static_url("css/site.css")
    assert hashed != "/static/css/site.css" and hashed.startswith("/static/css/site.")
    forever = await get(app, hashed, scheme="https")
    assert forever["status"] == 200 and forever["body"] == static["body"]
    assert "immutable" in forever["headers"]["cache-control"]
    policy = page["headers"]["content-security-policy"]
    assert forever["headers"]["content-security-policy"] == policy
    assert "immutable" not in static["headers"]["cache-control"]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(
    "path",
    [
        "/static/nothing-here.css",
        "/static/../snooker_site/settings.py",  # (daphne answered its 500 page with a traceback)
        "/static/../../etc/passwd",
        "/static/%2e%2e/snooker_site/settings.py",
        "/static/js/../../snooker_site/settings.py",
        "/static/\\..\\settings.py",
    ],
)
async def test_a_missing_static_file_or_a_traversal_is_a_404_with_the_headers(
    settings: Settings, path: str, debug: bool
) -> None:
    settings.DEBUG = debug  # DEBUG on: WhiteNoise reads static/ afresh on each request
    response = await get(wrapped(), path)
    assert response["status"] == 404, path
    assert b"SECRET_KEY" not in response["body"]
    if not debug:  # (django-csp leaves Django's debug pages without a policy)
        assert "content-security-policy" in response["headers"]
    assert response["headers"]["x-content-type-options"] == "nosniff"


async def test_static_files_follow_the_proxy_header_and_the_ssl_redirect(
    settings: Settings,
) -> None:
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_HSTS_SECONDS = 60
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    app = wrapped()
    moved = await get(app, "/static/css/site.css")
    assert moved["status"] == 301
    assert moved["headers"]["location"] == "https://testserver/static/css/site.css"
    proxied = await get(app, "/static/css/site.css", x_forwarded_proto="https")
    assert proxied["status"] == 200
    assert proxied["headers"]["strict-transport-security"].startswith("max-age=60")
    # A host that is not ours is not redirected to.
    settings.ALLOWED_HOSTS = ["club.example.org"]
    assert (await get(app, "/static/css/site.css"))["status"] == 400


def test_headers_are_built_from_the_settings(settings: Settings) -> None:
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.X_FRAME_OPTIONS = "sameorigin"
    headers: dict[str, str] = {}
    page_headers(headers, "/srv/static/css/site.css", "/static/css/site.css")
    assert headers == {
        "Content-Security-Policy": "default-src 'none'",
        "X-Frame-Options": "SAMEORIGIN",
    }


async def test_the_served_application_wraps_its_static_files() -> None:
    from snooker_site.asgi import application

    response = await get(application, "/static/css/site.css")
    assert response["status"] == 200
    assert "content-security-policy" in response["headers"]


def test_static_files_keep_the_request_on_the_event_loop() -> None:
    """WhiteNoise's own middleware is sync only: Django would run it, and every page's request
    behind it, on the one thread that channels runs the sockets' database calls on."""
    from asgiref.sync import iscoroutinefunction

    from snooker_site.static import StaticFiles

    async def asynchronous(request: Any) -> Any:
        return None

    def synchronous(request: Any) -> Any:
        return None

    assert iscoroutinefunction(StaticFiles(asynchronous))
    assert not iscoroutinefunction(StaticFiles(synchronous))


# --- the journal holds no way in (issue 42) ------------------------------------------------------


def test_without_mail_a_reset_link_is_withheld_not_printed(
    settings: Settings,
    client: Client,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    db: None,
) -> None:
    """With DEBUG off and no EMAIL_HOST the reset mail is dropped with one line naming its
    subject: no link, no address, in the log or on standard output (the journal)."""
    from django.contrib.auth.models import User

    User.objects.create_user("alice", "alice@example.org", "a long enough secret")
    settings.EMAIL_BACKEND = "snooker_site.mail.WithheldBackend"
    with caplog.at_level("WARNING", logger="snooker.mail"):
        answer = client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    assert answer.status_code == 302
    (line,) = [r.getMessage() for r in caplog.records if r.name == "snooker.mail"]
    assert "mail not sent" in line and "1 recipient" in line
    printed = capsys.readouterr()
    for text in (line, printed.out, printed.err):
        assert "/accounts/reset/" not in text and "alice@example.org" not in text


def test_make_run_still_prints_the_mail(tmp_path: Path) -> None:
    env = environment(DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert settings_under(env)["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_an_unknown_host_is_a_quiet_400(
    client: Client, caplog: pytest.LogCaptureFixture, settings: Settings
) -> None:
    settings.ALLOWED_HOSTS = ["club.example.org"]
    with caplog.at_level("DEBUG"):
        assert client.get("/healthz", HTTP_HOST="evil.example").status_code == 400
    assert not [r for r in caplog.records if r.name.startswith("django.security")]
    from django.conf import settings as live

    quiet = live.LOGGING["loggers"]["django.security.DisallowedHost"]
    assert quiet == {"handlers": ["null"], "propagate": False}


def test_daphne_writes_no_access_log_to_the_journal() -> None:
    """Every request's path in the journal would hold each invitation's token (/invite/...)
    and each reset link followed: nginx's access log masks them instead."""
    unit = (ROOT / "deploy" / "systemd" / "snooker@.service").read_text()
    command = unit[unit.index("ExecStart=") :].split("\n\n")[0]
    assert "daphne" in command and "--access-log" not in command
    site = (ROOT / "deploy" / "nginx" / "snooker.conf").read_text()
    assert "access_log /var/log/nginx/snooker.access.log snooker_masked;" in site
