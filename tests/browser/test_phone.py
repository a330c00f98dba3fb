"""The club on a phone (Chromium at 360×740): every page fits the screen's width with no
sideways scroll, logged out and in, in English and Russian; the site menu folds behind one
button; the table's scoreboard shows a 12-letter name whole on a 390 px phone.

The widths measured are written to artifacts/phone-widths.json (the issue's before/after).
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
        "print(json.dumps({'challenge': pending.pk, 'done': done.pk, 'long': long.pk}))"
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
        "/computer/",
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


def measure(browser: Any, server: Server, club: dict[str, Any]) -> dict[str, int]:
    widths: dict[str, int] = {}
    for logged_in in (False, True):
        for locale in ("en", "ru"):
            context = browser.new_context(viewport=PHONE_NARROW, locale=locale, has_touch=True)
            if logged_in:
                login(context, server, "carol")
            page = context.new_page()
            for path in pages(server, club, logged_in):
                page.goto(f"{server.url}{path}")
                settle(page)
                widths[f"{'in' if logged_in else 'out'} {locale} {path}"] = width(page)
            context.close()
    return widths


def test_every_page_fits_a_360_px_phone(
    browser: Any, server: Server, club: dict[str, Any], artifacts: Path
) -> None:
    widths = measure(browser, server, club)
    (artifacts / "phone-widths.json").write_text(json.dumps(widths, indent=1))
    wide = {page: w for page, w in widths.items() if w > PHONE_NARROW["width"]}
    assert wide == {}


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


def test_touch_aims_to_a_hundredth_of_a_degree(browser: Any, server: Server) -> None:
    """A finger on the fine-aim strip: a slide of 1 px turns the cue by 0.01° (a tenth of a
    1 m + 1 m pot's window, about 0.1°; the turn buttons' finest step is 0.1°), right turns
    it clockwise, and the table's own drag is untouched."""
    match = server.new_match(1)
    context = browser.new_context(viewport=PHONE_390, has_touch=True, is_mobile=True)
    login(context, match, "alice")
    page = context.new_page()
    page.goto(f"{match.url}/match/{match.match_id}/")
    page.wait_for_function("() => window.snookerState && snookerState().ready")
    page.get_by_test_id("place-cue").tap()
    page.wait_for_function("() => snookerState().aim.cue_ball !== null")
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
