"""The match page's language: its `<html lang>`, which the browser's words follow
(static/js/i18n.js). Django's choice for the request, the browser's Accept-Language while no
LocaleMiddleware is installed, and `?lang=` over both."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def lang(client: Client, path: str, **headers: str) -> str:
    page = client.get(path, **headers).content.decode()
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("query", "accept", "expected"),
    [
        ("", "ru-RU,ru;q=0.9", "ru"),
        ("?lang=ru", "", "ru"),
        ("?lang=en", "ru", "en"),
        ("?lang=xx", "ru", "ru"),  # not a language of the site: the browser's
    ],
)
def test_the_page_speaks_the_asked_language(
    client: Client, match, query: str, accept: str, expected: str
) -> None:
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    assert lang(client, f"/match/{match.pk}/{query}", **headers).startswith(expected)


def test_without_asking_the_site_default(client: Client, match) -> None:
    assert lang(client, f"/match/{match.pk}/").startswith("en")
