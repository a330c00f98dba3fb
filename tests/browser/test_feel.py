"""Strokes a player feels (issue 38, point 6), in Chromium.

- The cue at the strike: it draws back from the address, comes through the cue ball, which
  moves only once the tip has reached it, and goes on through the ball's place, on the
  striker's table and on the watcher's alike.
- Sound on by default, quiet, switched off in one tap from the turn bar; while the balls run
  the turn bar says so (not "Your turn · ball in hand").
- Power by a finger pulling the cue drawn on the table.
- The break-off aimed thin on the end red, not full into the pack.
- The score, the break and what is on change as the last ball of a pot drops.
"""

from __future__ import annotations

import math
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser import strokes
from tests.browser.conftest import Server, login
from tests.browser.test_match_page import (
    DESKTOP,
    click_table,
    open_match,
    set_angle,
    set_power,
    settled,
    state,
    strike,
)

PHONE_360 = {"width": 360, "height": 780}
BALL_RADIUS = 26.25  # mm (rules/table.py)


def table(browser: Any, match: Server, user: str, **options: Any) -> tuple[Any, Page]:
    """`user` at `match`'s table, strokes played back in real time."""
    context = browser.new_context(**options)
    login(context, match, user)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{match.url}/match/{match.match_id}/?playback=1")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    return context, page


def test_the_cue_swings_back_and_through_the_ball(browser: Any, server: Server) -> None:
    match = server.new_match(1)
    alice_context, alice = table(browser, match, "alice", viewport=DESKTOP)
    bob_context, bob = table(browser, match, "bob", viewport=PHONE_360, has_touch=True)
    alice.wait_for_function("() => snookerState().ready")
    alice.get_by_test_id("place-cue").click()
    alice.wait_for_function("() => snookerState().aim.cue_ball !== null")
    speed = set_power(alice, 1.5)
    version = state(alice)["version"]
    strike(alice)
    for page in (alice, bob):
        page.wait_for_function(
            "v => { const s = snookerState(); return s.shownVersion > v && !s.animating; }",
            arg=version,
            timeout=30_000,
        )
        swing = state(page)["swing"]
        assert swing is not None and swing["version"] == version + 1
        address = 12 + speed * 14  # cueswing.js addressPull
        assert swing["most"] > address + 20, swing  # drawn back past the address
        assert swing["least"] < -10, swing  # and through the ball's place
        assert swing["stillBefore"], swing  # the cue ball waits for the tip
        assert swing["frames"] >= 5, swing
        assert not page.errors  # type: ignore[attr-defined]
    alice_context.close()
    bob_context.close()


def test_sound_is_on_and_off_in_one_tap_on_a_russian_phone(browser: Any, server: Server) -> None:
    """Sound on by default: the stroke is heard without a visit to the settings; the turn bar's
    speaker, on the screen of a 360 px phone, switches it off in one tap, and the page keeps
    that after a reload."""
    match = server.new_match(1)
    bob_context, _ = table(browser, match, "bob", viewport=DESKTOP)  # the match starts
    context, page = table(
        browser, match, "alice", viewport=PHONE_360, has_touch=True, is_mobile=True, locale="ru"
    )
    speaker = page.get_by_test_id("sound-toggle")
    expect(speaker).to_have_attribute("aria-pressed", "true")
    expect(speaker).to_have_attribute("aria-label", "Звук у стола")
    box = speaker.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_360["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE_360["height"], box
    page.wait_for_function("() => snookerState().ready")
    page.get_by_test_id("place-cue").tap()  # the first touch also lets the page start audio
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    version = state(page)["version"]
    page.get_by_test_id("strike").tap()
    # While her balls run it is nobody's turn, and the cue ball is no longer in hand.
    expect(page.get_by_test_id("to-act")).to_have_text("Шары катятся")
    expect(page.get_by_test_id("ball-on")).to_have_text("на очереди красный")
    page.wait_for_function(
        "v => { const s = snookerState(); return s.shownVersion > v && !s.animating; }",
        arg=version,
        timeout=30_000,
    )
    expect(page.get_by_test_id("to-act")).not_to_have_text("Шары катятся")
    heard = state(page)["sounds"]
    assert "strike" in heard, heard
    speaker.tap()
    expect(speaker).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("table-sound")).not_to_be_checked()
    page.reload()
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
    bob_context.close()


def test_a_finger_pulls_the_cue_back_for_power(browser: Any, server: Server) -> None:
    """On a 360 px touch phone in Russian: a finger on the cue drawn behind the cue ball,
    dragged back along it, raises the power (the slider and its words follow) and leaves the
    aim where it was; dragged towards the ball, lowers it."""
    match = server.new_match(1)
    context, page = table(
        browser, match, "alice", viewport=PHONE_360, has_touch=True, is_mobile=True, locale="ru"
    )
    page.wait_for_function("() => snookerState().ready")
    page.get_by_test_id("place-cue").tap()
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    page.evaluate("() => window.scrollTo(0, 0)")
    before = state(page)["aim"]
    words = page.get_by_test_id("power-value").text_content()
    # Points on the cue's line behind the cue ball, in the page's pixels.
    line = """([behind]) => {
      const s = snookerState().aim;
      const [x, y] = s.cue_ball;
      const p = [x - Math.cos(s.angle) * behind, y - Math.sin(s.angle) * behind];
      return snookerGeometry.toPage(p);
    }"""
    scale = page.evaluate("() => snookerGeometry.scale()")
    start = page.evaluate(line, [400])
    back = page.evaluate(line, [400 + 60 / scale])  # 60 px further back
    forward = page.evaluate(line, [400 - 30 / scale])
    cdp = context.new_cdp_session(page)

    def touch(kind: str, at: list[float] | None) -> None:
        points = [] if at is None else [{"x": at[0], "y": at[1]}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start)
    for k in range(1, 7):
        touch("touchMove", [start[0] + (back[0] - start[0]) * k / 6,
                            start[1] + (back[1] - start[1]) * k / 6])  # fmt: skip
    # 60 px of the 240 that sweep the whole range (powerdrag.js PULL_PX): 2.4 m/s harder.
    page.wait_for_function(
        "s => Math.abs(snookerState().aim.speed - s - 2.4) < 0.15", arg=before["speed"]
    )
    harder = state(page)["aim"]
    assert harder["angle"] == before["angle"]
    expect(page.get_by_test_id("power-value")).not_to_have_text(words or "")
    assert float(page.get_by_test_id("power").input_value()) == harder["speed"]
    touch("touchMove", forward)
    touch("touchEnd", None)
    page.wait_for_function("s => snookerState().aim.speed < s", arg=before["speed"])
    assert state(page)["aim"]["angle"] == before["angle"]
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_the_break_off_is_aimed_thin_on_the_end_red(browser: Any, server: Server) -> None:
    """The break-off's cue ball placed from hand: the cue points thin on the outside of the end
    red of the back row on its side, not full into the pack."""
    match = server.new_match(1)
    context, page = table(browser, match, "alice", viewport=DESKTOP)
    page.wait_for_function("() => snookerState().ready")
    page.get_by_test_id("place-cue").click()
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    s = state(page)
    cue, balls = s["aim"]["cue_ball"], s["balls"]
    reds = [b for b in s["ballsOn"] if b in balls]
    back = max(balls[b][1] for b in reds)
    row = [b for b in reds if abs(balls[b][1] - back) < 1]
    side = 1 if cue[0] >= 0 else -1
    end = max(row, key=lambda b: balls[b][0] * side)
    assert s["aim"]["target"] == end, (s["aim"], end)
    red = balls[end]
    full = math.atan2(red[1] - cue[1], red[0] - cue[0])
    # The path passes the red on its cushion's side, 0.8 of a ball from its centre.
    passes = math.sin(full - s["aim"]["angle"]) * math.dist(cue, red) * (1 if red[0] > 0 else -1)
    assert abs(passes - 0.8 * 2 * BALL_RADIUS) < 0.5, passes
    context.close()


def test_the_score_changes_as_the_ball_drops(browser: Any, server: Server) -> None:
    """Alice pots a red: her score, the break and what is on change once it has dropped, while
    the cue ball still runs, on her table and the watcher's."""
    match = server.new_match(1)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    alice, bob = open_match(contexts[0], match), open_match(contexts[1], match)
    settled([alice, bob], 1)
    click_table(alice, (150.0, -1150.0))
    cue = alice.evaluate("snookerState().aim.cue_ball")
    found = strokes.break_off(strokes.frame_of(match.snapshot()), tuple(cue), set_power(alice, 8.0))
    set_angle(alice, found.angle)
    strike(alice)
    settled([alice, bob], 2)
    found = strokes.hit_nothing(strokes.frame_of(match.snapshot()), set_power(bob, 0.3))
    set_angle(bob, found.angle)
    strike(bob)
    settled([alice, bob], 3)
    alice.get_by_test_id("option-play").click()
    settled([alice, bob], 4)
    # Both tables now play strokes back in real time.
    for page in (alice, bob):
        page.goto(f"{match.url}/match/{match.match_id}/?playback=1")
    settled([alice, bob], 4)
    alice.wait_for_function("() => snookerState().ready")

    def runs_on(shot: Any) -> bool:
        """The cue ball still runs a second after the last red has dropped."""
        drops = [e.time for e in shot.events if e.kind.value == "pocket" and e.balls != ("white",)]
        return bool(drops) and max(drops) < shot.duration - 1

    frame = strokes.frame_of(match.snapshot())
    hint = strokes.pot_a_red(frame, speeds=(3.2, 4.0, 5.0, 6.0), also=runs_on)
    found = strokes.pot_a_red(frame, speeds=(set_power(alice, hint.speed),), also=runs_on)
    set_angle(alice, found.angle)
    strike(alice)
    settled([alice, bob], 5)
    board = match.snapshot()["scoreboard"]
    for page in (alice, bob):
        assert 5 in state(page)["scoredEarly"], state(page)["scoredEarly"]
        expect(page.get_by_test_id("score-A")).to_have_text(str(board["scores"]["A"]))
        expect(page.get_by_test_id("break")).to_have_text(str(board["break"]))
    for context in contexts:
        context.close()
