"""A NUL or a lone surrogate anywhere in a request answers 400, never 500 (issue 42).

PostgreSQL refuses a NUL in any text it is given (`GET /players/?q=%00`, `/players/a%00b/` and a
ladder challenge naming `a\\x00b` answered 500 there, 404 on SQLite). snooker_site/unreadable.py
refuses such a request before any view or the session reads it; the sockets' one parser
(game/protocol/client_in.py) refuses such a message with the protocol's `invalid`. The walk
below covers every URL pattern of the URLconf, each converter filled with a NUL, each page
asked with a NUL in its query and posted a NUL in every field of every form of the club; run
it on PostgreSQL too (DATABASE_URL).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django import forms
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from pydantic import BaseModel, ConfigDict, TypeAdapter

from club.protocol import client_in as club_in
from game.protocol import client_in

NUL = "a\x00b"
QUOTED = "a%00b"
INT = "1"


def _route(pattern: str, value: str) -> str:
    """A route's text with each converter filled: a number for `int`, `value` for the rest."""
    return re.sub(r"<(?:(\w+):)?\w+>", lambda m: INT if m[1] == "int" else value, pattern)


def _regex(pattern: str, value: str) -> str:
    text = re.sub(r"\(\?P<\w+>[^)]*\)", value, pattern)
    return text.lstrip("^").rstrip("$").replace("\\Z", "").replace("\\", "")


def _urls(patterns: list[URLPattern | URLResolver], prefix: str, value: str) -> Iterator[str]:
    for entry in patterns:
        match entry.pattern:
            case RoutePattern():
                here = prefix + _route(str(entry.pattern), value)
            case RegexPattern():
                here = prefix + _regex(str(entry.pattern), value)
            case _:  # pragma: no cover - a new kind of pattern: the walk must learn it
                raise AssertionError(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _urls(entry.url_patterns, here, value)
        else:
            yield "/" + here


def every_url(value: str) -> list[str]:
    return sorted(set(_urls(get_resolver().url_patterns, "", value)))


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


CLUB_APPS = ("accounts.", "club.", "computer.", "game.", "ladder.", "members.", "snooker_site.")


def every_field() -> set[str]:
    """The fields of every form of the club's apps, Django's auth forms they use, and the
    fields the views read from POST by hand."""
    names = {"next", "defender", "rated", "email", "note", "q", "page", "frame", "stroke"}
    for form in _subclasses(forms.BaseForm):
        module = form.__module__
        if module.startswith(CLUB_APPS) or module == "django.contrib.auth.forms":
            names |= set(getattr(form, "base_fields", {}))
    return names


@pytest.fixture
def member(client: Client, db: None) -> User:
    user = User.objects.create_superuser("alice", password="a long enough secret")
    client.force_login(user)
    return user


def test_the_walk_finds_the_club_s_pages_and_forms() -> None:
    urls = every_url(QUOTED)
    for expected in ("/players/a%00b/", "/ladder/a%00b/challenge/", "/match/1/", "/healthz"):
        assert expected in urls
    assert any(url.startswith("/admin/") for url in urls)
    assert {"username", "password1", "opponent", "name", "defender"} <= every_field()


@pytest.mark.usefixtures("member")
def test_a_nul_in_any_path_query_or_form_answers_400(client: Client) -> None:
    failures: list[str] = []
    data = dict.fromkeys(every_field(), NUL)
    for url in every_url(QUOTED):
        if QUOTED in url:
            answer = client.get(url)
            if answer.status_code != 400:
                failures.append(f"GET {url}: {answer.status_code}")
    for url in every_url("x"):
        for method, answer in (
            ("GET ?q", client.get(url, {"q": NUL, "next": NUL, "page": NUL})),
            ("GET key", client.get(url + "?a%00b=1")),
            ("POST", client.post(url, data)),
        ):
            if answer.status_code != 400:
                failures.append(f"{method} {url}: {answer.status_code}")
    assert not failures, failures


@pytest.mark.usefixtures("member")
def test_the_reported_requests_answer_the_club_s_400_page(client: Client) -> None:
    for answer in (
        client.get("/players/?q=%00"),
        client.get("/players/a%00b/"),
        client.post("/ladder/club/challenge/", {"defender": NUL}),
    ):
        assert answer.status_code == 400
        assert "Bad request" in answer.content.decode()
    russian = client.get("/players/?q=%00", headers={"accept-language": "ru"})
    assert russian.status_code == 400 and "Bad request" not in russian.content.decode()


def test_a_nul_in_the_session_cookie_is_refused_before_the_session_is_read(
    client: Client, db: None
) -> None:
    # The cookie's octal escape, which Django's parse_cookie unquotes into a NUL.
    cookie = 'sessionid="\\000abcdefghijklmnop"'
    assert client.get("/", HTTP_COOKIE=cookie).status_code == 400


@pytest.mark.usefixtures("member")
def test_a_lone_surrogate_in_a_form_answers_400(client: Client) -> None:
    # A form's bytes are decoded leniently (a broken sequence becomes U+FFFD); a decoded
    # surrogate can only come from an escape, as in a socket's JSON, but the rule is one.
    from django.test import RequestFactory

    from snooker_site.unreadable import UnreadableRefused

    request = RequestFactory().get("/players/", {"q": "x"})
    request.GET = request.GET.copy()
    request.GET["q"] = "a\ud800b"
    answer = UnreadableRefused(lambda r: None).process_request(request)  # type: ignore[arg-type]
    assert answer is not None and answer.status_code == 400


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (client_in.parse, '{"type": "concede", "client_id": "a\\u0000b", "scope": "frame"}'),
        (client_in.parse, '{"type": "ping", "version": 1, "extra": "\\u0000"}'),
        (club_in.parse, '{"type": "hello", "protocol": 1, "x": "\\u0000"}'),
        (client_in.parse, '{"type": "concede", "client_id": "a\\ud800", "scope": "frame"}'),
    ],
)
def test_a_socket_message_with_a_nul_or_surrogate_is_the_protocol_s_error(
    parse: object, text: str
) -> None:
    with pytest.raises(client_in.BadMessage) as refused:
        parse(text)  # type: ignore[operator]
    assert refused.value.code in {"invalid", "bad_json"}
    assert refused.value.client_id is None  # never echoed back with its NUL


class _Free(BaseModel):
    """A message with free text, which no socket has yet: the parser's own guard."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: str
    client_id: str


def test_the_parser_refuses_a_nul_that_validated() -> None:
    adapter: TypeAdapter[_Free] = TypeAdapter(_Free)
    ok = client_in.parse_with(adapter, 1024, '{"type": "say", "client_id": "c1"}')
    assert ok.client_id == "c1"
    with pytest.raises(client_in.BadMessage) as refused:
        client_in.parse_with(adapter, 1024, '{"type": "say\\u0000", "client_id": "c1"}')
    assert refused.value.code == "invalid" and refused.value.client_id == "c1"
    with pytest.raises(client_in.BadMessage):
        client_in.parse_with(adapter, 1024, '{"type": "say", "client_id": "\\u0000"}')
