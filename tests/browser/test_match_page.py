"""The live match page in real browsers: two players and a spectator follow one match.

Alice places the cue ball in the D and breaks; Bob plays a stroke that touches nothing; Alice
decides in the panel beside the table; Alice pots a red; the spectator reloads; Bob's socket
dies while Alice plays and comes back. After every step each page shows what the server
stored: the same version, scores, ball positions and referee's calls, each stroke exactly
once. Screenshots of the player's and the spectator's views (1280×800 and 844×390) are written
to artifacts/.

Strokes are aimed through the page (click in the D, arrow keys, the aim field, the power
slider, the Strike button); the aims are chosen with the rules core in this process so that
the outcome (no foul, a foul, a pot) is known before the stroke is played.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser import strokes
from tests.browser.conftest import Server, login

PLAYBACK = 12  # strokes animate 12x faster than real time
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 844, "height": 390}


def state(page: Page) -> dict[str, Any]:
    return page.evaluate("window.snookerState()")  # type: ignore[no-any-return]


def open_match(context: BrowserContext, server: Server) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{server.url}/match/{server.match_id}/?playback={PLAYBACK}")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    return page


def settled(pages: list[Page], version: int) -> None:
    """Every page has shown `version` and nothing is moving or queued."""
    for page in pages:
        page.wait_for_function(
            "v => { const s = snookerState(); return s.shownVersion === v && !s.animating"
            " && s.queued === 0 && s.connection === 'open'; }",
            arg=version,
            timeout=20_000,
        )


def check_against_server(pages: list[Page], server: Server) -> dict[str, Any]:
    """Each page shows the stored snapshot: version, scores, turn, decision, every ball."""
    snap = server.snapshot()
    board = snap["scoreboard"]
    pending = snap["frame"]["pending"]
    for page in pages:
        s = state(page)
        assert s["version"] == s["shownVersion"] == snap["version"]
        assert s["scores"] == board["scores"] and s["frames"] == board["frames"]
        assert s["to_act"] == board["to_act"] and s["on"] == board["on"]
        assert s["pending"] == (
            {"holder": pending["holder"], "options": pending["options"]} if pending else None
        )
        balls = snap["frame"]["balls"]
        if snap["frame"]["in_hand"]:
            balls = {b: p for b, p in balls.items() if b != "white"}
            s["balls"].pop("white", None)
        assert sorted(s["balls"]) == sorted(balls)
        for ball, (x, y) in balls.items():
            px, py = s["balls"][ball]
            assert abs(px - x) < 0.01 and abs(py - y) < 0.01, (ball, (px, py), (x, y))
        # What people read: the scoreboard.
        for seat in "AB":
            expect(page.get_by_test_id(f"score-{seat}")).to_have_text(str(board["scores"][seat]))
            expect(page.get_by_test_id(f"frames-{seat}")).to_have_text(str(board["frames"][seat]))
        expect(page.get_by_test_id("break")).to_have_text(str(board["break"]))
        expect(page.get_by_test_id("remaining")).to_have_text(str(board["points_remaining"]))
        # Each event shown once, in order.
        shown = s["presented"]
        assert len(shown) == len(set(shown)) and shown == sorted(shown)
        assert not page.errors  # type: ignore[attr-defined]
    return snap


def same_calls(pages: list[Page], versions: list[int]) -> list[list[str]]:
    """The referee's calls for these versions, identical on every page."""
    seen = []
    for page in pages:
        calls = {c["version"]: c["calls"] for c in state(page)["calls"]}
        seen.append([calls[v] for v in versions])
    assert all(s == seen[0] for s in seen), seen
    return seen[0]


def set_power(page: Page, speed: float) -> float:
    """Move the power slider with the keyboard (steps of 0.1 m/s)."""
    slider = page.get_by_test_id("power")
    slider.focus()
    if speed > 5:
        slider.press("End")
        for _ in range(round((10 - speed) / 0.1)):
            slider.press("ArrowLeft")
    else:
        slider.press("Home")
        for _ in range(round((speed - 0.3) / 0.1)):
            slider.press("ArrowRight")
    value = state(page)["aim"]["speed"]
    assert abs(value - speed) < 1e-9
    return float(value)


def set_angle(page: Page, angle: float) -> None:
    """Type the aim (degrees) into the aim field."""
    field = page.get_by_test_id("aim-angle")
    field.fill(repr(math.degrees(angle)))
    field.press("Tab")
    page.wait_for_function(
        "a => { const d = snookerState().aim.angle - a;"
        " return Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) < 1e-9; }",
        arg=angle,
    )


def painted(page: Page) -> None:
    """Wait for the page's animation loop (static/js/match.js, `frame`) to have run since now,
    so that the table is drawn as the page stands: its size (each frame measures the canvas),
    the last aim. The loop's callback for the next frame was asked for before ours, so it has
    run by the time our second one runs."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def strike(page: Page) -> None:
    button = page.get_by_test_id("strike")
    expect(button).to_be_enabled()
    button.click()


def click_table(page: Page, point: tuple[float, float]) -> None:
    x, y = page.evaluate("p => snookerGeometry.toPage(p)", list(point))
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def drag_table(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    x0, y0 = page.evaluate("p => snookerGeometry.toPage(p)", list(start))
    x1, y1 = page.evaluate("p => snookerGeometry.toPage(p)", list(end))
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=6)
    page.mouse.up()


def test_a_match_followed_by_two_players_and_a_spectator(
    browser: Any, server: Server, artifacts: Path
) -> None:
    contexts = {
        "alice": browser.new_context(viewport=DESKTOP),
        "bob": browser.new_context(viewport=DESKTOP),
        "spectator": browser.new_context(viewport=DESKTOP, device_scale_factor=2),
    }
    login(contexts["alice"], server, "alice")
    login(contexts["bob"], server, "bob")
    alice = open_match(contexts["alice"], server)
    bob = open_match(contexts["bob"], server)
    spectator = open_match(contexts["spectator"], server)
    pages = [alice, bob, spectator]
    settled(pages, 1)
    snap = check_against_server(pages, server)

    # --- who sees what ---------------------------------------------------------------------
    expect(alice.get_by_test_id("name-A")).to_have_text("alice")
    expect(spectator.get_by_test_id("name-B")).to_have_text("bob")
    expect(spectator.get_by_test_id("controls")).to_be_hidden()
    expect(spectator.get_by_test_id("watching")).to_be_visible()
    expect(bob.get_by_test_id("strike")).to_be_disabled()
    expect(alice.get_by_test_id("spectators")).to_have_text("1 watching")
    expect(alice.get_by_test_id("to-act")).to_have_text("Your turn")
    expect(spectator.get_by_test_id("to-act")).to_have_text("alice to play")
    expect(spectator.get_by_test_id("ball-on")).to_have_text("red on · ball in hand")
    # The canvas is drawn for the screen's pixel density.
    dpr = spectator.evaluate(
        "() => { const c = document.querySelector('#table');"
        " return c.width / c.getBoundingClientRect().width; }"
    )
    assert abs(dpr - 2) < 0.02

    # --- 1. Alice places the cue ball in the D and breaks -----------------------------------
    expect(alice.get_by_test_id("strike")).to_be_disabled()  # nothing placed yet
    click_table(alice, (0.0, -1095.0))  # against the brown: refused
    expect(alice.get_by_test_id("notice")).to_contain_text("it touches the brown")
    assert state(alice)["aim"]["cue_ball"] is None
    click_table(alice, (100.0, -1170.0))
    cue = state(alice)["aim"]["cue_ball"]
    assert cue is not None and abs(cue[0] - 100) < 2 and abs(cue[1] + 1170) < 2
    # The click gave the table the keys, without the keyboard's focus ring.
    table = alice.get_by_test_id("table")
    expect(table).to_be_focused()
    assert table.evaluate("t => t.matches(':focus-visible')") is False
    drag_table(alice, tuple(cue), (150.0, -1150.0))  # the cue ball moves about the D
    cue = state(alice)["aim"]["cue_ball"]
    assert abs(cue[0] - 150) < 2 and abs(cue[1] + 1150) < 2
    drag_table(alice, (0.0, 0.0), (0.0, 800.0))  # dragging elsewhere aims from the cue ball
    aimed = math.atan2(800.0 - cue[1], 0.0 - cue[0])
    assert abs(state(alice)["aim"]["angle"] - aimed) < 0.01
    # Arrow keys turn the cue: ← anticlockwise by 0.5°, with Shift by 0.05°.
    before = state(alice)["aim"]["angle"]
    alice.get_by_test_id("table").focus()
    alice.keyboard.press("ArrowLeft")
    alice.keyboard.press("Shift+ArrowRight")
    turned = state(alice)["aim"]["angle"] - before
    assert abs(turned - math.radians(0.45)) < 1e-9
    speed = set_power(alice, 8.0)
    found = strokes.break_off(strokes.frame_of(snap), tuple(cue), speed)
    set_angle(alice, found.angle)
    # The spectator sees the aim and the cue ball in the D as the striker moves them.
    spectator.wait_for_function(
        "a => { const r = snookerState().remoteAim;"
        " return r && Math.abs(Math.sin(r.angle - a)) < 1e-9 && r.cue_ball; }",
        arg=found.angle,
    )
    strike(alice)
    spectator.wait_for_function(
        "() => snookerState().animating || snookerState().shownVersion === 2"
    )
    settled(pages, 2)
    snap = check_against_server(pages, server)
    assert snap["scoreboard"]["to_act"] == "B" and not snap["frame"]["in_hand"]
    for page in pages:  # animated from the trajectories, decoded consistently
        motion = state(page)["lastMotion"]
        assert motion["version"] == 2 and motion["seconds"] > 1
        assert motion["continuity"] < 1.0, motion

    # --- 2. Bob plays into open cloth: a foul; Alice decides --------------------------------
    expect(bob.get_by_test_id("strike")).to_be_enabled()
    speed = set_power(bob, 0.3)
    found = strokes.hit_nothing(strokes.frame_of(snap), speed)
    set_angle(bob, found.angle)
    strike(bob)
    settled(pages, 3)
    for page in pages:  # the referee's voice, beside the turn
        expect(page.get_by_test_id("referee-calls")).to_contain_text("FOUL")
    snap = check_against_server(pages, server)
    options = snap["frame"]["pending"]["options"]
    assert found.ruling.foul and snap["frame"]["pending"]["holder"] == "A"
    dialog = alice.get_by_test_id("decision-panel")
    expect(dialog).to_be_visible()
    buttons = dialog.locator("button[data-option]")
    expect(buttons).to_have_count(len(options))
    assert [buttons.nth(i).get_attribute("data-option") for i in range(len(options))] == options
    for page in (bob, spectator):  # they read the options, and cannot take one
        expect(page.get_by_test_id("decision-panel")).to_contain_text("alice decides")
        expect(page.get_by_test_id("decision-panel").locator("button")).to_have_count(0)
        expect(page.get_by_test_id("to-act")).to_have_text("alice is deciding")
    alice.screenshot(path=str(artifacts / "decision-1280x800.png"))
    alice.set_viewport_size(PHONE)
    for i in range(len(options)):
        expect(buttons.nth(i)).to_be_in_viewport()
    alice.screenshot(path=str(artifacts / "decision-844x390.png"))
    alice.set_viewport_size(DESKTOP)
    penalty = found.ruling.penalty
    calls = same_calls(pages, [3])[0]
    assert calls[0] == f"FOUL {penalty}" and calls == list(found.calls)
    for page in pages:
        expect(page.get_by_test_id("calls-log").locator("li").first).to_contain_text(
            f"FOUL {penalty}"
        )
    # A page that comes back meanwhile shows the foul again, from the frame's log.
    spectator.reload()
    spectator.wait_for_function("() => window.snookerState && snookerState().shownVersion === 3")
    expect(spectator.get_by_test_id("referee-calls")).to_contain_text("FOUL")
    alice.get_by_test_id("option-play").click()
    settled(pages, 4)
    snap = check_against_server(pages, server)
    assert snap["scoreboard"]["scores"] == {"A": penalty, "B": 0}
    assert snap["scoreboard"]["to_act"] == "A"

    # --- 3. Alice pots a red --------------------------------------------------------------
    speed_hint = strokes.pot_a_red(strokes.frame_of(snap))
    speed = set_power(alice, speed_hint.speed)
    found = strokes.pot_a_red(strokes.frame_of(snap), speeds=(speed,))
    set_angle(alice, found.angle)
    assert state(alice)["aim"]["target"].startswith("red")
    spectator.wait_for_function(
        "a => { const r = snookerState().remoteAim;"
        " return r && Math.abs(Math.sin(r.angle - a)) < 1e-9; }",
        arg=found.angle,
    )
    # Screenshots of a player about to pot, and of the spectator watching the aim.
    for page in (alice, spectator):
        painted(page)  # the last aim drawn
    alice.screenshot(path=str(artifacts / "player-1280x800.png"))
    spectator.screenshot(path=str(artifacts / "spectator-1280x800.png"))
    for page, name in ((alice, "player"), (spectator, "spectator")):
        page.set_viewport_size(PHONE)
        page.wait_for_function(
            "() => { const c = document.querySelector('#table').getBoundingClientRect();"
            " return c.bottom <= innerHeight && c.right <= innerWidth && c.height > 250; }"
        )
        expect(page.get_by_test_id("scoreboard")).to_be_visible()
        painted(page)
        page.screenshot(path=str(artifacts / f"{name}-844x390.png"))
    expect(alice.get_by_test_id("strike")).to_be_in_viewport()
    for page in (alice, spectator):
        page.set_viewport_size(DESKTOP)
    strike(alice)
    settled(pages, 5)
    snap = check_against_server(pages, server)
    assert snap["scoreboard"]["scores"]["A"] == penalty + found.ruling.points
    assert snap["scoreboard"]["to_act"] == "A" and snap["frame"]["on"] == "colour"
    same_calls([alice, bob], [2, 3, 4, 5])
    same_calls(pages, [4, 5])  # the spectator came back at 3
    expect(alice.get_by_test_id("nominate-row")).to_be_visible()

    # --- 4. The spectator reloads mid-frame: the same table at once ------------------------
    spectator.reload()
    spectator.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled([spectator], 5)
    check_against_server(pages, server)
    assert state(spectator)["presented"] == []  # nothing replayed: the welcome snapshot

    # --- 5. Bob's socket dies; Alice plays meanwhile; Bob catches up once ------------------
    contexts["bob"].set_offline(True)
    bob.evaluate("() => { const ws = snookerSocket(); if (ws) ws.close(); }")
    bob.wait_for_function("() => snookerState().connection !== 'open'")
    expect(bob.get_by_test_id("connection-banner")).to_be_visible()
    # Alice plays a colour: the nomination follows the ball aimed at.
    balls = snap["frame"]["balls"]
    white = balls["white"]
    colour = min(
        ("yellow", "green", "brown", "blue", "pink", "black"),
        key=lambda c: math.dist(balls[c], white) if c in balls else math.inf,
    )
    angle = math.atan2(balls[colour][1] - white[1], balls[colour][0] - white[0])
    set_power(alice, 1.0)
    set_angle(alice, angle)
    if state(alice)["aim"]["target"] == colour:
        expect(alice.get_by_test_id("nominate")).to_have_value(colour)
    strike(alice)
    settled([alice, spectator], 6)
    contexts["bob"].set_offline(False)
    settled(pages, 6)
    check_against_server(pages, server)
    assert state(bob)["reconnects"] >= 1
    assert state(bob)["presented"] == [2, 3, 4, 5, 6]
    expect(bob.get_by_test_id("connection-banner")).to_be_hidden()
    same_calls([alice, bob], [2, 3, 4, 5, 6])
    same_calls([alice, bob, spectator], [6])

    # --- 6. A player's reload lands in the same state -------------------------------------
    alice.reload()
    alice.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    settled(pages, 6)
    check_against_server(pages, server)
    for context in contexts.values():
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "844x390"])
def test_the_table_fits_the_screen(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    """Drawn to scale, whole, and redrawn when the window changes."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = open_match(context, server)
    box = page.get_by_test_id("table").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= viewport["width"] + 1
    assert box["y"] + box["height"] <= viewport["height"] + 1
    # True to scale: the playing area's 3569 × 1778 mm keep their ratio on the screen.
    a = page.evaluate("snookerGeometry.toPage([-889, -1784.5])")
    b = page.evaluate("snookerGeometry.toPage([889, 1784.5])")
    assert abs((b[0] - a[0]) / (b[1] - a[1]) - 3569 / 1778) < 1e-6
    assert b[0] - a[0] > 0.5 * box["width"]  # the long axis runs across the screen
    scale = page.evaluate("snookerGeometry.scale()")
    page.set_viewport_size({"width": viewport["width"] - 200, "height": viewport["height"]})
    page.wait_for_function("s => snookerGeometry.scale() < s", arg=scale)
    context.close()


class Proxy:
    """Stands between a page and the server (Playwright's WebSocket routing) to lose messages."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.mode: str | None = None  # "drop_stroke" or "drop_answers", once

    def __call__(self, ws: Any) -> None:
        server = ws.connect_to_server()
        losing = {"answers": False}

        def from_page(text: str | bytes) -> None:
            message = json.loads(text)
            self.sent.append(message)
            if message["type"] == "stroke" and self.mode == "drop_stroke":
                self.mode = None
                ws.close()  # the stroke never reached the server, and the socket died
                return
            if message["type"] == "stroke" and self.mode == "drop_answers":
                self.mode = None
                losing["answers"] = True
            server.send(text)

        def from_server(text: str | bytes) -> None:
            message = json.loads(text)
            if losing["answers"] and message["type"] in ("ack", "event"):
                if message["type"] == "event":
                    ws.close()  # applied, but the page heard neither the ack nor the event
                return
            ws.send(text)

        ws.on_message(from_page)
        server.on_message(from_server)

    def strokes(self) -> list[str]:
        return [m["client_id"] for m in self.sent if m["type"] == "stroke"]


def test_a_stroke_lost_with_the_socket_is_played_once(browser: Any, server: Server) -> None:
    """An unanswered stroke is sent again (same client_id) after the reconnect; a stroke whose
    answers were lost is not, since the missed event covers it. Each is applied once."""
    match = server.new_match(1)
    pages, proxies, contexts = [], [], []
    for name in ("alice", "bob"):
        context = browser.new_context(viewport=DESKTOP)
        login(context, match, name)
        proxy = Proxy()
        context.route_web_socket("**/ws/match/**", proxy)
        pages.append(open_match(context, match))
        proxies.append(proxy)
        contexts.append(context)
    alice, bob = pages
    settled(pages, 1)

    # Alice's break is lost on the way with the socket: it is sent again after the reconnect.
    click_table(alice, (150.0, -1150.0))
    cue = state(alice)["aim"]["cue_ball"]
    speed = set_power(alice, 8.0)
    found = strokes.break_off(strokes.frame_of(match.snapshot()), tuple(cue), speed)
    set_angle(alice, found.angle)
    proxies[0].mode = "drop_stroke"
    strike(alice)
    settled(pages, 2)
    sent = proxies[0].strokes()
    assert len(sent) == 2 and sent[0] == sent[1]
    assert state(alice)["reconnects"] >= 1
    check_against_server(pages, match)

    # Bob's stroke is applied but its ack and event are lost: the reconnect brings the event,
    # and the stroke is not sent again.
    snap = match.snapshot()
    speed = set_power(bob, 0.3)
    found = strokes.hit_nothing(strokes.frame_of(snap), speed)
    set_angle(bob, found.angle)
    proxies[1].mode = "drop_answers"
    strike(bob)
    settled(pages, 3)
    assert len(proxies[1].strokes()) == 1
    assert state(bob)["reconnects"] >= 1 and state(bob)["presented"] == [2, 3]
    check_against_server(pages, match)
    for context in contexts:
        context.close()


def test_a_handicap_start_is_on_the_scoreboard_from_the_first_frame(
    browser: Any, server: Server
) -> None:
    """RULES.md §10: Bob starts every frame 28 up; his score shows it with "+28 start", in
    the page's language, before the first stroke; Alice's side shows no start."""
    match = server.new_match(3, start=(0, 28))
    context = browser.new_context(viewport=DESKTOP)
    login(context, match, "alice")
    page = open_match(context, match)
    expect(page.get_by_test_id("score-B")).to_have_text("28")
    expect(page.get_by_test_id("start-B")).to_have_text("+28 start")
    expect(page.get_by_test_id("score-A")).to_have_text("0")
    expect(page.get_by_test_id("start-A")).to_have_text("")
    assert not page.errors  # type: ignore[attr-defined]
    # In Russian (the language cookie the header's switch sets).
    context.add_cookies([{"name": "django_language", "value": "ru", "url": match.url}])
    page = open_match(context, match)
    expect(page.get_by_test_id("start-B")).to_have_text("фора +28")
    expect(page.get_by_test_id("start-A")).to_have_text("")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
