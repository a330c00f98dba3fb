"""Stalling, in real browsers (issue 36): both players at the table, the one to act does not
play. With the club's stall time set to 5 seconds for this server, the other player is shown
the countdown and then the claim buttons, and the staller a warning; the claim's confirmation
says it is for stalling. A rated match shows its shot clock, as any match with one."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login
from tests.browser.test_concede_and_claim import confirm
from tests.browser.test_match_page import DESKTOP, open_match, settled, state

SERVER_ENV = {"SNOOKER_STALL": "5"}


def test_the_player_at_the_table_claims_against_one_who_does_not_play(
    browser: Any, server: Server
) -> None:
    match = server.new_match(1)  # a friendly: no shot clock; alice breaks
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    alice = open_match(contexts[0], match)
    bob = open_match(contexts[1], match)
    settled([alice, bob], 1)
    expect(bob.get_by_test_id("online-A")).to_have_class("sb-dot online")
    # Alice, to break, sits: she is warned; Bob is counted down to, then offered the claim.
    expect(alice.get_by_test_id("away-text")).to_contain_text("or your opponent may claim")
    expect(alice.get_by_test_id("claim-buttons")).to_be_hidden()
    expect(bob.get_by_test_id("away-text")).to_contain_text("alice has not played for a long time")
    expect(bob.get_by_test_id("claim-buttons")).to_be_visible(timeout=15_000)
    bob.get_by_test_id("claim-match").click()
    text = bob.get_by_test_id("confirm-text")
    expect(text).to_contain_text("has not played for the club's stall time")
    bob.get_by_test_id("confirm-no").click()
    confirm(bob, "claim-match", "Claim the match?")
    settled([alice, bob], 2)
    for page in (alice, bob):
        s = state(page)
        assert s["status"] == "finished" and s["winner"] == "B", s
        expect(page.get_by_test_id("away-banner")).to_be_hidden()
        assert not page.errors  # type: ignore[attr-defined]
    for context in contexts:
        context.close()


def test_a_rated_match_shows_its_shot_clock(browser: Any, server: Server) -> None:
    match = server.new_match(1, shot_clock=120, rated=True)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    alice = open_match(contexts[0], match)
    bob = open_match(contexts[1], match)
    settled([alice, bob], 1)
    for page in (alice, bob):
        expect(page.get_by_test_id("shot-clock")).to_be_visible()
        expect(page.get_by_test_id("shot-clock-text")).to_contain_text("1")
        # No stall claim while a clock runs for the turn (its expiry is the time foul).
        expect(page.get_by_test_id("claim-buttons")).to_be_hidden()
    for context in contexts:
        context.close()
