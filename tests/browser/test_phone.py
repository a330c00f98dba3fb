"""The club on a phone (Chromium at 360×740): the ladder fits with no scrolling inside; the
site menu folds behind one button; the table's scoreboard shows a 12-letter name whole on a
390 px phone; the table fits one screen. That every page fits a 360 px screen, logged out and
in, in both languages, is measured on the axe test's visits (tests/browser/test_axe.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PASSWORD, Server, login

PHONE_NARROW = {"width": 360, "height": 740}
PHONE_390 = {"width": 390, "height": 844}
LONG_NAME = "maximiliana1"  # 12 characters


@pytest.fixture(scope="module")
def club(server: Server) -> dict[str, Any]:
    """A club with something on every page: a long-named member, a ladder of four, a pending
    challenge, and a finished match (conceded) with its record and replay."""
    out = server.manage(
        "import json\n"
        "from django.contrib.auth import get_user_model\n"
        "from club import service as club_service\n"
        "from game import service\n"
        "from game.protocol import client_in\n"
        "from ladder import service as ladder_service\n"
        "from rules.challenges import Format\n"
        "U = get_user_model().objects\n"
        f"U.create_user({LONG_NAME!r}, password={PASSWORD!r})\n"
        "alice, bob, carol, maxi = (U.get(username=n) for n in"
        f" ('alice', 'bob', 'carol', {LONG_NAME!r}))\n"
        "ladder = ladder_service.main_ladder()\n"
        "for m in (alice, bob, carol, maxi): ladder_service.join(ladder.pk, m)\n"
        "pending = club_service.challenge(carol, alice, Format(3, None, False)).challenge\n"
        "done = service.create_match(alice, bob, 1, draw='A')\n"
        "service.submit(done.pk, bob, client_in.Concede(type='concede',"
        " client_id='phone-concede', scope='match'))\n"
        "long = service.create_match(maxi, alice, 3, draw='A')\n"
        "from club import positions\n"
        "spot = positions.save(alice, 'A long red', {'balls': {'white': [0, -1000],"
        " 'red1': [100, 900]}, 'on': 'red', 'striker': 'A'})\n"
        "print(json.dumps({'challenge': pending.pk, 'done': done.pk, 'long': long.pk,"
        " 'position': spot.pk}))"
    )
    seeded: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return seeded


def pages(server: Server, club: dict[str, Any], logged_in: bool) -> list[str]:
    common = [
        "/",
        "/players/",
        "/players/alice/",
        "/ladder/",
        "/ladder/history/",
        f"/match/{server.match_id}/",
        f"/match/{club['done']}/",
        f"/match/{club['done']}/replay/",
        f"/practice/position/{club['position']}/",
        "/no-such-page/",  # the site's own 404
    ]
    if not logged_in:
        return [*common, "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"]
    return [
        *common,
        "/challenges/new/",
        "/challenges/invite/",
        f"/challenges/{club['challenge']}/",
        "/practice/",
        "/practice/position/",
        "/practice/drills/",
        "/computer/",
        "/chat/settings/",
        "/accounts/password_change/",
        f"/match/{club['long']}/",
    ]


def width(page: Page) -> int:
    found: int = page.evaluate("document.documentElement.scrollWidth")
    return found


def settle(page: Page) -> None:
    """Wait for what the page's scripts draw (the live table fills its scoreboard from the
    server's snapshot) before measuring."""
    page.wait_for_load_state("load")
    if page.get_by_test_id("frame-number").count():
        page.wait_for_function(
            "() => document.querySelector('[data-testid=frame-number]').textContent.length > 0"
        )


def test_the_ladder_fits_a_phone_without_scrolling_inside(
    browser: Any, server: Server, club: dict[str, Any], artifacts: Path
) -> None:
    """Every member's row whole on the screen, the Challenge button too (a table wider than a
    phone scrolls inside itself: the ladder's is laid out to need no scrolling)."""
    for locale in ("en", "ru"):
        context = browser.new_context(viewport=PHONE_NARROW, locale=locale, has_touch=True)
        login(context, server, LONG_NAME)  # the last position: the places above to challenge
        page = context.new_page()
        page.goto(f"{server.url}/ladder/")
        # The page reads its changing part again at its socket's welcome (static/js/site.js):
        # measured once that read has landed, in one step in the page.
        page.wait_for_selector("[data-live][data-reads]")
        expect(page.get_by_test_id("challenge-carol")).to_be_visible()
        inner, outer, right = page.evaluate(
            "() => { const t = document.querySelector('[data-testid=\"ladder\"]');"
            " const b = document.querySelector('[data-testid=\"challenge-carol\"]')"
            ".getBoundingClientRect(); return [t.scrollWidth, t.clientWidth, b.right]; }"
        )
        assert inner <= outer, (locale, inner, outer)
        assert right <= PHONE_NARROW["width"], (locale, right)
        page.screenshot(path=str(artifacts / f"phone-ladder-{locale}-360.png"))
        context.close()


def test_the_menu_folds_and_opens(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE_NARROW, has_touch=True)
    login(context, server, "carol")
    page = context.new_page()
    page.goto(f"{server.url}/players/")
    toggle = page.get_by_test_id("menu-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("link", name="Practice")).to_be_hidden()
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    for name in ("Challenge", "Practice", "Password"):
        link = page.get_by_role("link", name=name)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    expect(page.get_by_role("button", name="Log out")).to_be_in_viewport()
    expect(page.get_by_test_id("language-ru")).to_be_in_viewport()
    # On a desktop the menu is the row it always was: no button, every link shown.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(toggle).to_be_hidden()
    expect(page.get_by_role("link", name="Practice")).to_be_visible()
    context.close()


def test_the_join_button_can_be_tapped(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE_NARROW, has_touch=True, locale="ru")
    page = context.new_page()
    page.goto(f"{server.url}/accounts/signup/")
    button = page.locator("form.stack button[type=submit]")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    context.close()


def test_a_12_letter_name_whole_on_the_scoreboard(
    browser: Any, server: Server, club: dict[str, Any], artifacts: Path
) -> None:
    for locale in ("en", "ru"):
        context = browser.new_context(viewport=PHONE_390, has_touch=True, locale=locale)
        login(context, server, "carol")
        page = context.new_page()
        page.goto(f"{server.url}/match/{club['long']}/")
        name = page.get_by_test_id("name-A")
        expect(name).to_have_text(LONG_NAME)
        # Whole: the text is not clipped (no ellipsis), and it lies inside the screen.
        page.wait_for_function(
            "() => document.querySelector('[data-testid=frame-number]').textContent.length > 0"
        )
        clipped = name.evaluate("e => e.scrollWidth > e.clientWidth")
        assert not clipped
        box = name.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert width(page) <= 390
        context.close()


def test_each_score_stays_on_its_own_row_of_the_log(
    browser: Any, server: Server, club: dict[str, Any]
) -> None:
    """The referee's log on a record and a replay: however a row's words wrap, its score sits
    within that row (a float at the row's end used to hang into the next one)."""
    context = browser.new_context(viewport=PHONE_NARROW, has_touch=True, locale="ru")
    page = context.new_page()
    for path in (f"/match/{club['done']}/", f"/match/{club['done']}/replay/"):
        page.goto(f"{server.url}{path}")
        rows = page.locator("ol.log-entries li")
        expect(rows.first).to_be_attached()
        # Narrow, so that every row wraps; its details shown (the record folds them away).
        page.evaluate(
            "() => { document.querySelectorAll('details').forEach((d) => { d.open = true; });"
            " document.querySelectorAll('ol.log-entries').forEach((ol) => {"
            "   ol.style.width = '9rem'; }); }"
        )
        wrapped, strays = page.evaluate(
            "() => { const rows = [...document.querySelectorAll('ol.log-entries li')];"
            " const lines = (el) => Math.round(el.getBoundingClientRect().height /"
            "   parseFloat(getComputedStyle(el).lineHeight));"
            " const out = rows.filter((li) => { const r = li.getBoundingClientRect();"
            "   const s = li.querySelector('.score').getBoundingClientRect();"
            "   return s.top < r.top - 1 || s.bottom > r.bottom + 1; });"
            " return [rows.filter((li) => lines(li) > 1).length, out.length]; }"
        )
        assert wrapped > 0 and strays == 0, (path, wrapped, strays)
    context.close()


def test_the_power_label_in_landscape(browser: Any, server: Server, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 740, "height": 360}, has_touch=True)
    login(context, server, "alice")
    page = context.new_page()
    page.goto(f"{server.url}/match/{server.match_id}/")
    label = page.locator("label[for=power]")
    expect(label).to_be_visible()
    box = label.bounding_box()
    assert box is not None and box["width"] >= 20
    page.screenshot(path=str(artifacts / "phone-landscape-en.png"))
    context.close()


SHOTS = {
    "lobby": "/",
    "directory": "/players/",
    "profile": "/players/alice/",
    "ladder": "/ladder/",
    "record": "/match/{done}/",
    "replay": "/match/{done}/replay/",
    "table": "/match/{long}/",
    "challenge": "/challenges/new/",
}


def test_phone_screenshots(
    browser: Any, server: Server, club: dict[str, Any], artifacts: Path
) -> None:
    """The main pages on a 390×844 phone in both languages (artifacts/phone-*.png; a chosen
    set is kept in docs/screenshots/), and the sign-up page logged out, its menu open."""
    for locale in ("en", "ru"):
        context = browser.new_context(viewport=PHONE_390, has_touch=True, locale=locale)
        page = context.new_page()
        page.goto(f"{server.url}/accounts/signup/")
        page.get_by_test_id("menu-toggle").tap()
        page.screenshot(path=str(artifacts / f"phone-signup-menu-{locale}.png"))
        login(context, server, LONG_NAME)
        for name, path in SHOTS.items():
            page.goto(f"{server.url}{path.format(**club)}")
            settle(page)
            page.screenshot(path=str(artifacts / f"phone-{name}-{locale}.png"), full_page=True)
            assert width(page) <= PHONE_390["width"], name
        context.close()


def aiming_from_hand(
    browser: Any, match: Server, locale: str = "en", viewport: dict[str, int] = PHONE_390
) -> tuple[Any, Page]:
    """Alice on a touch phone (390×844 unless told) at `match`, her cue ball placed from hand."""
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True, locale=locale)
    login(context, match, "alice")
    page = context.new_page()
    page.goto(f"{match.url}/match/{match.match_id}/")
    page.wait_for_function("() => window.snookerState && snookerState().ready")
    page.get_by_test_id("place-cue").tap()
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
    return context, page


def test_touch_aims_to_a_hundredth_of_a_degree(browser: Any, server: Server) -> None:
    """A finger on the fine-aim strip: a slide of 1 px turns the cue by 0.01° (a tenth of a
    1 m + 1 m pot's window, about 0.1°; the turn buttons' finest step is 0.1°), right turns
    it clockwise, and the table's own drag is untouched."""
    match = server.new_match(1)
    context, page = aiming_from_hand(browser, match)
    strip = page.get_by_test_id("aim-fine")
    strip.scroll_into_view_if_needed()
    box = strip.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)

    def touch(kind: str, at: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": at, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def angle() -> float:
        degrees: float = page.evaluate("snookerState().aim.angle * 180 / Math.PI")
        return degrees

    before = angle()
    touch("touchStart", x)
    touch("touchMove", x + 1)
    page.wait_for_function(f"() => snookerState().aim.angle * 180 / Math.PI !== {before}")
    finest = before - angle()
    assert abs(finest - 0.01) < 1e-9  # clockwise, by a hundredth of a degree
    for step in range(2, 11):
        touch("touchMove", x + step)
    touch("touchEnd", x + 10)
    page.wait_for_function(
        f"() => Math.abs({before} - snookerState().aim.angle * 180 / Math.PI - 0.1) < 1e-9"
    )
    # The strip is a slider to a screen reader: its value is the angle.
    expect(strip).to_have_attribute("aria-valuenow", f"{before - 0.1:.2f}")
    # The keyboard: an arrow key on the strip turns by the same step, not the table's 0.5°.
    strip.focus()
    strip.press("ArrowLeft")
    page.wait_for_function(
        f"() => Math.abs({before} - snookerState().aim.angle * 180 / Math.PI - 0.09) < 1e-9"
    )
    context.close()


BALL_RADIUS_MM = 26.25


def test_the_phone_table_fits_one_screen(browser: Any, server: Server, artifacts: Path) -> None:
    """A 390×844 phone held upright, the player to strike: the whole table, the turn bar, the
    power, the spin and Strike all on the screen at once, the page unscrolled; the balls at
    least 4 px in radius at the whole-table view."""
    match = server.new_match(1)
    for locale in ("en", "ru"):
        context, page = aiming_from_hand(browser, match, locale)
        page.evaluate("() => window.scrollTo(0, 0)")
        seen = {}
        for part in ("table", "turn", "power", "spin", "strike", "aim-fine"):
            box = page.get_by_test_id(part).bounding_box()
            assert box is not None, part
            seen[part] = (round(box["y"]), round(box["y"] + box["height"]))
        page.screenshot(path=str(artifacts / f"phone-aiming-{locale}-390.png"))
        radius = page.evaluate("() => snookerGeometry.scale()") * BALL_RADIUS_MM
        assert all(top >= 0 and bottom <= PHONE_390["height"] for top, bottom in seen.values()), (
            locale,
            seen,
        )
        assert radius >= 4, (locale, radius)
        assert width(page) <= PHONE_390["width"]
        context.close()


PHONE_SIDEWAYS = {"width": 844, "height": 390}


def test_the_phone_on_its_side_fills_the_screen_with_the_table(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """An 844×390 phone on its side, the player to strike: the table as tall as the screen,
    its balls at least 5 px in radius at the whole-table view; the scoreboard, the turn bar,
    the aim, power, spin and Strike in one column at the right thumb, all on the screen at
    once with the page unscrolled."""
    match = server.new_match(1)
    for locale in ("en", "ru"):
        context, page = aiming_from_hand(browser, match, locale, PHONE_SIDEWAYS)
        page.evaluate("() => window.scrollTo(0, 0)")
        expect(page.get_by_test_id("strike")).to_have_text("Удар" if locale == "ru" else "Strike")
        table = page.get_by_test_id("table").bounding_box()
        assert table is not None
        assert table["y"] >= 0 and table["y"] + table["height"] <= PHONE_SIDEWAYS["height"]
        assert table["height"] >= PHONE_SIDEWAYS["height"] - 24, (locale, table)
        page.screenshot(path=str(artifacts / f"phone-aiming-{locale}-844x390.png"))
        seen = {}
        for part in ("scoreboard", "turn", "aim-fine", "power", "spin", "spin-reset", "strike"):
            box = page.get_by_test_id(part).bounding_box()
            assert box is not None, part
            seen[part] = box
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE_SIDEWAYS["height"], (
                locale,
                part,
                box,
            )
            # At the right thumb: beside the table, inside the screen.
            assert box["x"] >= table["x"] + table["width"], (locale, part, box)
            assert box["x"] + box["width"] <= PHONE_SIDEWAYS["width"], (locale, part, box)
        radius = page.evaluate("() => snookerGeometry.scale()") * BALL_RADIUS_MM
        assert radius >= 5, (locale, radius)
        scrolled = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert scrolled[0] <= PHONE_SIDEWAYS["width"] and scrolled[1] <= PHONE_SIDEWAYS["height"]
        context.close()


def test_pinch_zooms_the_table_and_the_wheel_too(browser: Any, server: Server) -> None:
    """Two fingers apart zoom the table in about them, the aim untouched; the wheel zooms a
    desktop's table; the zoom button goes back to the whole table."""
    match = server.new_match(1)
    context, page = aiming_from_hand(browser, match)
    whole = page.evaluate("() => snookerGeometry.scale()")
    angle = page.evaluate("() => snookerState().aim.angle")
    box = page.get_by_test_id("table").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)

    def fingers(kind: str, gap: float) -> None:
        points = (
            []
            if kind == "touchEnd"
            else [
                {"x": cx - gap / 2, "y": cy, "id": 1},
                {"x": cx + gap / 2, "y": cy, "id": 2},
            ]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    fingers("touchStart", 60)
    for gap in (90, 120, 150, 180):
        fingers("touchMove", gap)
    fingers("touchEnd", 180)
    page.wait_for_function("s => snookerGeometry.scale() > 2.5 * s", arg=whole)
    assert page.evaluate("() => snookerState().aim.angle") == angle
    page.get_by_test_id("zoom").tap()  # the button's own zoom (from hand: the D, ×2)
    page.get_by_test_id("zoom").tap()  # and off: the whole table
    page.wait_for_function("() => snookerState().zoom === 1")
    context.close()

    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    login(desktop, match, "bob")
    page = desktop.new_page()
    page.goto(f"{match.url}/match/{match.match_id}/")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    whole = page.evaluate("() => snookerGeometry.scale()")
    box = page.get_by_test_id("table").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_function("s => snookerGeometry.scale() > 1.5 * s", arg=whole)
    desktop.close()


# --- a 150-character name (issue 42: it made every member's lobby 2,906 px wide) ----------------

HUGE_NAME = "w" * 150  # Django's longest; no space to break at


def test_a_150_character_name_widens_no_page(browser: Any, server: Server) -> None:
    """Its open challenge in every lobby, its challenge to carol in hers, its live match and
    its directory row and profile: each page as wide as the screen, on a phone and a desktop;
    the name is shortened with an ellipsis, whole in its title and in its text (what a screen
    reader reads)."""
    server.manage(
        "from django.contrib.auth import get_user_model\n"
        "from club import service as club_service\n"
        "from game import service\n"
        "from rules.challenges import Format\n"
        "U = get_user_model().objects\n"
        f"huge = U.create_user({HUGE_NAME!r}, password={PASSWORD!r})\n"
        "carol = U.get(username='carol')\n"
        "club_service.challenge(huge, carol, Format(3, None, False))\n"
        "club_service.challenge(huge, None, Format(1, None, False))\n"
        "service.create_match(huge, U.get(username='bob'), 3, draw='A')\n"
    )
    for viewport in (PHONE_NARROW, {"width": 1280, "height": 800}):
        context = browser.new_context(viewport=viewport, has_touch=True)
        login(context, server, "carol")
        page = context.new_page()
        page.goto(f"{server.url}/")
        # The rows as lobby.js draws them from the welcome (the server's are replaced).
        page.wait_for_function("() => window.clubLobby && clubLobby().connection === 'open'")
        for where in ("incoming", "open-challenges", "live-matches"):
            name = page.get_by_test_id(where).locator(".name", has_text=HUGE_NAME).first
            expect(name).to_have_attribute("title", HUGE_NAME)
            expect(name).to_have_text(HUGE_NAME)
            # Read in one step in the page: a row drawn again between finding the name and
            # measuring it would measure a detached element (0 wide).
            page.wait_for_function(
                '([id, n]) => [...document.querySelectorAll(`[data-testid="${id}"] .name`)]'
                ".some((e) => e.textContent === n && e.scrollWidth > e.clientWidth)",
                arg=[where, HUGE_NAME],
            )  # shortened
        wide = page.evaluate(
            "(w) => [...document.querySelectorAll('body *')].filter((e) =>"
            " e.getBoundingClientRect().right > w).map((e) => e.tagName + '.' + e.className +"
            " '#' + (e.dataset.testid || '')).slice(0, 12)",
            viewport["width"],
        )
        assert width(page) <= viewport["width"], ("lobby", viewport, width(page), wide)
        for path in ("/players/", f"/players/{HUGE_NAME}/"):
            page.goto(f"{server.url}{path}")
            page.wait_for_load_state("load")
            expect(page.locator(".name", has_text=HUGE_NAME).first).to_have_attribute(
                "title", HUGE_NAME
            )
            assert width(page) <= viewport["width"], (path, viewport, width(page))
        context.close()
