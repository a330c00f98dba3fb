"""A played match conceded, its page, and the replay of its frame, in real browsers.

Alice breaks, Bob plays into open cloth (a foul), Alice plays on and pots a red, then concedes
the match. Reloaded, the match's page is its record: the frame scores, the final position, the
referee's log. The replay of the frame steps through the strokes: at every step each ball is
where the server stored it (within 0.01 mm); back, a link to a stroke, play to the end.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser import strokes
from tests.browser.conftest import Server, login
from tests.browser.test_concede_and_claim import confirm
from tests.browser.test_csp import violations, watched
from tests.browser.test_match_page import (
    DESKTOP,
    click_table,
    open_match,
    set_angle,
    set_power,
    settled,
    strike,
)


def stored(server: Server) -> dict[str, Any]:
    """The match's stored state and events, as the server keeps them."""
    text = server.manage(
        "import json\nfrom game.models import Match, MatchEvent\n"
        f"m = Match.objects.get(pk={server.match_id})\n"
        "events = MatchEvent.objects.filter(match=m).order_by('version')\n"
        "print(json.dumps({'state': m.state,"
        " 'events': [json.loads(p) for p in events.values_list('payload', flat=True)]}))"
    )
    data: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return data


def replay_state(page: Page) -> dict[str, Any]:
    return page.evaluate("window.snookerReplay()")  # type: ignore[no-any-return]


def still(page: Page, at: int) -> dict[str, Any]:
    page.wait_for_function(
        "at => { const r = snookerReplay(); return r.at === at && !r.animating; }", arg=at
    )
    return replay_state(page)


def same_balls(shown: dict[str, list[float]], expected: dict[str, list[float]]) -> None:
    assert sorted(shown) == sorted(expected)
    for ball, (x, y) in expected.items():
        px, py = shown[ball]
        assert abs(px - x) < 0.01 and abs(py - y) < 0.01, (ball, (px, py), (x, y))


def test_a_conceded_match_its_page_and_its_replay(
    browser: Any, server: Server, artifacts: Path
) -> None:
    match = server.new_match(3)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    watching, console = watched(browser)  # a visitor, whose pages report CSP violations
    contexts.append(watching)
    login(contexts[0], match, "alice")
    login(contexts[1], match, "bob")
    alice, bob = open_match(contexts[0], match), open_match(contexts[1], match)
    settled([alice, bob], 1)

    # Alice breaks from the D; Bob hits nothing; Alice plays on and pots a red.
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
    hint = strokes.pot_a_red(strokes.frame_of(match.snapshot()))
    found = strokes.pot_a_red(
        strokes.frame_of(match.snapshot()), speeds=(set_power(alice, hint.speed),)
    )
    set_angle(alice, found.angle)
    strike(alice)
    settled([alice, bob], 5)

    # Alice concedes the match.
    confirm(alice, "concede-match", "Concede the match?")
    settled([alice, bob], 6)
    expect(bob.get_by_test_id("match-banner")).to_contain_text("bob wins the match")
    data = stored(match)
    scores = data["state"]["frames"][0]["scores"]
    assert scores["A"] >= 5 and scores["B"] == 0  # Bob's penalty and Alice's red

    # The finished match's page: its record, for anyone.
    visitor = contexts[2].new_page()
    errors: list[str] = []
    visitor.on("pageerror", lambda e: errors.append(str(e)))
    visitor.goto(f"{match.url}/match/{match.match_id}/")
    expect(visitor.get_by_test_id("match-result")).to_contain_text("bob wins the match")
    expect(visitor.get_by_test_id("match-frames")).to_have_text("1–0")
    expect(visitor.get_by_test_id("frame-1-A")).to_have_text(str(scores["A"]))
    expect(visitor.get_by_test_id("frame-1-B")).to_have_text("0")
    log = visitor.get_by_test_id("log-1")
    expect(log).to_contain_text("FOUL")
    expect(log).to_contain_text("alice concedes the match")
    # The final position is drawn: the little table's canvas has pixels.
    visitor.wait_for_function(
        "() => { const c = document.querySelector('canvas.mini-table');"
        " return c.width > 0 && c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1)"
        ".data[3] > 0; }"
    )
    visitor.screenshot(path=str(artifacts / "match-record-1280x800.png"), full_page=True)
    assert violations(visitor) == []

    # The replay of frame 1: every step lands where the server stored the balls.
    visitor.get_by_test_id("replay-1").click()
    visitor.wait_for_function("() => window.snookerReplay && snookerReplay().total > 0")
    visitor.get_by_test_id("speed").select_option("8")
    events = data["events"]
    final = data["state"]["frames"][0]["final"]["balls"]
    start = replay_state(visitor)
    assert start["total"] == 5 and start["at"] == 0 and start["strokes"] == 3
    same_balls(start["balls"], events[0]["snapshot"]["frame"]["balls"])
    expected = [e["snapshot"]["frame"]["balls"] for e in events[1:5]] + [final]
    for at in range(1, 6):
        visitor.get_by_test_id("step-forward").click()
        shown = still(visitor, at)
        same_balls(shown["balls"], expected[at - 1])
        assert shown["version"] == at + 1
    expect(visitor.get_by_test_id("calls")).to_have_text("FRAME OVER")  # the concession
    visitor.get_by_test_id("step-back").click()
    visitor.get_by_test_id("step-back").click()
    same_balls(still(visitor, 3)["balls"], expected[2])
    expect(visitor.get_by_test_id("score-A")).to_have_text("4")

    # A link to a stroke: Bob's, the 2nd, as it is about to be played.
    visitor.goto(f"{match.url}/match/{match.match_id}/replay/?frame=1&stroke=2&speed=8")
    shown = still(visitor, 1)
    same_balls(shown["balls"], expected[0])
    assert shown["stroke"] == 2
    expect(visitor.get_by_test_id("stroke-number")).to_have_text("2")
    link = visitor.get_by_test_id("stroke-link")
    assert "stroke=2" in link.get_attribute("href")  # the number shown is the address
    # The log's line of that stroke is the one marked; a line opens its own stroke.
    current = visitor.locator(".replay-log li.current")
    expect(current).to_have_attribute("data-step", "2")
    visitor.locator('.replay-log li[data-step="3"]').click()
    expect(visitor.get_by_test_id("stroke-number")).to_have_text("3")
    assert "stroke=3" in link.get_attribute("href")
    visitor.locator('.replay-log li[data-step="2"]').click()
    # Play runs to the end of the frame, animating each stroke from its trajectories.
    visitor.get_by_test_id("play").click()
    visitor.wait_for_function("() => snookerReplay().animating")
    shown = visitor.wait_for_function(
        "() => { const r = snookerReplay(); return !r.playing && r.at === r.total && r; }",
        timeout=30_000,
    ).json_value()
    same_balls(shown["balls"], final)
    assert "stroke" not in visitor.url
    # Jump to a stroke.
    visitor.get_by_test_id("jump").fill("3")
    visitor.get_by_test_id("jump").press("Enter")
    same_balls(still(visitor, 3)["balls"], expected[2])
    assert visitor.url.endswith("?frame=1&speed=8&stroke=3")
    # The replay's keys work wherever the focus is (here on a button), not only on the table.
    visitor.get_by_test_id("first").click()
    visitor.keyboard.press("ArrowRight")
    visitor.wait_for_function("() => snookerReplay().at >= 1 && !snookerReplay().animating")
    visitor.keyboard.press("End")
    visitor.wait_for_function("() => snookerReplay().at === snookerReplay().total")
    visitor.get_by_test_id("jump").fill("3")
    visitor.get_by_test_id("jump").press("Enter")
    visitor.screenshot(path=str(artifacts / "replay-1280x800.png"))
    assert not errors and violations(visitor) == [] and console == []
    for path in ("/players/", "/players/alice/", "/players/?q=BO"):
        visitor.goto(f"{match.url}{path}")
        expect(
            visitor.get_by_test_id("recent-matches" if "alice" in path else "members")
        ).to_be_visible()
        assert violations(visitor) == []
    visitor.screenshot(path=str(artifacts / "members-1280x800.png"), full_page=True)
    visitor.goto(f"{match.url}/players/bob/")
    visitor.screenshot(path=str(artifacts / "profile-1280x800.png"), full_page=True)

    # The coach (docs/coach.md): a visitor is offered no analysis; Bob, a player, asks for one,
    # the computer's process runs it (here the test's own shell), and his open replay shows
    # its marks; at his own stroke into open cloth, the Pro's stroke beside his.
    visitor.goto(f"{match.url}/match/{match.match_id}/replay/?frame=1")
    expect(visitor.get_by_test_id("coach")).to_be_attached()
    expect(visitor.get_by_test_id("analyse")).to_be_hidden()
    player = contexts[1].new_page()
    player.on("pageerror", lambda e: errors.append(str(e)))
    player.goto(f"{match.url}/match/{match.match_id}/replay/?frame=1&stroke=2&speed=8")
    player.get_by_test_id("analyse").click()
    expect(player.get_by_test_id("coach-status")).to_contain_text("Queued")
    ran = match.manage(
        "import asyncio\nfrom concurrent.futures import ThreadPoolExecutor\n"
        "from computer import analysis, driver\n"
        "driver.use_pool(ThreadPoolExecutor(1))\n"
        "print(asyncio.run(analysis.analyse_waiting()))"
    )
    assert ran.strip().splitlines()[-1] == "4"  # the break-off, Bob's foul, the choice, the pot
    expect(player.get_by_test_id("coach-status")).to_contain_text("Analysed", timeout=10_000)
    bobs = player.locator('.replay-log li[data-version="3"] [data-testid="coach-mark"]')
    expect(bobs).to_have_attribute("data-mark", "blunder")
    expect(bobs).to_contain_text("a foul that was avoidable")  # for a screen reader
    compared = player.wait_for_function("() => snookerReplay().compared").json_value()
    assert compared["version"] == 3 and compared["aim"] is not None
    expect(player.get_by_test_id("coach-pro")).to_contain_text("The professional's stroke")
    expect(player.get_by_test_id("coach-summary")).to_contain_text("bob: accuracy ")
    expect(player.get_by_test_id("coach-graph")).to_have_attribute(
        "aria-label", re.compile(r"^alice's chance of winning the frame")
    )
    player.screenshot(path=str(artifacts / "replay-analysed-1280x800.png"))
    # And plays on from there against the computer: his stroke again, the balls where they were.
    player.get_by_test_id("play-from-opponent").select_option("novice")
    player.get_by_test_id("play-from-button").click()
    player.wait_for_url(re.compile(r"/match/\d+/$"))
    player.wait_for_function(
        "() => window.snookerState && snookerState().shownVersion === 1"
        " && !snookerState().animating"
    )
    shown = player.evaluate("snookerState()")
    same_balls(shown["balls"], expected[0])  # as it stood before Bob's stroke
    assert shown["seat"] == "A" and shown["to_act"] == "A"
    assert not errors
    for context in contexts:
        context.close()
