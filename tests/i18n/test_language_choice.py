"""Which language a page is in: the switch's cookie, else the browser's Accept-Language, else
English; the switch in the header posts to Django's set_language (CSRF-checked) and is
remembered; `<html lang>` follows."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.i18n.visible import read

pytestmark = pytest.mark.django_db


def lang(client: Client, url: str = "/players/", **headers: str) -> str | None:
    response = client.get(url, **headers)
    assert response.status_code == 200
    return read(response.content.decode(), "")[0]


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "en"),  # as the test client, and every existing test, asks
        ("en-GB,en;q=0.9", "en"),
        ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
        ("ru", "ru"),
        ("de-DE,de;q=0.9", "en"),  # a language the club does not speak
        ("de, ru;q=0.5", "ru"),  # the first of the browser's that it speaks
        ("en;q=0.5, ru", "ru"),
        ("*", "en"),
    ],
)
def test_the_browsers_language(accept: str | None, expected: str) -> None:
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept is not None else {}
    client = Client(**headers)
    assert lang(client) == expected
    response = client.get("/players/")
    assert response["Content-Language"] == expected
    assert "Accept-Language" in response["Vary"]  # caches keep the languages apart


def test_english_by_default_on_every_kind_of_page() -> None:
    client = Client()
    for url in ("/", "/players/", "/accounts/login/", "/accounts/signup/"):
        html = client.get(url).content.decode()
        assert '<html lang="en">' in html and "Snooker Club" in html, url
    assert "Members" in client.get("/players/").content.decode()


def test_the_switch_round_trip() -> None:
    """From an English page to Russian and back, with the CSRF token the form carries; the
    choice outlives the browser's own preference and the session."""
    browser = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    html = browser.get("/players/?q=al").content.decode()
    form = re.search(r'<form method="post" action="/i18n/setlang/"(.*?)</form>', html, re.S)
    assert form is not None
    assert 'name="next" value="/players/?q=al"' in form.group(1)
    # Each language offered in its own name, the page's own marked and not a link.
    assert re.search(r'value="ru" lang="ru"[^>]*aria-pressed="false">Русский</button>', html)
    assert re.search(r'value="en" lang="en"[^>]*aria-pressed="true" disabled>English<', html)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(1))
    assert token is not None

    # No token, no change (Django's CSRF check guards the view).
    assert browser.post("/i18n/setlang/", {"language": "ru", "next": "/"}).status_code == 403

    response = browser.post(
        "/i18n/setlang/",
        {"language": "ru", "next": "/players/?q=al", "csrfmiddlewaretoken": token.group(1)},
    )
    assert response.status_code == 302 and response["Location"] == "/players/?q=al"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "ru" and int(cookie["max-age"]) >= 30 * 24 * 3600
    assert cookie["samesite"] == "Lax" and cookie["httponly"]
    assert lang(browser, "/players/?q=al") == "ru"  # though the browser says English
    assert lang(browser, "/") == "ru"
    html = browser.get("/players/").content.decode()
    assert "Члены клуба" in html
    assert re.search(r'value="ru" lang="ru"[^>]*aria-pressed="true" disabled>Русский<', html)

    # Logging in keeps it (the cookie, not the session, holds the choice).
    user = get_user_model().objects.create_user("Алиса")
    browser.force_login(user)
    assert lang(browser, "/") == "ru"

    token2 = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token2 is not None
    browser.post(
        "/i18n/setlang/",
        {"language": "en", "next": "/players/", "csrfmiddlewaretoken": token2.group(1)},
    )
    assert lang(browser) == "en"


def test_the_switch_goes_back_only_to_this_site() -> None:
    browser = Client()
    response = browser.post("/i18n/setlang/", {"language": "ru", "next": "https://evil.example/"})
    assert response.status_code == 302 and "evil.example" not in response["Location"]
    assert browser.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    response = browser.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert browser.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"  # unknown: unchanged


def test_the_page_needs_no_inline_script_for_the_switch() -> None:
    html = Client().get("/players/").content.decode()
    form = html[html.index('data-testid="language-switch"') :]
    form = form[: form.index("</form>")]
    assert "onchange" not in form and "onclick" not in form and "<script" not in form
