"""Who is online, in the lobby of a real browser (Chromium) at 360 px: a member sees another
come online with a Challenge link to the challenge form, and go when their page closes; the
list fits the phone's width, in English and Russian."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login
from tests.browser.test_club import lobby, lobby_state

PHONE = {"width": 360, "height": 740}


def test_a_member_sees_another_come_online_and_go_with_a_challenge_link(
    browser: Any, server: Server
) -> None:
    alice_context = browser.new_context(viewport=PHONE)
    bob_context = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        login(alice_context, server, "alice")
        login(bob_context, server, "bob")
        alice = lobby(alice_context, server)
        online = alice.get_by_test_id("online")
        if lobby_state(alice)["online"]["names"]:  # a page of another test's, closing
            expect(online.locator("li")).to_have_count(0, timeout=15_000)
        expect(alice.get_by_text("No other member is online.")).to_be_visible()

        bob = lobby(bob_context, server)
        link = online.get_by_role("link", name="Challenge bob")
        expect(link).to_be_visible()
        assert link.get_attribute("href") == "/challenges/new/?opponent=bob"
        assert lobby_state(alice)["online"] == {"names": ["bob"], "more": 0}
        assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Bob, in Russian, sees Alice.
        expect(bob.get_by_text("Сейчас в клубе")).to_be_visible()
        expect(
            bob.get_by_test_id("online").get_by_role("link", name="Вызов: alice")
        ).to_be_visible()

        bob.close()
        expect(online.locator("li")).to_have_count(0)
        expect(alice.get_by_text("No other member is online.")).to_be_visible()
        assert not alice.errors  # type: ignore[attr-defined]
    finally:
        alice_context.close()
        bob_context.close()
