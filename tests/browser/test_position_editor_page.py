"""The position editor in Chromium (docs/coach.md, "The position editor"): Alice, from the
practice page, empties the table, adds the cue ball and moves it by the arrow keys, adds a red
and drags it with the mouse, saves the position with a name, opens its shared link and plays
it alone: the practice table's balls are where she put them."""

from __future__ import annotations

import math
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import DESKTOP, state

DROP_AT = (200.0, 900.0)  # where the red is dragged to (table mm)


def _balls(page: Page) -> dict[str, list[float]]:
    return page.evaluate("window.positionEditor.balls()")  # type: ignore[no-any-return]


def _on_screen(page: Page, p: tuple[float, float] | list[float]) -> tuple[float, float]:
    box = page.get_by_test_id("editor-table").bounding_box()
    assert box is not None
    sx, sy = page.evaluate("(p) => window.positionEditor.toScreen(p)", list(p))
    return box["x"] + sx, box["y"] + sy


def test_two_balls_placed_by_keys_and_drag_saved_shared_and_played_alone(
    browser: Any, server: Server
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    login(context, server, "alice")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/practice/")
    page.get_by_test_id("position-editor-link").click()
    page.wait_for_function("() => window.positionEditor")
    page.get_by_test_id("start-empty").click()
    assert _balls(page) == {}
    # The cue ball: added, then moved by the keys (10 mm with Shift, 1 mm without).
    page.get_by_test_id("add-list").select_option("white")
    page.get_by_test_id("add-ball").click()
    start = _balls(page)["white"]
    page.get_by_test_id("editor-table").focus()
    for _ in range(3):
        page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("ArrowDown")
    moved = _balls(page)["white"]
    assert math.dist(start, moved) == math.hypot(30, 1)
    expect(page.get_by_test_id("editor-status")).to_contain_text("cue ball")
    # A red: added, then dragged with the mouse.
    page.get_by_test_id("add-list").select_option("red1")
    page.get_by_test_id("add-ball").click()
    page.mouse.move(*_on_screen(page, _balls(page)["red1"]))
    page.mouse.down()
    page.mouse.move(*_on_screen(page, DROP_AT), steps=5)
    page.mouse.up()
    placed = _balls(page)
    assert sorted(placed) == ["red1", "white"]
    assert math.dist(placed["red1"], DROP_AT) < 10  # a pixel is several mm
    # Saved with a name (the red is on), the link opened, played alone.
    page.get_by_test_id("position-name").fill("Keys and a drag")
    page.get_by_test_id("save-position").click()
    link = page.get_by_test_id("saved-link")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"{server.url}/practice/position/*/")
    expect(page.get_by_role("heading", name="Keys and a drag")).to_be_visible()
    page.get_by_test_id("play-position-button").click()
    page.wait_for_url(f"{server.url}/match/*/")
    page.wait_for_function("() => window.snookerState && snookerState().shownVersion !== null")
    balls = state(page)["balls"]
    assert sorted(balls) == ["red1", "white"]
    for ball in ("white", "red1"):
        assert math.dist(balls[ball], placed[ball]) < 0.01, ball
    assert errors == []
    context.close()
