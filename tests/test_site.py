"""The pages around the table, and the ASGI app that `make run` serves."""

import re
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client

from snooker_site.asgi import application


@pytest.mark.django_db
def test_home_page_names_the_club(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Snooker Club" in response.content.decode()
    assert static("css/site.css") in response.content.decode()


def test_healthz_is_json_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"ok": True}


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


async def test_asgi_app_serves_pages() -> None:
    response = await _get("/healthz")
    assert response["status"] == 200
    assert response["body"] == b'{"ok": true}'
