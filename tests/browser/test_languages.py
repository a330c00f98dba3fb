"""English and Russian in Chromium: a browser that asks for Russian gets it; the switch in the
header changes the language and the browser keeps the choice; no inline script, no CSP
violation on the way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login
from tests.browser.test_csp import violations, watched
from tests.browser.test_match_page import DESKTOP


def test_a_russian_browser_gets_russian(browser: Any, server: Server, artifacts: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h1")).to_have_text("Снукер-клуб")
    expect(page.get_by_test_id("lobby-connection")).to_have_text("На связи")  # the script's words
    page.screenshot(path=str(artifacts / "lobby-ru-1280x800.png"), full_page=True)
    context.close()


def test_the_switch_in_the_header(browser: Any, server: Server) -> None:
    context, console = watched(browser)
    login(context, server, "carol")
    page = context.new_page()
    page.goto(f"{server.url}/players/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("language-en")).to_be_disabled()
    page.get_by_test_id("language-ru").click()
    page.wait_for_url(f"{server.url}/players/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h1")).to_have_text("Члены клуба")
    expect(page.get_by_test_id("language-ru")).to_have_attribute("aria-pressed", "true")
    # Remembered: another page, and a reload.
    page.goto(f"{server.url}/")
    expect(page.get_by_test_id("incoming-section").locator("h2")).to_have_text("Вызовы вам")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert violations(page) == [] and console == []
    # And back.
    page.get_by_test_id("language-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("incoming-section").locator("h2")).to_have_text("Challenges for you")
    context.close()
