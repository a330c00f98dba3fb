"""A knockout in Chromium, in Russian, on a 360 px phone: an organiser opens it through the
form at /competitions/new/, three members enter with the page's button, the organiser seeds
them by hand (a number field each, by keyboard) and draws it (the top seed has a bye), the
semi-final is conceded at the table, then the final, and the page shows the bracket round by
round and the champion; no page scrolls sideways, and axe finds no violation on the form, the
seeding form, the drawn bracket or the finished one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_axe import axe_source, violations

__all__ = ["axe_source"]  # the fixture, shared with the axe's tests

PHONE = {"width": 360, "height": 740}


def phone(browser: Any, server: Server, username: str) -> Page:
    context = browser.new_context(viewport=PHONE, locale="ru", has_touch=True)
    login(context, server, username)
    return context.new_page()


def fits(page: Page) -> None:
    wide: int = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], (page.url, wide)


def concede_all(server: Server) -> list[int]:
    """Each competition match to be played now is conceded by its second player, through the
    match service: the matches."""
    out = server.manage(
        "import json\n"
        "from competitions.models import Pairing\n"
        "from game import service\n"
        "from game.protocol import client_in\n"
        "done = []\n"
        "for p in Pairing.objects.filter(fixture__status='to_play').select_related("
        "'fixture__match__player_b'):\n"
        "    m = p.fixture.match\n"
        "    service.submit(m.pk, m.player_b, client_in.Concede(type='concede',"
        " client_id=f'k{m.pk}', scope='match'))\n"
        "    done.append(m.pk)\n"
        "print(json.dumps(done))"
    )
    played: list[int] = json.loads(out.strip().splitlines()[-1])
    return played


def test_a_knockout_on_a_phone_in_russian(
    browser: Any, server: Server, artifacts: Path, axe_source: str
) -> None:
    server.manage(
        "from django.contrib.auth import get_user_model\n"
        "get_user_model().objects.filter(username='alice').update(is_staff=True)"
    )
    organiser = phone(browser, server, "alice")
    organiser.goto(f"{server.url}/competitions/new/")
    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.fill("[name=name]", "Spring cup")
    organiser.fill("[name=name_ru]", "Весенний кубок")
    organiser.fill("[name=best_of]", "1")
    organiser.fill("[name=entry_deadline]", "2030-01-01T12:00")
    organiser.get_by_test_id("open-competition").click()
    expect(organiser.get_by_test_id("competition-name")).to_have_text("Весенний кубок")
    address = organiser.url
    for name in ("alice", "bob", "carol"):
        page = organiser if name == "alice" else phone(browser, server, name)
        page.goto(address)
        page.get_by_test_id("enter").click()
        expect(page.get_by_test_id("withdraw")).to_be_visible()
        expect(page.get_by_test_id(f"entrant-{name}")).to_be_visible()
    # Carol's page stays open, never reloaded: it follows the draw
    # (competitions/views.py, `competition_live`), and her notices tell her of it.
    watcher = page
    watcher.wait_for_function("() => document.body.dataset.notices === 'open'")
    watcher.evaluate("() => { window.notReloaded = true; }")
    organiser.goto(address)
    # Seeded by hand, by keyboard: carol first (the bye), then bob; alice left unnumbered.
    organiser.get_by_test_id("seeding-hand").check()
    organiser.get_by_test_id("hand-seed-carol").fill("1")
    organiser.get_by_test_id("hand-seed-bob").focus()
    organiser.keyboard.type("2")
    organiser.keyboard.press("Enter")  # submits the form
    expect(organiser.get_by_test_id("seeding")).to_have_attribute("data-seeding", "hand")
    expect(organiser.get_by_test_id("hand-seed-bob")).to_have_value("2")
    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.screenshot(path=str(artifacts / "phone-competition-ru-seeding.png"), full_page=True)
    organiser.get_by_test_id("draw").click()
    expect(organiser.get_by_test_id("entrant-carol")).to_have_attribute("data-seed", "1")
    draw_line = organiser.get_by_test_id("action-draw").get_by_test_id("action-seeding")
    expect(draw_line).to_have_attribute("data-seeding", "hand")
    # (The results below are conceded from a script, outside the server's process: the
    # in-process socket test, tests/competitions/test_competitions_live.py, covers theirs.)
    expect(watcher.get_by_test_id("fixture-w1.1")).to_have_attribute("data-state", "waiting")
    expect(watcher.get_by_test_id("fixture-w1.0")).to_have_attribute("data-state", "bye")
    assert watcher.evaluate("() => window.notReloaded") is True
    # And its notices say so, in Russian (competitions/notices.py).
    drawn = watcher.get_by_test_id("toast").filter(has_text="жеребьёвка проведена")
    expect(drawn).to_contain_text("Весенний кубок: жеребьёвка проведена")
    bracket = organiser.get_by_test_id("bracket")
    expect(bracket).to_be_visible()
    expect(organiser.get_by_test_id("round-1")).to_contain_text("Полуфинал")
    expect(organiser.get_by_test_id("round-2")).to_contain_text("Финал")
    expect(organiser.get_by_test_id("fixture-w1.0")).to_have_attribute("data-state", "bye")
    expect(organiser.get_by_test_id("fixture-w1.1")).to_have_attribute("data-state", "waiting")
    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.screenshot(path=str(artifacts / "phone-competition-ru-drawn.png"), full_page=True)
    assert len(concede_all(server)) == 1  # the semi-final
    organiser.reload()
    expect(organiser.get_by_test_id("fixture-w1.1")).to_have_attribute("data-state", "finished")
    assert len(concede_all(server)) == 1  # the final
    organiser.reload()
    final = organiser.get_by_test_id("fixture-w2.0")
    expect(final).to_have_attribute("data-state", "finished")
    winner = final.get_attribute("data-winner")
    expect(organiser.get_by_test_id("champion")).to_have_attribute("data-winner", winner or "")
    expect(organiser.get_by_test_id("champion")).to_contain_text("Победитель турнира")

    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.screenshot(path=str(artifacts / "phone-competition-ru-won.png"), full_page=True)
    organiser.goto(f"{server.url}/competitions/")
    expect(organiser.get_by_test_id("finished-competitions")).to_contain_text("Весенний кубок")
    fits(organiser)


def test_a_round_robin_on_a_phone_in_russian(
    browser: Any, server: Server, artifacts: Path, axe_source: str
) -> None:
    """A round robin of three opened through the form, entered, drawn: its table and its
    rounds; every match conceded at the table, the champion; the table scrolls in its own box,
    never the page; axe finds nothing."""
    server.manage(
        "from django.contrib.auth import get_user_model\n"
        "get_user_model().objects.filter(username='alice').update(is_staff=True)"
    )
    organiser = phone(browser, server, "alice")
    organiser.goto(f"{server.url}/competitions/new/")
    organiser.fill("[name=name]", "Winter league")
    organiser.fill("[name=name_ru]", "Зимняя лига")
    organiser.select_option("[name=format]", "round_robin")
    organiser.fill("[name=best_of]", "1")
    organiser.fill("[name=groups]", "1")
    organiser.fill("[name=entry_deadline]", "2030-01-01T12:00")
    organiser.get_by_test_id("open-competition").click()
    expect(organiser.get_by_test_id("competition-name")).to_have_text("Зимняя лига")
    address = organiser.url
    for name in ("alice", "bob", "carol"):
        page = organiser if name == "alice" else phone(browser, server, name)
        page.goto(address)
        page.get_by_test_id("enter").click()
        expect(page.get_by_test_id(f"entrant-{name}")).to_be_visible()
    organiser.goto(address)
    organiser.get_by_test_id("draw").click()
    expect(organiser.get_by_test_id("standings")).to_be_visible()
    expect(organiser.get_by_test_id("standings")).to_contain_text("Таблица")
    for name in ("alice", "bob", "carol"):
        expect(organiser.get_by_test_id(f"standing-{name}")).to_be_visible()
    expect(organiser.get_by_test_id("round-3")).to_contain_text("Тур 3")
    expect(organiser.get_by_test_id("tie-breaks")).to_contain_text("разница партий")
    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.screenshot(path=str(artifacts / "phone-round-robin-ru-drawn.png"), full_page=True)
    assert len(concede_all(server)) == 3  # three of them: every match is open at once
    organiser.reload()
    champion = organiser.get_by_test_id("champion")
    expect(champion).to_be_visible()
    winner = champion.get_attribute("data-winner") or ""
    expect(organiser.get_by_test_id(f"standing-{winner}")).to_have_attribute("data-place", "1")
    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.screenshot(path=str(artifacts / "phone-round-robin-ru-won.png"), full_page=True)


def test_a_double_elimination_on_a_phone_in_russian(
    browser: Any, server: Server, artifacts: Path, axe_source: str
) -> None:
    """A double elimination of three, drawn through the service and its first match conceded:
    the winners' bracket, the losers' bracket and the grand final stacked on a phone, each a
    round at a time in Russian; no sideways scrolling, and axe finds nothing."""
    made = server.manage(
        "from datetime import timedelta\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.utils import timezone\n"
        "from competitions import service\n"
        "from rules.bracket import BestOf\n"
        "U = get_user_model().objects\n"
        "U.filter(username='alice').update(is_staff=True)\n"
        "alice = U.get(username='alice')\n"
        "now = timezone.now()\n"
        "row = service.open_competition(alice, 'Double cup', now, now + timedelta(days=1),"
        " name_ru='Кубок двух сеток', format='double', best_of=BestOf(1))\n"
        "for name in ('alice', 'bob', 'carol'):\n"
        "    service.enter(row.pk, U.get(username=name), now)\n"
        "service.draw(row.pk, alice, now, seed=1)\n"
        "print(row.pk)"
    )
    competition = int(made.strip().splitlines()[-1])
    assert len(concede_all(server)) == 1  # the first round's one match (the top seed's bye)
    page = phone(browser, server, "bob")
    page.goto(f"{server.url}/competitions/{competition}/")
    expect(page.get_by_test_id("competition-name")).to_have_text("Кубок двух сеток")
    for heading in ("Верхняя сетка", "Нижняя сетка", "Суперфинал"):
        expect(page.get_by_role("heading", name=heading, level=2)).to_be_visible()
    expect(page.get_by_test_id("round-2")).to_contain_text("Финал верхней сетки")
    expect(page.get_by_test_id("losers-round-1")).to_contain_text("Нижняя сетка, раунд 1")
    expect(page.get_by_test_id("losers-round-2")).to_contain_text("Финал нижней сетки")
    expect(page.get_by_test_id("grand-final-1")).to_contain_text("Суперфинал")
    expect(page.get_by_test_id("fixture-w1.1")).to_have_attribute("data-state", "finished")
    expect(page.get_by_test_id("fixture-l1.0")).to_have_attribute("data-state", "bye")
    expect(page.get_by_test_id("fixture-f1.0")).to_have_attribute("data-state", "waiting")
    fits(page)
    assert violations(page, axe_source) == []
    page.screenshot(path=str(artifacts / "phone-double-elimination-ru.png"), full_page=True)


def test_an_organisers_decisions_on_a_phone_in_russian(
    browser: Any, server: Server, artifacts: Path, axe_source: str
) -> None:
    """A match nobody came to, flagged: the organiser's decisions (a walkover, both out, a new
    deadline, a result played away) and the audit log fit a phone, axe finds nothing, and
    both out is shown as decided."""
    server.manage(
        "from datetime import timedelta\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.utils import timezone\n"
        "from competitions import service\n"
        "from fixtures.service import settle_due\n"
        "users = get_user_model().objects\n"
        "users.filter(username='alice').update(is_staff=True)\n"
        "org = users.get(username='alice')\n"
        "now = timezone.now()\n"
        "row = service.open_competition(org, 'Autumn cup', now, now + timedelta(days=1))\n"
        "for name in ('bob', 'carol'):\n"
        "    service.add_entrant(row.pk, users.get(username=name), org, now, note='by phone')\n"
        "service.draw(row.pk, org, now, seed=1)\n"
        "settle_due(now + timedelta(days=30), 10)\n"
    )
    organiser = phone(browser, server, "alice")
    organiser.goto(f"{server.url}/competitions/")
    organiser.get_by_role("link", name="Autumn cup").click()
    expect(organiser.get_by_test_id("fixture-w1.0")).to_have_attribute("data-state", "flagged")
    expect(organiser.get_by_test_id("both-out-w1.0")).to_be_visible()
    expect(organiser.get_by_test_id("audit-log")).to_contain_text("by phone")
    organiser.wait_for_selector("[data-live][data-reads]")  # the welcome's read has landed
    organiser.get_by_text("Записать результат матча").click()
    expect(organiser.get_by_test_id("record-w1.0-submit")).to_be_visible()
    fits(organiser)
    assert violations(organiser, axe_source) == []
    organiser.screenshot(path=str(artifacts / "phone-competition-ru-flagged.png"), full_page=True)
    organiser.get_by_test_id("both-out-w1.0").click()
    expect(organiser.get_by_test_id("fixture-w1.0")).to_have_attribute("data-state", "walkover")
    expect(organiser.get_by_test_id("action-both_out")).to_be_visible()
    fits(organiser)
