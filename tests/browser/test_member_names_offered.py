"""Members' names offered as a challenge's opponent is typed, in Russian, by keyboard: on the
lobby's quick challenge (1280×800) and on the challenge page (a 390×844 phone); the names
come from /member-names/ (members/views.py) into the field's <datalist>."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
OPTIONS = "() => [...document.querySelectorAll('#member-names option')].map((o) => o.value)"


def test_the_lobby_offers_names_and_sends_the_challenge(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ru")
    login(context, server, "carol")
    page = context.new_page()
    page.goto(f"{server.url}/")
    field = page.get_by_test_id("quick-opponent")
    field.focus()
    page.keyboard.type("A")  # Alice's "a", in another case
    page.wait_for_function(f"() => ({OPTIONS})().includes('alice')")
    assert "carol" not in page.evaluate(OPTIONS)
    page.keyboard.type("lic")
    page.wait_for_function(f"() => ({OPTIONS})().join() === 'alice'")
    page.keyboard.press("Backspace")
    page.keyboard.type("ce")
    expect(field).to_have_value("Alice")
    page.keyboard.press("Enter")  # the form sent from the keyboard: the challenge's page
    expect(page).to_have_url(re.compile(r"/challenges/\d+/$"))
    expect(page.locator("main")).to_contain_text("alice")
    context.close()


def test_the_challenge_page_offers_names_on_a_phone(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru", has_touch=True)
    login(context, server, "carol")
    page = context.new_page()
    page.goto(f"{server.url}/challenges/new/")
    field = page.locator("input[name=opponent]")
    expect(field).to_have_attribute("list", "member-names")
    field.focus()
    page.keyboard.type("bo")
    page.wait_for_function(f"() => ({OPTIONS})().join() === 'bob'")
    context.close()
