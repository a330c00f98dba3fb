"""The Content-Security-Policy in Chromium: the pages work under it with no violation.

Every page a member or a spectator opens is loaded with a listener for
`securitypolicyviolation` and the console watched; on the match page the websocket must
connect (connect-src 'self' has to cover ws: to the same host) and a stroke must play and
animate on both pages. Then a control: an inline script injected into the page is blocked and
reported, so that "no violation" above means something.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import (
    DESKTOP,
    click_table,
    open_match,
    set_angle,
    set_power,
    settled,
    strike,
)

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile || document.location.href}:${e.lineNumber}`);
});
"""


def watched(browser: Any) -> tuple[BrowserContext, list[str]]:
    """A context whose pages report CSP violations; the console's CSP complaints go to the
    list returned."""
    context: BrowserContext = browser.new_context(viewport=DESKTOP)
    context.add_init_script(WATCH)
    console: list[str] = []

    def listen(page: Page) -> None:
        def take(message: ConsoleMessage) -> None:
            if "Content Security Policy" in message.text or "Content-Security-Policy" in (
                message.text
            ):
                console.append(message.text)

        page.on("console", take)

    context.on("page", listen)
    return context, console


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__cspViolations")
    return found


def test_the_site_works_under_its_policy(browser: Any, server: Server) -> None:
    match = server.new_match(1, started=True)
    alice_context, alice_console = watched(browser)
    guest_context, guest_console = watched(browser)

    # The pages around the table, as a guest and as a member.
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"):
        page = guest_context.new_page()
        response = page.goto(f"{server.url}{path}")
        assert response is not None and response.status == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert violations(page) == [], path
        page.close()
    login(alice_context, match, "alice")
    for path in ("/", "/challenges/new/", "/challenges/invite/", "/practice/",
                 "/accounts/password_change/"):  # fmt: skip
        page = alice_context.new_page()
        page.goto(f"{server.url}{path}")
        assert violations(page) == [], path
        page.close()

    # The match: both sockets connect, a stroke plays and animates on both pages.
    alice = open_match(alice_context, match)
    spectator = open_match(guest_context, match)
    settled([alice, spectator], 1)
    click_table(alice, (100.0, -1170.0))  # the cue ball in the D
    set_angle(alice, 1.5)
    set_power(alice, 2.0)
    strike(alice)
    settled([alice, spectator], 2)
    expect(alice.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    for page in (alice, spectator):
        assert violations(page) == []
        assert not page.errors  # type: ignore[attr-defined]
    assert alice_console == guest_console == []

    # The control: an inline script is blocked, and the listener hears of it.
    ran = spectator.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__inlineRan = true'; document.head.appendChild(s);"
        " return window.__inlineRan === true; }"
    )
    assert ran is False
    spectator.wait_for_function("() => window.__cspViolations.length > 0")
    assert violations(spectator)[0].startswith("script-src-elem blocked inline")
    for context in (alice_context, guest_context):
        context.close()
