"""The hint on a practice table (computer/views.py `hint`): the Pro's stroke for the member
at their own practice table, nobody else's, a few a minute."""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from club.service import practise
from computer import driver, thinking
from computer.service import play_computer
from rules.match import match_from_json
from rules.opponent import LEVELS
from rules.opponent.player import decide
from tests.computer.test_computer import seats

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def thinking_in_a_thread():  # type: ignore[no-untyped-def]
    driver.use_pool(ThreadPoolExecutor(max_workers=1))
    yield
    driver.use_pool(None)


def logged_in(name: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(name, password="pw")
    client = Client()
    client.force_login(user)
    return client, user


def test_the_member_at_their_practice_table_gets_the_pros_stroke(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The server's search stops at its clock, which a loaded machine reaches sooner: counted in
    # simulations only, as the computer's own tests count it, a hint is reproducible.
    monkeypatch.setattr(
        thinking, "_decide",
        lambda state, seat, level, seed: decide(
            match_from_json(state), seat, LEVELS[level], random.Random(seed)
        ),
    )  # fmt: skip
    page, alice = logged_in("alice")
    table = practise(alice, 1)  # type: ignore[arg-type]
    response = page.post(f"/computer/hint/{table.pk}/")
    assert response.status_code == 200
    hint = response.json()
    to_act = match_from_json(table.state).frame.to_act  # the draw's winner breaks
    assert hint["version"] == table.version and hint["seat"] == to_act
    # The break-off: from the D (a placement), at a red, the cue ball's planned stop on the table.
    assert hint["kind"] == "break"
    assert hint["aim"]["cue_ball"] is not None and hint["aim"]["speed"] > 0
    x, y = hint["leave"]
    assert abs(x) < 900 and abs(y) < 1800
    # The same position, the same hint (seeded by the match and its version).
    assert page.post(f"/computer/hint/{table.pk}/").json() == hint


def test_nobody_else_gets_a_hint_and_no_hint_against_the_computer() -> None:
    seats()
    page, alice = logged_in("alice")
    other, _ = logged_in("bob")
    table = practise(alice, 1)  # type: ignore[arg-type]
    assert other.post(f"/computer/hint/{table.pk}/").json()["code"] == "not_yours"
    assert other.post(f"/computer/hint/{table.pk}/").status_code == 403
    assert Client().post(f"/computer/hint/{table.pk}/").status_code == 403
    against = play_computer(alice, "pro", 1)  # type: ignore[arg-type]
    response = page.post(f"/computer/hint/{against.pk}/")
    assert response.status_code == 403 and response.json()["code"] == "not_yours"
    assert page.get(f"/computer/hint/{table.pk}/").status_code == 405
    assert page.post("/computer/hint/999999/").status_code == 404


def test_hints_are_rate_limited(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    settings.COMPUTER = {**settings.COMPUTER, "HINTS_PER_MINUTE": 1}
    # The throttle counts in windows of a minute: a first hint thought for seconds on a busy
    # machine let the second fall into the next window now and then. Its clock stands still.
    now = time.time()
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: now))
    page, alice = logged_in("alice")
    table = practise(alice, 1)  # type: ignore[arg-type]
    assert page.post(f"/computer/hint/{table.pk}/").status_code == 200
    refused = page.post(f"/computer/hint/{table.pk}/")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_no_hint_once_the_table_is_finished() -> None:
    from game.models import Match

    page, alice = logged_in("alice")
    table = practise(alice, 1)  # type: ignore[arg-type]
    Match.objects.filter(pk=table.pk).update(status=Match.Status.FINISHED)
    response = page.post(f"/computer/hint/{table.pk}/")
    assert response.status_code == 409 and response.json()["code"] == "no_stroke"


def test_the_table_offers_the_hint_to_its_member_alone() -> None:
    seats()
    page, alice = logged_in("alice")
    other, _ = logged_in("bob")
    table = practise(alice, 1)  # type: ignore[arg-type]
    mine = page.get(f"/match/{table.pk}/").content.decode()
    assert f'data-hint="/computer/hint/{table.pk}/"' in mine and "data-csrf=" in mine
    assert "data-hint=" not in other.get(f"/match/{table.pk}/").content.decode()
    against = play_computer(alice, "novice", 1)  # type: ignore[arg-type]
    assert "data-hint=" not in page.get(f"/match/{against.pk}/").content.decode()
