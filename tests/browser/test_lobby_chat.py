"""The lobby's chat room in Chromium (static/js/chatpanel.js on the lobby's socket,
docs/chat.md): two members talk, by the keyboard, one on a desktop in English, the other on a
360 px phone in Russian; a line is shown as text, never as markup, and no script runs; an
organiser deletes a line in the admin and it leaves both open pages without a reload; past
the room's rate the page holds Send a moment, the line kept in the field."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login
from tests.browser.test_club import lobby, lobby_state

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
MARKUP = "<img src=x onerror=alert(1)>"
# The lobby takes two lines a minute here: the test's third is past the room's rate.
SERVER_ENV = {"SNOOKER_CHAT_ROOM_RATE": "2/m"}


def test_two_members_talk_in_the_lobby(browser: Any, server: Server) -> None:
    alice_context = browser.new_context(viewport=DESKTOP)
    bob_context = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        login(alice_context, server, "alice")
        login(bob_context, server, "bob")
        alice, bob = lobby(alice_context, server), lobby(bob_context, server)
        dialogs: list[str] = []
        for page in (alice, bob):
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        expect(bob.get_by_test_id("chat-room")).to_have_text("Лобби")
        field = alice.get_by_test_id("chat-text")
        field.focus()
        field.fill(f"anyone for a frame? {MARKUP}")
        field.press("Enter")  # the keyboard sends it
        said = f"anyone for a frame? {MARKUP}"
        expect(bob.get_by_test_id("chat-lines").locator("li").last).to_contain_text(said)
        reply = bob.get_by_test_id("chat-text")
        reply.focus()
        reply.fill("давай, до трёх")
        reply.press("Enter")
        expect(alice.get_by_test_id("chat-lines").locator("li").last).to_contain_text(
            "bob давай, до трёх"
        )
        held = [(s["author"], s["text"]) for s in lobby_state(bob)["chat"]]
        assert held[-2:] == [("alice", said), ("bob", "давай, до трёх")]
        assert bob.locator("[data-testid=chat-lines] img").count() == 0  # text, not markup
        assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # Alice reports Bob's line (its flag, a reason, Send): the club has the report, and
        # her panel says so; her own lines have no flag.
        mine = alice.get_by_test_id("chat-lines").locator("li", has_text="anyone for a frame?")
        assert mine.get_by_test_id("chat-flag").count() == 0
        theirs = alice.get_by_test_id("chat-lines").locator("li", has_text="давай")
        theirs.get_by_test_id("chat-flag").click()
        alice.get_by_test_id("chat-report-reason").select_option("insult")
        alice.get_by_test_id("chat-report-send").click()
        expect(alice.get_by_test_id("chat-refusal")).to_have_text(
            "Reported: an organiser will look at it."
        )
        reported = server.manage(
            "from chat.models import Report\n"
            "print(list(Report.objects.values_list('reporter__username', 'reason',"
            " 'line__text')))\n"
        )
        assert "('alice', 'insult', 'давай, до трёх')" in reported

        # Carol, an organiser, deletes Alice's line in the admin: it leaves both open pages.
        server.manage(
            "from django.contrib.auth import get_user_model\n"
            "get_user_model().objects.filter(username='carol')"
            ".update(is_staff=True, is_superuser=True)\n"
        )
        carol_context = browser.new_context(viewport=DESKTOP)
        try:
            login(carol_context, server, "carol")
            admin = carol_context.new_page()
            admin.goto(f"{server.url}/admin/chat/line/?q=frame")
            admin.locator("input[name=_selected_action]").first.check()
            admin.select_option("select[name=action]", "delete_lines")
            admin.locator("button[name=index]").click()
            expect(admin.locator(".messagelist")).to_be_visible()
        finally:
            carol_context.close()
        for page in (alice, bob):
            page.wait_for_function(
                "(said) => !clubLobby().chat.some((l) => l.text === said)", arg=said
            )
            lines = page.get_by_test_id("chat-lines")
            expect(lines).not_to_contain_text("anyone for a frame?")
            expect(lines).to_contain_text("давай, до трёх")

        # A third line within the minute: the room is busy. Bob's page says so in Russian,
        # keeps his line in the field and holds Send a moment, then lets him try again.
        reply.fill("ещё одна строка")
        reply.press("Enter")
        expect(bob.get_by_test_id("chat-refusal")).to_have_text(
            "В комнате сейчас людно: подождите немного и повторите."
        )
        expect(reply).to_have_value("ещё одна строка")
        expect(bob.get_by_test_id("chat-send")).to_be_disabled()
        expect(bob.get_by_test_id("chat-send")).to_be_enabled(timeout=5_000)
        expect(alice.get_by_test_id("chat-lines")).not_to_contain_text("ещё одна строка")
        assert not dialogs
        assert not alice.errors and not bob.errors  # type: ignore[attr-defined]
    finally:
        alice_context.close()
        bob_context.close()
