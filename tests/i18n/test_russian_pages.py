"""Every page of the club in Russian, as a browser asking for Russian gets it: `lang="ru"` and
no English word left in what a person reads (tests/i18n/visible.py). The members here have
Cyrillic names, so any word in Latin letters is English that escaped translation.

(What the match page's scripts write later is the browser's catalogue's; the words they are
sent from the server, the club's catalogue and the refusals, are checked here.)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import limits
from club import service
from club.models import Challenge
from game import service as game_service
from game.models import Match
from rules.challenges import Format
from tests.i18n.visible import latin_words, read
from tests.members.helpers import store

pytestmark = pytest.mark.django_db
PASSWORD = "зеленое-сукно-77"


@dataclass
class Club:
    alisa: User
    boris: User
    vera: User
    finished: Match
    live: Match
    incoming: Challenge  # Boris challenges Alisa
    outgoing: Challenge  # Alisa challenges Vera
    open: Challenge  # Vera challenges anyone
    invitation: Challenge  # Alisa's link for a guest


@pytest.fixture
def club(db: None) -> Club:
    users = get_user_model().objects
    alisa = users.create_user("Алиса", "alisa@example.org", PASSWORD)
    boris, vera = users.create_user("Борис"), users.create_user("Вера")
    finished = store("stats_century", alisa, boris)
    finished.refresh_from_db()
    return Club(
        alisa=alisa,
        boris=boris,
        vera=vera,
        finished=finished,
        live=game_service.create_match(alisa, boris, 3),
        incoming=service.challenge(boris, alisa, Format(3, rated=True)).challenge,
        outgoing=service.challenge(alisa, vera, Format(1, 30)).challenge,
        open=service.challenge(vera, None, Format(5, 45)).challenge,
        invitation=service.invite(alisa, Format(3)).challenge,
    )  # type: ignore[arg-type]


def russian(user: User | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.5")
    if user is not None:
        client.force_login(user)
    return client


def check(html: str, where: str, fragment: bool = False) -> str:
    lang, text = read(html, "ru")
    assert lang == (None if fragment else "ru"), where
    left = latin_words(text)
    assert not left, f"{where}: English left in the Russian page: {sorted(set(left))}\n{text}"
    block = re.search(r'<script id="club-page" type="application/json">(.*?)</script>', html)
    if block is not None:  # the words the club's scripts show
        for key, value in json.loads(block.group(1))["text"].items():
            for words in value.values() if isinstance(value, dict) else [value]:
                assert not latin_words(re.sub(r"%\(\w+\)s", "", words)), (where, key, words)
    return text


def get(client: Client, url: str, status: int = 200, fragment: bool = False) -> str:
    response = client.get(url, follow=True)
    assert response.status_code == status, (url, response.status_code)
    return check(response.content.decode(), url, fragment)


def post(client: Client, url: str, data: dict[str, Any], status: int) -> str:
    response = client.post(url, data)
    assert response.status_code == status, (url, response.status_code)
    return check(response.content.decode(), f"POST {url}")


# --- the club ------------------------------------------------------------------------------------
def test_the_lobby_and_the_challenges(club: Club) -> None:
    alisa = russian(club.alisa)
    text = get(alisa, "/")
    assert "Борис вызывает вас" in text and "Ваш вызов: Вера" in text
    assert "Открытый вызов: Вера" in text and "из 5 партий · 45 с на удар" in text
    assert "Алиса — Борис" in text and "из 1 партии · 30 с на удар · товарищеский" in text
    get(russian(), "/")  # a visitor's lobby
    for challenge in (club.incoming, club.outgoing, club.invitation):
        get(alisa, f"/challenges/{challenge.pk}/")
    get(russian(), f"/challenges/{club.open.pk}/")
    get(alisa, f"/challenges/{club.open.pk}/")
    get(alisa, "/challenges/new/?opponent=Вера")
    text = post(alisa, "/challenges/new/", {"opponent": "Никто", "best_of": 3}, 200)
    assert "В клубе нет никого по имени Никто." in text
    get(alisa, "/challenges/invite/")
    get(alisa, "/practice/")
    assert "Зачистка цветных" in get(alisa, "/practice/drills/")
    refused = post(russian(club.vera), f"/challenges/{club.open.pk}/accept/", {}, 409)
    assert "Нельзя принять собственный вызов." in refused


def test_the_position_editor_and_a_saved_position(club: Club) -> None:
    from club import positions

    alisa = russian(club.alisa)
    text = get(alisa, "/practice/position/")
    assert "Редактор позиций" in text and "Стандартная расстановка" in text
    balls = {"white": [0, -1000], "red1": [100, 900], "black": [0, 1460.5]}
    saved = positions.save(club.alisa, "Длинный красный", {"balls": balls, "striker": "B"})
    text = get(russian(), f"/practice/position/{saved.pk}/")
    assert "Бьёт игрок Б" in text and "1 красный на столе" in text
    get(alisa, f"/practice/position/{saved.pk}/")


def test_an_invitation(club: Club) -> None:
    link = f"/invite/{service.invitation_token(club.invitation)}/"
    text = get(russian(), link)
    assert "Алиса приглашает вас сыграть в снукер" in text
    get(russian(club.alisa), link)
    get(russian(club.boris), link)
    text = post(russian(), link, {"name": "!"}, 400)  # a name the club refuses
    assert "Имя из 1–20 букв" in text


def test_the_live_table_and_the_end_of_a_match(club: Club) -> None:
    text = get(russian(club.alisa), f"/match/{club.live.pk}/")
    # The live table's words are the page script's (static/js/i18n.js, in the page's lang;
    # tests/browser/test_table_ux.py reads them in Russian): here, what the server writes.
    assert "Для игры за столом нужен JavaScript." in text
    get(russian(), f"/match/{club.live.pk}/")
    text = get(russian(club.alisa), f"/match/{club.finished.pk}/end/", fragment=True)
    assert "Серии от 50 очков" in text and "Предложить реванш" in text


def test_the_records(club: Club) -> None:
    visitor = russian()
    text = get(visitor, f"/match/{club.finished.pk}/")
    assert "Матч выигрывает Борис" in text and "Протокол судьи" in text
    assert "НАРУШЕНИЕ, ШТРАФ 4" in text and "ПАРТИЯ ОКОНЧЕНА" in text
    assert "первое касание: красный" in text
    html = visitor.get(f"/match/{club.finished.pk}/replay/?frame=1").content.decode()
    check(html, "replay")
    steps = json.loads(re.findall(r'id="replay-data" type="application/json">(.*?)<', html)[0])
    calls = [c for step in steps["steps"] for c in step["calls"]]
    assert "ПАРТИЯ ОКОНЧЕНА" in calls and not latin_words(" ".join(calls))
    text = get(visitor, "/players/")
    assert "Члены клуба" in text
    get(visitor, "/players/?q=ал")
    assert "Ни в одном имени нет «Ъ»." in get(visitor, "/players/?q=Ъ")
    text = get(russian(club.boris), "/players/Алиса/")
    assert "В клубе с" in text and "Статистика" in text and "Играет сейчас" in text


# --- accounts ------------------------------------------------------------------------------------
def test_logging_in_and_joining(club: Club) -> None:
    get(russian(), "/accounts/login/")
    post(russian(), "/accounts/login/", {"username": "Алиса", "password": "неверный"}, 200)
    get(russian(), "/accounts/signup/")
    text = post(
        russian(),
        "/accounts/signup/",
        {"username": "Aлиса", "password1": PASSWORD, "password2": "другой"},  # a Latin A
        200,
    )
    assert "смешаны алфавиты" in text


def test_the_password_pages_and_the_reset_mail(club: Club) -> None:
    alisa = russian(club.alisa)
    get(alisa, "/accounts/password_change/")
    get(alisa, "/accounts/password_change/done/")
    visitor = russian()
    get(visitor, "/accounts/password_reset/")
    response = visitor.post("/accounts/password_reset/", {"email": "alisa@example.org"})
    assert response.status_code == 302
    get(visitor, "/accounts/password_reset/done/")
    [sent] = mail.outbox
    body = re.sub(r"\S+://\S+", "", sent.body).replace("testserver", "")
    assert not latin_words(sent.subject + " " + body), sent.subject + sent.body
    assert "Алиса" in sent.body and sent.subject == "Ваш пароль в Снукер-клубе"
    uid = urlsafe_base64_encode(force_bytes(club.alisa.pk))
    token = default_token_generator.make_token(club.alisa)
    assert "Выберите новый пароль" in get(visitor, f"/accounts/reset/{uid}/{token}/")
    assert "больше не действует" in get(russian(), f"/accounts/reset/{uid}/не-тот/")
    get(visitor, "/accounts/reset/done/")


def test_refused_for_too_many(club: Club, settings: Any) -> None:
    settings.SNOOKER_SIGNUP_RATE = "1/h"
    visitor = russian()
    data = {"username": "Глеб", "password1": PASSWORD, "password2": PASSWORD}
    assert visitor.post("/accounts/signup/", data).status_code == 302
    text = post(russian(), "/accounts/signup/", {**data, "username": "Дина"}, 429)
    assert "слишком много запросов на регистрацию" in text
    assert re.search(r"через \d+ минут[уы]?\.", text)
    factory = RequestFactory(HTTP_ACCEPT_LANGUAGE="ru")
    for what, seconds in (("login", 900), ("password reset", 60), ("search", 125),
                          ("replay", 3000), ("other", 120)):  # fmt: skip
        request = factory.get("/")
        request.user = club.vera
        with translation.override("ru"):
            response = limits.too_many(request, what, seconds)
        text = check(response.content.decode(), what)
    assert "через 2 минуты" in text


def test_the_error_pages(club: Club) -> None:
    assert "Не найдено" in get(russian(), "/players/Никто/", status=404)
    get(russian(club.alisa), "/нет/такой/страницы/", status=404)
    with translation.override("ru"):
        check(render_to_string("500.html"), "500")
        for page in ("400.html", "403.html"):
            request = RequestFactory().get("/")
            request.user = club.alisa
            check(render_to_string(page, request=request), page)


def test_a_wrong_address_under_debug_is_the_clubs_404_page(club: Club, settings: Any) -> None:
    """DEBUG is on by default (`make run`): a wrong address, or a record that is not there,
    is still the club's page in the visitor's language, not Django's technical one."""
    settings.DEBUG = True
    for path in ("/нет/такой/страницы/", "/players/Никто/", "/match/999/"):
        text = get(russian(), path, status=404)
        assert "Не найдено" in text and "URLconf" not in text, path
    english = Client().get("/no/such/page/")
    assert english.status_code == 404
    assert 'data-testid="not-found"' in english.content.decode()
    assert "URLconf" not in english.content.decode()
    # Django's redirect to the address with its slash comes first.
    assert Client().get("/players").status_code == 301


def test_a_guests_name_in_the_header_is_in_russian(club: Club) -> None:
    done = service.accept_invitation(service.invitation_token(club.invitation), None, "Гоша")
    assert done.user is not None and done.match is not None
    text = get(russian(done.user), f"/match/{done.match.pk}/")
    assert "Гоша (гость)" in text and "guest" not in text
