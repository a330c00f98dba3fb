"""The pages around the table, and the ASGI app that `make run` serves."""

import json
import re
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from pytest_django.fixtures import Settings

from snooker_site.asgi import application


@pytest.mark.django_db
def test_home_page_names_the_club(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Snooker Club" in response.content.decode()
    assert static("css/site.css") in response.content.decode()


@pytest.mark.django_db
def test_healthz_is_json_ok(client: Client, settings: Settings) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    redis = True if settings.REDIS_URL else None  # null: none configured
    body = response.json()
    assert {k: body[k] for k in ("ok", "database", "redis")} == {
        "ok": True, "database": True, "redis": redis
    }  # fmt: skip
    assert body["tasks"]["presence heartbeat"]["status"] == "idle"  # no socket here


@pytest.mark.django_db
def test_healthz_says_what_does_not_answer(
    client: Client, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() | {"tasks": None} == {
        "ok": False, "database": True, "redis": False, "tasks": None
    }  # fmt: skip

    from django.db import OperationalError

    from game import health

    class Down:
        def __enter__(self) -> None:
            raise OperationalError("connection refused")

        def __exit__(self, *exc: object) -> None:
            pass

    monkeypatch.setattr(health.connection, "cursor", Down)
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() | {"tasks": None} == {
        "ok": False, "database": False, "redis": None, "tasks": None
    }  # fmt: skip


@pytest.mark.django_db
def test_healthz_answers_plain_http_behind_the_ssl_redirect(
    client: Client, settings: Settings
) -> None:
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/accounts/login/").status_code == 301


def test_stylesheet_is_found() -> None:
    assert finders.find("css/site.css") is not None
    # The pages name it by its contents' hash (collectstatic's manifest; tests/conftest.py).
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", static("css/site.css"))


async def _get(path: str) -> dict[str, Any]:
    """GET through the ASGI app, as daphne would. (channels' HttpCommunicator cannot read
    Django's streamed file responses, whose last body message omits the optional `body`.)"""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [(b"host", b"localhost")],
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=10)
    assert start["type"] == "http.response.start"
    body = b""
    while True:
        message = await communicator.receive_output(timeout=10)
        assert message["type"] == "http.response.body"
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await communicator.wait(timeout=10)
    return {"status": start["status"], "body": body}


async def test_asgi_app_serves_static_files() -> None:
    """daphne runs the ASGI app directly, so it must serve /static/ itself."""
    response = await _get("/static/css/site.css")
    assert response["status"] == 200
    assert b"--baize" in response["body"]


@pytest.mark.django_db(transaction=True)
async def test_asgi_app_serves_pages() -> None:
    response = await _get("/healthz")
    assert response["status"] == 200
    assert json.loads(response["body"])["ok"] is True
