"""The club by keyboard and screen reader, in Chromium: a skip link first on every page; on
the table, Enter places the cue ball and Enter strikes, the focus stays on a useful control
after the stroke (not on <body>), the stroke is read out once in one sentence, the confirm
dialog holds the focus and gives it back; the scoreboard's figures carry their names."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import DESKTOP, PLAYBACK

FOCUSED = "document.activeElement.dataset.testid || document.activeElement.tagName"


def focused(page: Page) -> str:
    found: str = page.evaluate(FOCUSED)
    return found


def test_a_skip_link_first_on_every_page(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP)
    pages = ["/", "/players/", "/players/alice/", "/ladder/"]  # (the log-in form autofocuses)
    login(context, server, "carol")
    page = context.new_page()
    page.bring_to_front()
    for path in [*pages, f"/match/{server.match_id}/"]:
        page.goto(f"{server.url}{path}")
        page.keyboard.press("Tab")
        link = page.get_by_test_id("skip-link")
        assert focused(page) == "skip-link", (path, focused(page))
        expect(link).to_be_in_viewport()  # shown while it has the focus
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.id === 'main'")
    context.close()


def test_a_stroke_by_keyboard_and_what_is_read_out(browser: Any, server: Server) -> None:
    match = server.new_match(1, started=True)
    context = browser.new_context(viewport=DESKTOP)
    login(context, match, "alice")
    page = context.new_page()
    page.bring_to_front()
    page.goto(f"{match.url}/match/{match.match_id}/?playback={PLAYBACK}")
    page.wait_for_function("() => window.snookerState && snookerState().ready")
    # The scoreboard's figures are named for a screen reader: whose, and what they count.
    player = page.get_by_test_id("player-A")
    expect(player).to_have_attribute("role", "group")
    expect(player).to_have_attribute("aria-label", "alice")
    expect(player).to_contain_text("points")
    expect(player).to_contain_text("frames won")
    table = page.get_by_test_id("table")
    table.focus()
    page.keyboard.press("Enter")  # ball in hand: Enter places the cue ball
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    expect(table).to_be_focused()
    page.keyboard.press("Enter")  # and Enter strikes
    page.wait_for_function(
        "() => { const s = snookerState(); return s.shownVersion >= 2 && !s.animating"
        " && s.queued === 0; }",
        timeout=20_000,
    )
    assert focused(page) not in ("BODY", "strike")
    said = page.get_by_test_id("announcer").text_content() or ""
    # One sentence, said once: who did what (the pot, the safety or the foul), then the rest.
    assert re.match(r"(alice (pots|plays) the |Foul by alice)", said), said
    assert len(re.findall(r"alice (pots|plays)|Foul by alice", said)) == 1, said
    # The confirm dialog holds the focus, and gives it back to the button that opened it.
    concede = page.get_by_test_id("concede-frame")
    expect(concede).to_be_enabled()
    concede.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("confirm-no")).to_be_focused()
    for key, expected in [("Tab", "confirm-yes"), ("Tab", "confirm-no"),
                          ("Shift+Tab", "confirm-yes"), ("Shift+Tab", "confirm-no")]:  # fmt: skip
        page.keyboard.press(key)
        assert focused(page) == expected, key
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(concede).to_be_focused()
    context.close()
