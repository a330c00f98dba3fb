"""The smaller wording faults of issue 23, each held: a guest's marker and a ladder's name in
the page's language, "best of 3" as a match of 3 frames, names kept in the nominative,
Russian dates, refusals in words and never as codes."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.utils import translation

from club import service
from club import text as club_text
from game import text as game_text
from ladder.models import Ladder
from rules.challenges import Format
from tests.members.helpers import store
from tests.pages import unwrap_names

pytestmark = pytest.mark.django_db

MONTHS_GENITIVE = (
    "января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря"
)


def client(lang: str) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=lang)


def test_a_guests_marker_is_in_the_pages_language() -> None:
    alisa = get_user_model().objects.create_user("Алиса", password=None)
    token = service.invitation_token(service.invite(alisa, Format(3)).challenge)
    done = service.accept_invitation(token, AnonymousUser(), "Гоша")
    guest = done.match.player_b if done.match.player_a == alisa else done.match.player_a
    assert guest.get_username() == "Гоша (guest)"  # the stored marker: data, not words
    with translation.override("ru"):
        assert game_text.player_name("Гоша (guest)") == "Гоша (гость)"
        assert game_text.player_name("Гоша (guest 42)") == "Гоша 42 (гость)"
        assert game_text.player_name("Алиса") == "Алиса"
        assert club_text.catalog()["guest_name"] == "%(name)s (гость)"
    with translation.override("en"):
        assert game_text.player_name("Гоша (guest)") == "Гоша (guest)"
    # The lobby's row of their match, as the server renders it for a Russian page.
    russian = client("ru")
    russian.force_login(alisa)
    lobby = unwrap_names(russian.get("/").content.decode())
    assert "Алиса — Гоша (гость)" in lobby and "(guest)" not in lobby


def test_the_ladders_name_and_format_in_russian() -> None:
    main = Ladder.objects.get(main=True)
    # The migration gave the club's main ladder its Russian name.
    assert (main.name, main.name_ru) == ("Club ladder", "Лестница клуба")
    for n, words in ((3, "Матч из 3 партий"), (1, "Матч из 1 партии"), (5, "Матч из 5 партий")):
        Ladder.objects.filter(pk=main.pk).update(best_of=n)
        page = client("ru").get("/ladder/").content.decode()
        assert words in page and "Матч до" not in page
    ru = client("ru").get("/ladder/").content.decode()
    assert re.search(r"<h1[^>]*>Лестница клуба</h1>", ru) and "Club ladder" not in ru
    en = client("en").get("/ladder/").content.decode()
    assert re.search(r"<h1[^>]*>Club ladder</h1>", en)
    with translation.override("ru"):
        assert str(main) == "Лестница клуба"
        main.name_ru = ""
        assert main.shown_name == "Club ladder"  # no Russian name given: the one there is


def test_dates_are_written_in_russian() -> None:
    users = get_user_model().objects
    alisa, boris = users.create_user("Алиса"), users.create_user("Борис")
    match = store("stats_century", alisa, boris)
    page = client("ru").get(f"/match/{match.pk}/").content.decode()
    assert re.search(rf">\d{{1,2}} ({MONTHS_GENITIVE}) \d{{4}}</time>", page), page
    assert not re.search(r"\d (Янв|Фев|Мар|Апр|Май|Июн|Июл|Авг|Сен|Окт|Ноя|Дек)\w* \d{4}", page)
    english = client("en").get(f"/match/{match.pk}/").content.decode()
    assert re.search(r">\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}<", english)
    profile = client("ru").get("/players/Алиса/").content.decode()
    assert re.search(rf"В клубе с ({MONTHS_GENITIVE}) \d{{4}}", profile)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_refusal_never_shows_its_code(lang: str) -> None:
    with translation.override(lang):
        for words in (game_text.error_text("no_such_code"), club_text.error_text("no_such_code")):
            assert "no_such_code" not in words and words
        assert "not_your_turn" not in game_text.error_text("not_your_turn")
