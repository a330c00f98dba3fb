"""A ladder's page follows its ladder without a reload (Chromium): Fay joins and waits on the
ladder's page; Gus joins from his own browser, and Fay's table shows him below her, the page
never reloaded (its changing part read again:
ladder/views.py, `ladder_live`). Under the site's Content-Security-Policy, with no violation."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server
from tests.browser.test_csp import violations, watched
from tests.browser.test_ladder import ladder_rows, sign_up


def test_a_member_joining_appears_on_an_open_ladder_page(browser: Any, server: Server) -> None:
    fay_context, _ = watched(browser)
    gus_context, _ = watched(browser)
    fay = sign_up(fay_context, server, "fay")
    fay.goto(f"{server.url}/ladder/")
    fay.get_by_test_id("join-ladder").click()
    expect(fay.get_by_test_id("my-position")).to_contain_text("position 1")
    fay.wait_for_function("() => document.body.dataset.notices === 'open'")
    fay.evaluate("() => { window.notReloaded = true; }")
    assert ladder_rows(fay) == [("1", "fay", "1500")]

    gus = sign_up(gus_context, server, "gus")
    gus.goto(f"{server.url}/ladder/")
    gus.get_by_test_id("join-ladder").click()
    expect(gus.get_by_test_id("my-position")).to_contain_text("position 2")

    expect(fay.get_by_test_id("rung")).to_have_count(2)
    assert ladder_rows(fay) == [("1", "fay", "1500"), ("2", "gus", "1500")]
    expect(fay.get_by_test_id("my-position")).to_contain_text("position 1")
    assert fay.evaluate("() => window.notReloaded") is True
    assert violations(fay) == [] and violations(gus) == []
