"""Playing the computer, in a real browser: Alice starts a match against the Novice from the
page beside the practice table, breaks off (skipping its animation), sees "Computer · Novice"
present and thinking, watches its cue line up for at least its address time before its
stroke (whose animation she skips by key), played by its own spawned thinking process through
the same service as hers; she concedes, is offered to play the level again (never a
rematch), and finds the result on her profile, apart from her matches with members. At her
practice table she asks for a hint and sees it drawn. A visitor without an account plays the
Novice from the home page on a phone, in Russian."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import (
    DESKTOP,
    click_table,
    set_angle,
    set_power,
    settled,
    state,
    strike,
)  # fmt: skip
from tests.browser.test_phone import PHONE_390

# Installed in the page: when the computer's cue first shows (remoteAim), the thinking line,
# how many different angles its cue took, and when its stroke arrived (version 3).
WATCH = """() => {
  window.seen = { aim: null, thinking: null, stroke: null, angles: 0 };
  const angles = new Set();
  const tick = () => {
    const s = snookerState();
    const now = performance.now();
    if (s.thinking && !window.seen.thinking) window.seen.thinking = s.thinking;
    if (s.remoteAim && s.remoteAim.seat === "B" && s.version === 2) {
      if (window.seen.aim === null) window.seen.aim = now;
      angles.add(s.remoteAim.angle);
      window.seen.angles = angles.size;
    }
    if (window.seen.aim !== null && window.seen.stroke === null && s.version >= 3) {
      window.seen.stroke = now;
    }
    requestAnimationFrame(tick);
  };
  tick();
}"""

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
    # At real speed (no ?playback): the strokes are skipped instead.
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled([page], 1)
    # The computer as a person: its name by level, its badge, present.
    expect(page.get_by_test_id("name-B")).to_have_text("Computer · Novice")
    expect(page.get_by_test_id("player-B")).to_have_class(re.compile(r"\bcomputer\b"))
    expect(page.get_by_test_id("online-B")).to_have_class(re.compile(r"\bonline\b"))
    expect(page.get_by_test_id("to-act")).to_have_text("Your turn")
    expect(page.get_by_test_id("pro-hint")).to_be_hidden()  # hints are for practice tables
    # When its cue first shows, when its thinking shows, and when its stroke comes (each
    # animation frame: what a person sees).
    page.evaluate(WATCH)

    # Alice breaks off from the D, and skips her break's animation to its end.
    click_table(page, BREAK_CUE)
    set_power(page, 8.0)
    set_angle(page, math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0]))
    strike(page)
    page.wait_for_function("() => snookerState().animating", timeout=10_000)
    page.get_by_test_id("skip").click()
    settled([page], 2)
    expect(page.get_by_test_id("skip")).to_be_hidden()
    # The computer thinks, then addresses the ball (its cue lining up and settling) for at
    # least a Novice's quickest address time before it strikes.
    page.wait_for_function("() => window.seen.stroke !== null", timeout=90_000)
    seen = page.evaluate("window.seen")
    assert seen["thinking"] == "Computer · Novice is thinking…"
    assert seen["aim"] is not None
    quickest = 0.55 * 1.35  # rules/opponent/address.py: a tap-in, at the Novice's pace
    assert (seen["stroke"] - seen["aim"]) / 1000 >= quickest - 0.05, seen
    assert seen["angles"] >= 2  # its cue moves onto the line
    # Its stroke's animation is skipped by key, on the table.
    page.wait_for_function("() => snookerState().animating || snookerState().shownVersion >= 3")
    page.get_by_test_id("table").focus()
    page.keyboard.press("s")
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
    expect(page.get_by_test_id("notice")).to_contain_text("Power ")
    # "Play this": the hint becomes the member's own aim, ready to strike.
    page.get_by_test_id("pro-hint-play").click()
    aim = state(page)["aim"]
    assert aim["cue_ball"] == hint["aim"]["cue_ball"]
    assert abs(aim["angle"] - hint["aim"]["angle"]) < 1e-9
    assert abs(aim["speed"] - hint["aim"]["speed"]) < 1e-9
    expect(page.get_by_test_id("strike")).to_be_enabled()
    context.close()


def test_a_visitor_plays_the_computer_from_the_home_page_on_a_phone_in_russian(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """No account: one click on the home page seats the visitor as a guest at the table."""
    context = browser.new_context(viewport=PHONE_390, locale="ru-RU", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/")
    levels = page.get_by_test_id("play-computer-levels")
    expect(levels).to_contain_text("Игра с компьютером")
    button = page.get_by_test_id("play-computer-novice")
    expect(button).to_be_in_viewport()
    button.click()
    page.wait_for_url(f"{server.url}/match/*/")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled([page], 1)
    assert state(page)["seat"] == "A"
    expect(page.get_by_test_id("name-B")).to_have_text("Компьютер · Новичок")
    expect(page.get_by_test_id("name-A")).to_contain_text("(гость")
    # The guest plays: the cue ball placed in the D, the break-off struck.
    click_table(page, BREAK_CUE)
    strike(page)
    page.wait_for_function("() => snookerState().version >= 2", timeout=20_000)
    page.screenshot(path=str(artifacts / "computer-visitor-390x844-ru.png"))
    assert errors == []
    context.close()


def test_the_lobby_counts_matches_against_the_computer_and_lists_none(
    browser: Any, server: Server
) -> None:
    """Two members' matches against the computer: the lobby (in Russian here: the script
    writes the count from the page's own words after its welcome) says how many, and its live
    list shows none of them."""
    out = server.manage(
        "from django.contrib.auth import get_user_model\n"
        "from computer.service import play_computer\n"
        "from club.lobby import computer_live\n"
        "users = get_user_model().objects\n"
        "for name in ('counted1', 'counted2'):\n"
        "    play_computer(users.create_user(name, password=None), 'novice', 1)\n"
        "print(computer_live())\n"
    )
    live = int(out.strip().splitlines()[-1])
    assert live >= 2
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/")
    expect(page.get_by_test_id("lobby-connection")).to_have_attribute("data-state", "open")
    count = page.get_by_test_id("computer-live")
    expect(count).to_be_visible()
    expect(count).to_have_text(f"Матчей с компьютером сейчас: {live}")
    expect(page.get_by_test_id("live-matches")).not_to_contain_text("counted1")
    expect(page.get_by_test_id("live-matches")).not_to_contain_text("counted2")
    assert errors == []
    context.close()
