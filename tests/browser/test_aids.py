"""Aids that reach the cushions (issue 38, item 5), in Chromium.

- The full guide: a bank shot draws the cue ball's line off the cushion (and the object
  ball's line runs on to the cushion or the pocket); the opponent watching sees the same.
- A ghost ball whose first contact would be a foul (the blue first with a red on) is crossed
  in red with the reason in words, in English and in Russian, for the striker and the watcher.
- A match made with the short guide draws no rebound, and says so on the page for both.
- The power in a player's terms beside the slider (static/js/power.js).

Screenshots go to artifacts/ (aids-en.png, aids-bank-en.png, aids-ru.png).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, login
from tests.browser.test_match_page import (
    DESKTOP,
    click_table,
    painted,
    set_angle,
    settled,
    state,
)
from tests.browser.test_table_ux import open_page

CUE = (-100.0, -1150.0)  # in the D, clear of the brown and the green
BLUE = (0.0, 0.0)


def drawn(page: Page) -> dict[str, Any]:
    painted(page)
    guide: dict[str, Any] = state(page)["guide"]
    return guide


def watcher_sees(page: Page, test: str) -> dict[str, Any]:
    """The opponent's page once its last aim drawn passes `test` (a JS predicate of it)."""
    page.wait_for_function(
        f"() => {{ const g = snookerState().guide.drawn; return Boolean(g && ({test})); }}",
        timeout=10_000,
    )
    return drawn(page)


def setup(browser: Any, server: Server, guide: str, locale: str) -> tuple[Server, Page, Page]:
    match = server.new_match(1, guide=guide)
    alice_ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    bob_ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    login(alice_ctx, match, "alice")
    login(bob_ctx, match, "bob")
    alice = open_page(alice_ctx, match)
    bob = open_page(bob_ctx, match)
    settled([alice, bob], 1)
    click_table(alice, CUE)
    placed = state(alice)["aim"]["cue_ball"]
    assert math.dist(placed, CUE) < 0.5, placed
    return match, alice, bob


def test_the_full_guide_banks_and_marks_a_foul_ghost(
    browser: Any, server: Server, artifacts: Path
) -> None:
    _, alice, bob = setup(browser, server, "full", "en-GB")
    for page in (alice, bob):
        expect(page.get_by_test_id("aim-guide")).to_have_text(
            "Aim guide: full, off the cushions and to the pockets"
        )
        assert state(page)["guide"]["kind"] == "full"
    # The power in a player's terms beside the slider, at the neutral 3 m/s.
    expect(alice.get_by_test_id("power-scale")).to_have_text(
        "medium pace · rolls 6.9 table lengths"
    )

    # Towards the left cushion: the line comes off it.
    set_angle(alice, math.radians(140.0))
    g = drawn(alice)["drawn"]
    assert g["mine"] and g["bank"] is not None, g
    assert abs(g["bank"][0] + (889.0 - 26.25)) < 1e-6  # the left cushion, a radius off it
    assert g["rebound"] > 1 and g["end"] in ("cushion", "ball", "stop", "pocket")
    alice.screenshot(path=str(artifacts / "aids-bank-en.png"))
    seen = watcher_sees(bob, "g.bank && !g.mine")["drawn"]
    assert seen["bank"] == g["bank"]

    # Straight at the blue with a red on: a foul, crossed in red, with the reason.
    set_angle(alice, math.atan2(BLUE[1] - CUE[1], BLUE[0] - CUE[0]))
    g = drawn(alice)["drawn"]
    assert g["target"] == "blue"
    assert g["foul"]["ball"] == "blue"
    assert g["foul"]["words"] == "Foul: the cue ball would hit the blue first (red on)"
    # The object ball's line runs on past where the short guide stopped: up the table to the
    # pink in its way.
    assert g["objectEnd"] == "ball"
    alice.screenshot(path=str(artifacts / "aids-en.png"))
    seen = watcher_sees(bob, "g.foul && !g.mine")["drawn"]
    assert seen["foul"]["words"] == g["foul"]["words"]
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]


def test_the_short_guide_in_russian(browser: Any, server: Server, artifacts: Path) -> None:
    _, alice, bob = setup(browser, server, "short", "ru-RU")
    for page in (alice, bob):
        expect(page.get_by_test_id("aim-guide")).to_have_text(
            "Линии прицела: короткие, до первого шара или борта"
        )
        assert state(page)["guide"]["kind"] == "short"
    expect(alice.get_by_test_id("power-scale")).to_have_text(
        "средняя сила · прокатится на 6,9 длины стола"
    )
    set_angle(alice, math.radians(140.0))
    g = drawn(alice)["drawn"]
    assert g["bank"] is None and g["rebound"] == 0 and g["end"] == "cushion"

    set_angle(alice, math.atan2(BLUE[1] - CUE[1], BLUE[0] - CUE[0]))
    g = drawn(alice)["drawn"]
    assert g["foul"]["words"] == "Нарушение: биток первым коснётся синего (на очереди красный)"
    assert g["objectEnd"] is None
    alice.screenshot(path=str(artifacts / "aids-ru.png"))
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]
