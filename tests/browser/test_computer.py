"""Playing the computer, in a real browser: Alice starts a match against the Novice from the
page beside the practice table, breaks off, watches the computer address the ball and play
its turn (its own spawned thinking process, through the same service as hers), concedes, is
offered to play the level again (never a rematch), and finds the result on her profile,
apart from her matches with members. At her practice table she asks for a hint and sees it
drawn."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import (
    DESKTOP,
    PLAYBACK,
    click_table,
    set_angle,
    set_power,
    settled,
    state,
    strike,
)  # fmt: skip

BREAK_CUE = (150.0, -1150.0)
BREAK_AT = (120.0, 1127.65)  # the pack's apex red, a little off full


def test_a_member_plays_the_novice_concedes_and_sees_it_on_their_profile(
    browser: Any, server: Server, artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    login(context, server, "alice")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/practice/")
    page.get_by_test_id("play-computer").click()
    page.select_option("select[name=level]", "novice")
    page.select_option("select[name=best_of]", "1")
    page.get_by_test_id("start-computer").click()
    page.wait_for_url(f"{server.url}/match/*/")
    page.goto(f"{page.url}?playback={PLAYBACK}")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled([page], 1)
    expect(page.get_by_test_id("name-B")).to_have_text("computer-novice")
    expect(page.get_by_test_id("to-act")).to_have_text("Your turn")
    expect(page.get_by_test_id("pro-hint")).to_be_hidden()  # hints are for practice tables

    # Alice breaks off from the D.
    click_table(page, BREAK_CUE)
    set_power(page, 8.0)
    set_angle(page, math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0]))
    strike(page)
    # The computer addresses the ball (its aim shown as a player's), then plays; its turn
    # ends with Alice to act again.
    page.wait_for_function(
        "() => { const r = snookerState().remoteAim; return r && r.seat === 'B'; }",
        timeout=60_000,
    )
    page.wait_for_function(
        "() => { const s = snookerState(); return s.version >= 3 && s.to_act === 'A'"
        " && !s.animating && s.queued === 0; }",
        timeout=90_000,
    )
    page.screenshot(path=str(artifacts / "computer-1280x800.png"))

    # Alice concedes the match.
    page.get_by_test_id("concede-match").click()
    expect(page.get_by_test_id("confirm-dialog")).to_be_visible()
    page.get_by_test_id("confirm-yes").click()
    page.wait_for_function("() => snookerState().status === 'finished'", timeout=30_000)
    assert state(page)["winner"] == "B"
    end = page.get_by_test_id("end-actions")
    expect(end.get_by_test_id("play-computer-again")).to_be_visible(timeout=15_000)
    expect(end.get_by_test_id("offer-rematch")).to_have_count(0)

    # Her profile: the match against the computer apart, none in her record with members.
    page.goto(f"{server.url}/players/alice/")
    expect(page.get_by_test_id("computer-record")).to_contain_text("Novice: won 0 of 1 match")
    expect(page.get_by_test_id("matches-lost")).to_have_text("0")
    assert errors == []
    context.close()


def test_a_hint_at_a_practice_table_is_drawn_for_its_member(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP)
    login(context, server, "carol")
    page = context.new_page()
    page.goto(f"{server.url}/practice/")
    page.get_by_test_id("start-practice").click()
    page.wait_for_url(f"{server.url}/match/*/")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled([page], 1)
    button = page.get_by_test_id("pro-hint")
    expect(button).to_be_visible()
    button.click()
    page.wait_for_function("() => snookerState().hint !== null", timeout=30_000)
    hint = state(page)["hint"]
    assert hint["version"] == 1 and hint["kind"] == "break"
    assert hint["aim"]["cue_ball"] is not None and hint["leave"] is not None
    expect(page.get_by_test_id("notice")).to_contain_text("break-off")
    context.close()
