"""Leaving the table, claiming and conceding, in real browsers.

A best-of-3 match with a reconnect grace of 14 seconds (Alice is told 3 s after Bob goes, the
away notice, and a loaded machine took more than 5 s more): Bob closes his page, Alice sees
the countdown and then the claim buttons, claims the frame after confirming; then she
concedes the match. Alice's page and a spectator's show each result: the log, the banners,
the scoreboard.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import DESKTOP, open_match, settled, state


def confirm(page: Page, button: str, title: str) -> None:
    """Click a button that asks first, and say yes in the page's own dialog."""
    page.get_by_test_id(button).click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("confirm-title")).to_have_text(title)
    page.get_by_test_id("confirm-yes").click()
    expect(dialog).to_be_hidden()


def test_claim_a_frame_then_concede_the_match(
    browser: Any, server: Server, artifacts: Path
) -> None:
    match = server.new_match(3, reconnect_grace=14)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(3)]
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    bob = open_match(contexts[1], match)
    alice = open_match(contexts[0], match)
    spectator = open_match(contexts[2], match)
    pages = [alice, spectator]
    settled([*pages, bob], 1)
    expect(alice.get_by_test_id("online-B")).to_have_class("sb-dot online")
    expect(alice.get_by_test_id("away-banner")).to_be_hidden()
    expect(spectator.get_by_test_id("concede-frame")).to_be_hidden()

    # Cancelling a concession sends nothing.
    alice.get_by_test_id("concede-frame").click()
    expect(alice.get_by_test_id("confirm-text")).to_contain_text("bob will be awarded frame 1")
    alice.get_by_test_id("confirm-no").click()
    expect(alice.get_by_test_id("confirm-dialog")).to_be_hidden()
    assert state(alice)["pendingRequest"] is None and state(alice)["version"] == 1

    # A claim while Bob is here is refused: the server's answer shows for a while.
    alice.evaluate(
        "() => snookerSocket().send(JSON.stringify("
        "{type: 'claim', client_id: 'too-early', scope: 'frame'}))"
    )
    notice = alice.get_by_test_id("notice")
    expect(notice).to_contain_text("You cannot claim")
    expect(notice).not_to_contain_text("not_claimable")  # words, never the code
    expect(notice).to_have_class("notice error")

    # Bob leaves: a countdown for Alice, then the claim buttons; the spectator only reads it.
    bob.close()
    away = alice.get_by_test_id("away-banner")
    expect(away).to_contain_text("bob has left the table — you may claim in 0:", timeout=11_000)
    expect(alice.get_by_test_id("claim-buttons")).to_be_hidden()
    expect(spectator.get_by_test_id("away-text")).to_have_text("bob has left the table")
    expect(alice.get_by_test_id("claim-buttons")).to_be_visible(timeout=30_000)
    expect(away).not_to_contain_text("claim in")
    expect(spectator.get_by_test_id("claim-buttons")).to_be_hidden()
    alice.screenshot(path=str(artifacts / "claim-1280x800.png"))

    confirm(alice, "claim-frame", "Claim frame 1?")
    settled(pages, 2)
    for page in pages:
        s = state(page)
        assert s["frames"] == {"A": 1, "B": 0} and s["status"] == "live"
        assert [r["winner"] for r in s["results"]] == ["A"]
        expect(page.get_by_test_id("frames-A")).to_have_text("1")
        expect(page.get_by_test_id("frame-number")).to_have_text("Frame 2")
        claimed = "Frame 1 to alice, 0–0: claimed, bob had left the table"
        expect(page.get_by_test_id("frame-banner")).to_have_text(claimed)
        expect(page.get_by_test_id("next-frame")).to_have_text("Frame 2: bob breaks")
        # The log follows the frame being played; the one that ended is a choice away.
        log = page.get_by_test_id("calls-log")
        expect(log.locator("li")).to_have_text(["Frame 2: bob breaks"])
        page.get_by_test_id("log-frame").select_option("1")
        expect(log.locator("li").first).to_contain_text("alice claims the frame")
        expect(log.locator("li").first).to_contain_text(claimed)
        page.get_by_test_id("log-frame").select_option("2")

    # Alice concedes the match: Bob wins it, though he is not there to see it.
    alice.get_by_test_id("concede-match").click()
    alice.screenshot(path=str(artifacts / "concede-1280x800.png"))
    alice.get_by_test_id("confirm-no").click()
    confirm(alice, "concede-match", "Concede the match?")
    settled(pages, 3)
    for page in pages:
        s = state(page)
        assert s["status"] == "finished" and s["winner"] == "B", s
        assert s["frames"] == {"A": 1, "B": 1}
        banner = page.get_by_test_id("match-banner")
        result = "bob wins the match, alice conceded: 1–1 in frames"
        expect(banner).to_have_text(result)
        expect(page.get_by_test_id("away-banner")).to_be_hidden()
        expect(page.get_by_test_id("to-act")).to_have_text(result)
        expect(page.get_by_test_id("calls-log")).to_contain_text("alice concedes the match")
        assert not page.errors  # type: ignore[attr-defined]
    for button in ("strike", "concede-frame", "concede-match"):
        expect(alice.get_by_test_id(button)).to_be_disabled()
    expect(alice.get_by_test_id("aim-hint")).to_have_text("The match is over.")
    spectator.screenshot(path=str(artifacts / "match-over-1280x800.png"))
    for context in contexts:
        context.close()


def test_the_one_who_came_waits_for_the_other_and_cannot_claim(
    browser: Any, server: Server
) -> None:
    """Bob glances at the table and leaves before Alice comes: the match has not started, so
    Alice waits for him and no claim is offered."""
    match = server.new_match(3, reconnect_grace=1)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    bob = open_match(contexts[1], match)
    settled([bob], 1)
    expect(bob.get_by_test_id("away-text")).to_have_text(
        "Waiting for alice: the match starts when you are both at the table"
    )
    bob.close()
    alice = open_match(contexts[0], match)
    settled([alice], 1)
    away = alice.get_by_test_id("away-text")
    expect(away).to_have_text("Waiting for bob: the match starts when you are both at the table")
    # No claim is offered (the server says no claim is coming: claim_from is null; the
    # times are tests/game/test_match_start.py's, on an injected clock).
    expect(alice.get_by_test_id("claim-buttons")).to_be_hidden()
    # Bob comes back while she is there: the match starts, and the banner goes.
    bob = open_match(contexts[1], match)
    expect(alice.get_by_test_id("away-banner")).to_be_hidden()
    expect(alice.get_by_test_id("online-B")).to_have_class("sb-dot online")
    for context in contexts:
        context.close()
