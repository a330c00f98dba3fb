"""A ladder's chat room in Chromium (static/js/site.js on the page's notices socket,
docs/chat.md): two members of the ladder on its page, one on a desktop in English, the other
on a 360 px phone in Russian; a line said by the keyboard on one appears on the other's open
page, and on a visitor's, who reads it without a field. Under the site's
Content-Security-Policy, with no violation, and none of axe's with the room's lines shown."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server
from tests.browser.test_axe import axe_source  # noqa: F401  # a fixture
from tests.browser.test_axe import violations as axe_violations
from tests.browser.test_csp import violations, watched
from tests.browser.test_ladder import sign_up

PHONE = {"width": 360, "height": 740}


def test_a_line_on_a_ladders_page_reaches_another_members_open_page(
    browser: Any,
    server: Server,
    axe_source: str,  # noqa: F811
) -> None:
    fay_context, _ = watched(browser)
    gus_context = browser.new_context(viewport=PHONE, locale="ru-RU")
    visitor_context, _ = watched(browser)
    try:
        fay = sign_up(fay_context, server, "fay")
        gus = sign_up(gus_context, server, "gus")
        pages = []
        for page in (fay, gus):
            page.goto(f"{server.url}/ladder/")
            page.get_by_test_id("join-ladder").click()
            expect(page.get_by_test_id("my-position")).to_be_visible()
            page.wait_for_function("() => document.body.dataset.notices === 'open'")
            pages.append(page)
        visitor = visitor_context.new_page()
        visitor.goto(f"{server.url}/ladder/")
        visitor.wait_for_function("() => document.body.dataset.notices === 'open'")
        expect(gus.get_by_test_id("chat-room")).to_have_text("Лестница")
        expect(visitor.get_by_test_id("chat-form")).to_be_hidden()
        expect(visitor.get_by_test_id("chat-read-only")).to_be_visible()

        field = fay.get_by_test_id("chat-text")
        field.focus()
        field.fill("who plays me this week?")
        field.press("Enter")  # the keyboard sends it
        for page in (gus, visitor):
            expect(page.get_by_test_id("chat-lines").locator("li").last).to_contain_text(
                "fay who plays me this week?"
            )
        reply = gus.get_by_test_id("chat-text")
        reply.focus()
        reply.fill("я, в четверг")
        reply.press("Enter")
        expect(fay.get_by_test_id("chat-lines").locator("li").last).to_contain_text(
            "gus я, в четверг"
        )
        assert [(s["author"], s["text"]) for s in visitor.evaluate("pageChat()")] == [
            ("fay", "who plays me this week?"), ("gus", "я, в четверг"),
        ]  # fmt: skip
        assert gus.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert violations(fay) == [] and violations(visitor) == []
        for page in (gus, visitor):
            assert axe_violations(page, axe_source) == []
    finally:
        for context in (fay_context, gus_context, visitor_context):
            context.close()
