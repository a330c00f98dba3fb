"""The table players trust (issue 14), in Chromium.

- Decisions beside the table: the decision panel never overlaps a ball, at 1280×800, 844×390
  and 390×844; what the decision depends on is marked; the holder decides by keyboard.
- The story from the server: a reload shows the same referee's log, the same decision, the
  same turn (the `log` message); an earlier frame's log is a choice away.
- Clear turns: the turn bar, the tab's title, the draw and the next frame announced, the
  score and calls read out in a live region.
- Aiming without traps: the default aim reaches a ball on; power and spin go back to neutral
  after a stroke unless the player keeps them (a setting that survives a reload); readable
  spin; the sound switch.
- A phone by touch, upright and on its side; the Russian page, with no English left.
- Text contrast (WCAG AA) on the match page.

Screenshots of each layout in English and Russian go to artifacts/ (table-<lang>-<size>.png).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser import strokes
from tests.browser.conftest import Server, login
from tests.browser.test_match_page import (
    DESKTOP,
    PLAYBACK,
    click_table,
    painted,
    set_angle,
    set_power,
    settled,
    state,
    strike,
)

LANDSCAPE = {"width": 844, "height": 390}
PORTRAIT = {"width": 390, "height": 844}
SIZES = {"1280x800": DESKTOP, "844x390": LANDSCAPE, "390x844": PORTRAIT}

# Every ball drawn that a panel's box touches: none may.
OVERLAPS = """(testid) => {
  const box = document.querySelector(`[data-testid="${testid}"]`).getBoundingClientRect();
  const R = JSON.parse(document.getElementById("club-constants").textContent).table.ball_radius;
  const r = R * snookerGeometry.scale();
  const hit = [];
  for (const [id, p] of Object.entries(snookerState().drawn)) {
    const [x, y] = snookerGeometry.toPage(p);
    const dx = Math.max(box.left - x, 0, x - box.right);
    const dy = Math.max(box.top - y, 0, y - box.bottom);
    if (Math.hypot(dx, dy) < r) hit.push(id);
  }
  const balls = Object.keys(snookerState().drawn).length;
  return { hit, box: [box.left, box.top, box.width, box.height], balls };
}"""

# Visible words in Latin letters on the match page (player names and keyboard keys aside).
LATIN = """(names) => {
  const root = document.getElementById("match");
  const found = [];
  const latin = (text) => {
    let t = text;
    for (const n of names) t = t.split(n).join("");
    t = t.replace(/\\b(Enter|Alt|Shift|Page Up|Page Down|Up|Down)\\b/g, "");
    return /[A-Za-z]{2,}/.test(t);
  };
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || el.closest("noscript") || el.closest("option")) continue;
    if (!el.checkVisibility()) continue;
    if (latin(walker.currentNode.textContent)) found.push(walker.currentNode.textContent.trim());
  }
  for (const el of root.querySelectorAll("[aria-label], [title]")) {
    if (!el.checkVisibility()) continue;
    for (const a of ["aria-label", "title"]) {
      const v = el.getAttribute(a);
      if (v && latin(v)) found.push(`${a}: ${v}`);
    }
  }
  for (const select of root.querySelectorAll("select")) {
    if (!select.checkVisibility()) continue;
    for (const o of select.options) if (latin(o.textContent)) found.push(o.textContent);
  }
  if (latin(document.title)) found.push(`title: ${document.title}`);
  return found;
}"""

# Text whose contrast with what lies behind it fails WCAG AA (4.5:1, large text 3:1).
CONTRAST = """() => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1,
  });
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let colour = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const bad = [];
  for (const el of document.querySelectorAll("#match *")) {
    if (!el.checkVisibility() || el.closest("[disabled], :disabled, noscript")) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(el);
    const bg = behind(el);
    const fg = over(parse(style.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
    const text = el.textContent.trim().slice(0, 40);
    if (ratio < (large ? 3 : 4.5)) bad.push(`${text}: ${ratio.toFixed(2)}`);
  }
  return bad;
}"""


def open_page(context: BrowserContext, server: Server, query: str = "", wait: bool = True) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{server.url}/match/{server.match_id}/?playback={PLAYBACK}{query}")
    if wait:
        page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    return page


def log_texts(page: Page) -> list[str]:
    texts: list[str] = page.get_by_test_id("calls-log").locator("li").all_inner_texts()
    return texts


def decide_if_asked(pages: dict[str, Page], server: Server) -> dict[str, Any]:
    """Whoever holds a decision plays on; the stored snapshot after it."""
    snap = server.snapshot()
    pending = snap["frame"]["pending"]
    if pending and pending["holder"]:
        page = pages[pending["holder"]]
        page.get_by_test_id("decision-options").locator("button").first.click()
        settled(list(pages.values()), snap["version"] + 1)
        snap = server.snapshot()
    return snap


def break_off(alice: Page, server: Server) -> None:
    click_table(alice, (150.0, -1150.0))
    cue = state(alice)["aim"]["cue_ball"]
    speed = set_power(alice, 8.0)
    found = strokes.break_off(strokes.frame_of(server.snapshot()), tuple(cue), speed)
    set_angle(alice, found.angle)
    strike(alice)


def test_decisions_beside_the_table_and_the_story_after_a_reload(
    browser: Any, server: Server, artifacts: Path
) -> None:
    match = server.new_match(3)
    contexts = {name: browser.new_context(viewport=DESKTOP) for name in ("alice", "bob")}
    for name, context in contexts.items():
        login(context, match, name)
    alice, bob = open_page(contexts["alice"], match), open_page(contexts["bob"], match)
    settled([alice, bob], 1)

    # The draw for the break, announced beside the table and in the log; whose turn.
    expect(alice.get_by_test_id("next-frame")).to_have_text(
        "Frame 1: alice won the draw and breaks"
    )
    expect(alice.get_by_test_id("calls-log")).to_contain_text("The draw: alice breaks")
    expect(alice.get_by_test_id("turn")).to_have_attribute("data-kind", "mine")
    assert state(alice)["title"].startswith("● Your turn · alice v bob")
    assert state(bob)["title"].startswith("alice v bob")

    break_off(alice, match)
    settled([alice, bob], 2)
    white_before = match.snapshot()["frame"]["balls"]["white"]
    speed = set_power(bob, 0.3)
    found = strokes.hit_nothing(strokes.frame_of(match.snapshot()), speed)
    set_angle(bob, found.angle)
    strike(bob)
    settled([alice, bob], 3)
    snap = match.snapshot()
    options = snap["frame"]["pending"]["options"]
    assert found.ruling.foul and snap["frame"]["pending"]["holder"] == "A"

    # The decision: beside the table, for Alice; the table marks what it depends on.
    panel = alice.get_by_test_id("decision-panel")
    expect(panel).to_be_visible()
    expect(alice.get_by_test_id("turn")).to_have_attribute("data-kind", "decide")
    assert state(alice)["title"].startswith("● Your decision")
    marks = state(alice)["marks"]
    white = snap["frame"]["balls"]["white"]
    assert marks["cue"] == white
    if "replace" in options:
        assert marks["restore"]["balls"]["white"] == white_before
        expect(alice.get_by_test_id("decision-legend")).to_contain_text("Pale balls")
    # Read out once, in a sentence: the foul named, its penalty, the decision asked; the score.
    announcer = alice.get_by_test_id("announcer")
    expect(announcer).to_contain_text("foul: the cue ball hit no ball (§23.1.6)")
    expect(announcer).to_contain_text(f"penalty {found.ruling.penalty} to alice, options: ")
    expect(alice.get_by_test_id("announcer")).to_contain_text(f"alice {found.ruling.penalty}")
    # In English the calls are the server's own words, rendered from the ruling's fields.
    chips = alice.get_by_test_id("referee-calls").locator(".call").all_inner_texts()
    assert chips == next(c["calls"] for c in state(alice)["calls"] if c["version"] == 3)
    assert alice.evaluate(CONTRAST) == []

    for size, viewport in SIZES.items():
        alice.set_viewport_size(viewport)
        alice.wait_for_function(
            "([w, h]) => innerWidth === w && innerHeight === h",
            arg=[viewport["width"], viewport["height"]],
        )
        painted(alice)  # the table drawn at its new size
        found_overlap = alice.evaluate(OVERLAPS, "decision-panel")
        assert found_overlap["balls"] >= 15 and found_overlap["hit"] == [], (size, found_overlap)
        expect(panel.locator("button").first).to_be_in_viewport()
        alice.screenshot(path=str(artifacts / f"table-en-{size}.png"))
    alice.set_viewport_size(DESKTOP)

    # A reload changes nothing a person can see: the log, the decision, the turn.
    before = {name: log_texts(page) for name, page in (("alice", alice), ("bob", bob))}
    assert len(before["alice"]) == 3 and before["alice"] == before["bob"]
    alice.reload()
    alice.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled([alice], 3)
    expect(alice.get_by_test_id("calls-log").locator("li")).to_have_text(
        before["alice"], use_inner_text=True
    )
    expect(panel.locator("button")).to_have_count(len(options))
    assert state(alice)["presented"] == [] and state(alice)["log"]["versions"] == [1, 2, 3]
    assert state(alice)["title"].startswith("● Your decision")

    # The first option has the focus: the holder decides from the keyboard.
    expect(panel.locator("button").first).to_be_focused()
    alice.keyboard.press("Enter")
    settled([alice, bob], 4)
    assert match.snapshot()["frame"]["pending"] is None
    # The chosen option went with its panel: the focus went on to the table, not to <body>.
    assert alice.evaluate("document.activeElement.dataset.testid") == "table"

    # Bob concedes the frame: the next is announced with the result; frame 1 is a choice away.
    bob.get_by_test_id("concede-frame").click()
    bob.get_by_test_id("confirm-yes").click()
    settled([alice, bob], 5)
    expect(bob.get_by_test_id("frame-banner")).to_contain_text("Frame 1 to alice")
    expect(bob.get_by_test_id("next-frame")).to_have_text("Frame 2: bob breaks")
    bob.reload()
    bob.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    expect(bob.get_by_test_id("frame-banner")).to_contain_text("Frame 1 to alice")
    expect(bob.get_by_test_id("frame-breaks")).to_be_visible()  # frame 1's log, fetched
    bob.get_by_test_id("log-frame").select_option("1")
    expect(bob.get_by_test_id("calls-log").locator("li").first).to_contain_text(
        "bob concedes the frame"
    )
    assert len(log_texts(bob)) == 5
    for page in (alice, bob):
        assert not page.errors  # type: ignore[attr-defined]
    for context in contexts.values():
        context.close()


def test_the_default_aim_and_the_stroke_settings(browser: Any, server: Server) -> None:
    match = server.new_match(1)
    contexts = {name: browser.new_context(viewport=DESKTOP) for name in ("alice", "bob")}
    for name, context in contexts.items():
        login(context, match, name)
    pages = {"A": open_page(contexts["alice"], match), "B": open_page(contexts["bob"], match)}
    alice = pages["A"]
    settled(list(pages.values()), 1)

    # From just off the long axis behind the brown, the blue and the pink stand in front of
    # the nearest red: the cue points at a red it can reach.
    cue = (60.0, -1250.0)
    click_table(alice, cue)
    s = state(alice)
    balls = s["balls"]
    nearest = min(s["ballsOn"], key=lambda b: math.dist(balls[b], cue))
    blockers = [
        b for b in balls
        if b not in (nearest, "white") and _in_the_way(cue, balls[nearest], balls[b])
    ]  # fmt: skip
    assert blockers, "the nearest red should be hidden for this test to mean something"
    target = s["aim"]["target"]
    assert target in s["ballsOn"], (target, s["aim"])

    # Power and spin, set and read: then back to neutral after the stroke.
    alice.get_by_test_id("settings").locator("summary").click()
    alice.get_by_test_id("table-sound").check()
    set_power(alice, 6.0)
    spin = alice.get_by_test_id("spin")
    spin.focus()
    for key in ["ArrowUp"] * 6 + ["ArrowLeft"] * 4:
        spin.press(key)
    expect(alice.get_by_test_id("spin-value")).to_have_text("top 0.3, left 0.2")
    expect(spin).to_have_attribute("aria-valuetext", "top 0.3, left 0.2")
    strike(alice)
    alice.wait_for_function("() => snookerState().shownVersion >= 2 && !snookerState().animating")
    settled(list(pages.values()), state(alice)["version"])
    s = state(alice)
    assert (s["aim"]["speed"], s["aim"]["side"], s["aim"]["height"]) == (3, 0, 0)
    expect(alice.get_by_test_id("spin-value")).to_have_text("centre")
    expect(alice.get_by_test_id("power-value")).to_have_text("3.0 m/s")
    assert "strike" in s["sounds"], s["sounds"]  # the sound switch, on: the stroke was heard

    # Whoever is to play keeps them, by the setting; it is remembered after a reload.
    snap = decide_if_asked(pages, match)
    seat = snap["scoreboard"]["to_act"]
    page = pages[seat]
    page.get_by_test_id("settings").locator("summary").click()
    page.get_by_test_id("keep-stroke").check()
    if snap["frame"]["in_hand"]:
        page.get_by_test_id("place-cue").click()
    set_power(page, 2.0)
    page.get_by_test_id("spin").focus()
    page.get_by_test_id("spin").press("ArrowDown")
    strike(page)
    page.wait_for_function(
        "v => snookerState().shownVersion > v && !snookerState().animating", arg=snap["version"]
    )
    s = state(page)
    assert (s["aim"]["speed"], s["aim"]["height"]) == (2.0, -0.05)
    page.reload()
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    expect(page.get_by_test_id("keep-stroke")).to_be_checked()
    for context in contexts.values():
        context.close()


def _in_the_way(a: tuple[float, float], b: list[float], c: list[float]) -> bool:
    """Whether a ball at c stands within a ball's width of the straight line from a to b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = math.hypot(dx, dy)
    along = ((c[0] - ax) * dx + (c[1] - ay) * dy) / length
    across = abs((c[0] - ax) * dy - (c[1] - ay) * dx) / length
    return 0 < along < length and across < 52.5


def test_the_table_by_keyboard_alone(browser: Any, server: Server) -> None:
    """Place the cue ball, move it, aim, set the power and spin, strike: no pointer."""
    match = server.new_match(1, started=True)
    context = browser.new_context(viewport=DESKTOP)
    login(context, match, "alice")
    page = open_page(context, match)
    settled([page], 1)
    table = page.get_by_test_id("table")
    table.focus()
    page.keyboard.press("Enter")  # the cue ball, placed in the D where a red can be hit
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    placed = state(page)["aim"]["cue_ball"]
    assert state(page)["aim"]["target"] in state(page)["ballsOn"]
    page.keyboard.press("Alt+ArrowUp")  # 5 mm up the screen: towards the side cushion, −x
    moved = state(page)["aim"]["cue_ball"]
    assert abs(moved[0] - (placed[0] - 5)) < 1e-9 and moved[1] == placed[1]
    before = state(page)["aim"]["angle"]
    page.keyboard.press("ArrowLeft")
    assert abs(state(page)["aim"]["angle"] - before - math.radians(0.5)) < 1e-9
    page.get_by_test_id("power").focus()
    page.keyboard.press("End")
    page.get_by_test_id("spin").focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("spin-value")).to_have_text("screw 0.05")
    page.get_by_test_id("strike").focus()
    page.keyboard.press("Enter")
    settled([page], 2)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_phone_by_touch(browser: Any, server: Server) -> None:
    match = server.new_match(1, started=True)
    context = browser.new_context(viewport=PORTRAIT, has_touch=True, is_mobile=True)
    login(context, match, "alice")
    page = open_page(context, match)
    settled([page], 1)
    s = state(page)
    assert s["upright"]  # the table stands up on a phone held upright
    lobby = page.get_by_test_id("to-lobby")
    expect(lobby).to_be_visible()
    expect(lobby).to_have_attribute("href", "/")
    hint = page.get_by_test_id("aim-hint").inner_text()
    assert "tap" in hint and not any(k in hint for k in ("←", "Enter", "Alt", "click"))

    page.get_by_test_id("place-cue").tap()
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    assert "←" not in page.get_by_test_id("aim-hint").inner_text()
    start = state(page)["aim"]["angle"]
    page.get_by_test_id("aim-left-coarse").tap()
    page.get_by_test_id("aim-right-fine").tap()
    turned = state(page)["aim"]["angle"] - start
    assert abs(turned - math.radians(0.9)) < 1e-9
    for _ in range(3):
        page.get_by_test_id("power-up").tap()
    page.get_by_test_id("power-down").tap()
    assert state(page)["aim"]["speed"] == 3.2
    box = page.get_by_test_id("spin").bounding_box()
    assert box is not None
    page.get_by_test_id("spin").tap(position={"x": box["width"] / 2, "y": box["height"] * 0.3})
    assert state(page)["aim"]["height"] > 0.1
    scale = page.evaluate("() => snookerGeometry.scale()")
    page.get_by_test_id("zoom").tap()
    page.wait_for_function("s => snookerGeometry.scale() > 1.9 * s", arg=scale)
    page.get_by_test_id("strike").tap()
    settled([page], 2)

    # On its side: the strike is in reach without scrolling.
    page.set_viewport_size(LANDSCAPE)
    page.wait_for_function("() => !snookerState().upright")
    settled([page], 2)
    if state(page)["to_act"] == "A" and not state(page)["pending"]:
        expect(page.get_by_test_id("strike")).to_be_in_viewport()
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_the_russian_page(browser: Any, server: Server, artifacts: Path) -> None:
    match = server.new_match(3)
    # Alice's browser asks for Russian (Accept-Language); a spectator asks by ?lang=ru.
    ru = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    en = browser.new_context(viewport=DESKTOP, locale="en-GB")
    watcher = browser.new_context(viewport=DESKTOP)
    login(ru, match, "alice")
    login(en, match, "bob")
    alice = open_page(ru, match)
    bob = open_page(en, match)
    spectator = open_page(watcher, match, "&lang=ru")
    pages = [alice, bob, spectator]
    settled(pages, 1)
    for page in (alice, spectator):
        assert page.evaluate("() => document.documentElement.lang") == "ru"
        assert state(page)["language"] == "ru"
    assert state(bob)["language"] == "en"
    expect(alice.get_by_test_id("to-act")).to_have_text("Ваш удар")
    expect(spectator.get_by_test_id("next-frame")).to_have_text(
        "Партия 1: по жребию начальный удар — alice"
    )
    names = ["alice", "bob"]
    assert alice.evaluate(LATIN, names) == []
    assert spectator.evaluate(LATIN, names) == []

    # A refused placement, in the rule book's words.
    click_table(alice, (0.0, -1095.0))
    expect(alice.get_by_test_id("notice")).to_have_text(
        "Сюда биток поставить нельзя: он касается коричневого."
    )
    break_off(alice, match)
    settled(pages, 2)
    speed = set_power(bob, 0.3)
    found = strokes.hit_nothing(strokes.frame_of(match.snapshot()), speed)
    set_angle(bob, found.angle)
    strike(bob)
    settled(pages, 3)
    calls = alice.get_by_test_id("referee-calls").locator(".call").all_inner_texts()
    assert calls[0] == f"НАРУШЕНИЕ, ШТРАФ {found.ruling.penalty}"
    if found.ruling.miss:
        assert calls[1] == "ПРОМАХ"
    expect(alice.get_by_test_id("decision-title")).to_have_text("Ваше решение")
    expect(alice.get_by_test_id("option-play")).to_contain_text("Играть с позиции")
    expect(spectator.get_by_test_id("decision-title")).to_have_text("Решает alice")
    expect(alice.get_by_test_id("calls-log")).to_contain_text("нарушение:")
    assert "п. 23" in alice.get_by_test_id("calls-log").inner_text()
    assert state(alice)["title"].startswith("● Ваше решение · alice — bob")
    for size, viewport in SIZES.items():
        for page in (alice, spectator):
            page.set_viewport_size(viewport)
            page.wait_for_function(
                "([w, h]) => innerWidth === w && innerHeight === h",
                arg=[viewport["width"], viewport["height"]],
            )
            painted(page)
            assert page.evaluate(LATIN, names) == [], size
        hit = alice.evaluate(OVERLAPS, "decision-panel")["hit"]
        assert hit == [], (size, hit)
        for page in (alice, spectator):
            assert page.evaluate(CONTRAST) == [], size
        alice.screenshot(path=str(artifacts / f"table-ru-{size}.png"))
    for page in pages:
        assert not page.errors  # type: ignore[attr-defined]
    for context in (ru, en, watcher):
        context.close()
