"""The end of a match on the table, in real browsers: the end panel links to the match's record
and its replay; a rematch offered there is answered there (no toast over the panel's own
buttons), and a declined offer stops saying that it waits."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_concede_and_claim import confirm
from tests.browser.test_match_page import DESKTOP, open_match, settled


def uncovered(page: Page, testid: str) -> bool:
    """Whether a click at the middle of the element reaches it (nothing lies over it)."""
    found: bool = page.get_by_test_id(testid).evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return el === top || el.contains(top); }"
    )
    return found


def test_the_end_panel_links_and_a_declined_rematch(browser: Any, server: Server) -> None:
    match = server.new_match(1)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    alice, bob = open_match(contexts[0], match), open_match(contexts[1], match)
    settled([alice, bob], 1)
    confirm(bob, "concede-match", "Concede the match?")
    settled([alice, bob], 2)
    for page in (alice, bob):
        panel = page.get_by_test_id("match-end")
        expect(panel).to_be_visible()
        expect(panel.get_by_test_id("end-record")).to_have_attribute(
            "href", f"/match/{match.match_id}/"
        )
        expect(panel.get_by_test_id("end-replay")).to_have_attribute(
            "href", f"/match/{match.match_id}/replay/"
        )

    # Alice offers a rematch: Bob's panel offers it, and no toast lies over its buttons.
    alice.get_by_test_id("offer-rematch").click()
    expect(alice.get_by_test_id("rematch-offered")).to_be_visible()
    expect(bob.get_by_test_id("rematch-offer")).to_contain_text(
        "alice offers a rematch", timeout=15_000
    )  # another page: told through the club socket, as busy as the machine
    bob.wait_for_function("() => clubNotices().count === 1")  # the notice came
    # Read out by the toasts' live region, but not laid over the panel, nor tabbed to.
    expect(bob.get_by_test_id("toast")).to_have_class("toast sr-only")
    expect(bob.get_by_test_id("toast-decline")).to_have_count(0)
    assert uncovered(bob, "rematch-decline") and uncovered(bob, "rematch-accept")

    # Bob declines: Alice's panel says so, waits no more and offers again.
    bob.get_by_test_id("rematch-decline").click()
    # Bob's page posts and reloads; Alice's hears it on the club socket and renders her panel
    # again. On a busy machine her page's scripts may not have run yet when Bob declines: her
    # socket's welcome, which no longer lists the offer, does it then (static/js/site.js).
    expect(alice.get_by_test_id("rematch-declined")).to_be_visible(timeout=15_000)
    expect(alice.get_by_test_id("rematch-offered")).to_have_count(0)
    expect(alice.get_by_test_id("rematch-withdraw")).to_have_count(0)
    expect(alice.get_by_test_id("offer-rematch")).to_be_visible()
    assert uncovered(alice, "offer-rematch")
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]
    for context in contexts:
        context.close()
