"""The referee's log on a desktop (1280×800): its heading and its first row on the screen
beside the stroke's controls, the page and the side column unscrolled, for the player to
strike (her opponent at the table too) and for a spectator, in English and Russian (issue 38:
it started below the fold)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login

DESKTOP = {"width": 1280, "height": 800}
LOG_TITLE = {"en": "Referee", "ru": "Судья"}
OPEN = "() => window.snookerState && snookerState().connection === 'open'"


def test_the_log_is_in_view_at_1280_by_800(browser: Any, server: Server, artifacts: Path) -> None:
    match = server.new_match(1)
    bob = browser.new_context(viewport=DESKTOP)
    login(bob, match, "bob")
    bob.new_page().goto(f"{match.url}/match/{match.match_id}/")
    for who in ("alice", "carol"):  # the player to break, and a spectator
        for locale in ("en", "ru"):
            context = browser.new_context(viewport=DESKTOP, locale=locale)
            login(context, match, who)
            page = context.new_page()
            page.goto(f"{match.url}/match/{match.match_id}/")
            page.wait_for_function(OPEN)
            if who == "alice":
                expect(page.get_by_test_id("strike")).to_be_visible()
                expect(page.get_by_test_id("away-banner")).to_be_hidden()
            title = page.locator("#log-title")
            expect(title).to_have_text(LOG_TITLE[locale])
            rows = page.get_by_test_id("calls-log").locator("li")
            expect(rows.first).to_be_attached()
            page.screenshot(path=str(artifacts / f"log-in-view-{who}-{locale}-1280x800.png"))
            for part in (title, rows.first):
                box = part.bounding_box()
                assert box is not None
                assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"], (
                    who,
                    locale,
                    box,
                )
            scrolled = page.evaluate(
                "() => [window.scrollY, document.querySelector('[data-testid=side]').scrollTop]"
            )
            assert scrolled == [0, 0], (who, locale, scrolled)
            context.close()
    bob.close()
