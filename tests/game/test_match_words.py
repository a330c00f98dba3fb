"""The match's words for people (game/text.py): a refusal on the socket says, in the language
of the socket's page, what a person can read (its code stays the protocol's); the referee's
calls worded from a ruling (game/words.py, the table's catalogue) are, in English, the
referee's own."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import translation

from game.protocol.server_out import RulingOut
from game.text import ERRORS, error_text, language_of
from game.words import ball_name, calls
from rules import referee
from rules.state import FrameState, make_balls
from tests.game.helpers import as_user


@pytest.mark.parametrize(
    ("scope", "language"),
    [
        ({}, "en"),
        ({"headers": [(b"accept-language", b"ru-RU,ru;q=0.9,en;q=0.8")]}, "ru"),
        ({"headers": [(b"accept-language", b"de-DE,de;q=0.9")]}, "en"),
        ({"headers": [(b"accept-language", b"de, ru;q=0.5")]}, "ru"),
        ({"headers": [(b"accept-language", b";;;q=x,,")]}, "en"),
        # The switch's cookie wins over the browser's languages, as on the pages.
        ({"cookies": {"django_language": "ru"}, "headers": [(b"accept-language", b"en")]}, "ru"),
        ({"cookies": {"django_language": "en"}, "headers": [(b"accept-language", b"ru")]}, "en"),
    ],
)
def test_the_language_of_a_socket(scope: dict[str, Any], language: str) -> None:
    assert language_of(scope) == language


@pytest.mark.django_db(transaction=True)
async def test_a_refusal_in_russian(match: Any) -> None:
    headers = [(b"origin", b"http://testserver"), (b"accept-language", b"ru")]
    ws = WebsocketCommunicator(as_user(None), f"/ws/match/{match.pk}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    try:
        await ws.send_json_to({"type": "ping", "version": 0})
        refusal = await ws.receive_json_from(timeout=5)
        assert refusal["type"] == "error" and refusal["code"] == "hello_first"
        assert refusal["message"] == "Страница ещё не подключилась к столу; обновите страницу."
    finally:
        await ws.disconnect()


def test_every_code_the_protocol_documents_has_words() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    section = doc[doc.index("| code | meaning |") : doc.index("An unknown match closes")]
    rows = [row.split("|")[1] for row in section.splitlines()[2:] if row.startswith("|")]
    codes = {code for row in rows for code in re.findall(r"`(\w+)`", row)}
    assert len(codes) > 20 and codes <= set(ERRORS), codes - set(ERRORS)
    with translation.override("en"):
        assert error_text("weird") == "That cannot be done."
        assert error_text("invalid", "angle: not a number").endswith("(angle: not a number)")


def ruled(**fields: Any) -> RulingOut:
    """A stored ruling with these fields (the rest: nothing happened)."""
    base: dict[str, Any] = dict(
        foul=False, fouls=[], penalty=0, miss=False, points=0, nominated=None, respotted={},
        choices=[], free_ball=False, touching=None, warning=False, frame_over=False,
        winner=None, respotted_black=False, calls=[],
    )  # fmt: skip
    return RulingOut(**(base | fields))


def test_the_calls_are_the_referees_in_english_and_the_rule_books_in_russian() -> None:
    for foul, miss, warning, free, touching, respotted, over in itertools.product(
        (False, True), repeat=7
    ):
        ruling = referee.Ruling(
            foul=foul, penalty=5 if foul else 0, miss=miss, warning=warning,
            respotted_black=respotted,
        )  # fmt: skip
        after = FrameState(
            balls=make_balls({}), striker="A", free_ball=free,
            touching="red3" if touching else None, frame_over=over,
        )  # fmt: skip
        # As the stored ruling (game.protocol.server_out.RulingOut) carries them.
        out = ruled(
            foul=foul, penalty=ruling.penalty, miss=miss, warning=warning, free_ball=free,
            touching=None if over else after.touching, respotted_black=respotted, frame_over=over,
        )  # fmt: skip
        with translation.override("en"):
            assert calls(out) == list(referee.calls(ruling, after))
        with translation.override("ru"):
            words = " ".join(calls(out))
            assert not re.search(r"[A-Za-z]", words), words
    with translation.override("ru"):
        assert calls(ruled(foul=True, penalty=4, miss=True, free_ball=True)) == [
            "НАРУШЕНИЕ, ШТРАФ 4", "ПРОМАХ", "СВОБОДНЫЙ ШАР",
        ]  # fmt: skip
        assert [ball_name(b) for b in ("red7", "pink", "white")] == ["красный", "розовый", "биток"]


def test_every_foul_the_referee_calls_has_words_in_both_languages() -> None:
    # The page words each of a ruling's `fouls` by its kind (static/js/story.js, `foul.<kind>`);
    # static/js/tests/i18n.test.js holds ru.js to en.js's keys, this holds both to the referee.
    lang = Path(__file__).resolve().parents[2] / "static" / "js" / "lang"
    kinds = {referee.Call(foul, 4).kind for foul in referee.Foul}
    for catalogue in ("en.js", "ru.js"):
        worded = set(re.findall(r'"foul\.(\w+)":', (lang / catalogue).read_text("utf-8")))
        assert kinds <= worded, (catalogue, kinds - worded)
