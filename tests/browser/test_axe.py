"""axe-core (from npm: package.json, installed by `make test` with npm ci) on every page in
Chromium, logged out and in, in English and Russian, on a desktop and on a phone: no
violation of any kind. The same visits measure each page's width on the 360 px phone: none
scrolls sideways (the widths go to artifacts/phone-widths-*.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import PASSWORD, Server, login
from tests.browser.test_match_page import DESKTOP
from tests.browser.test_phone import (
    LONG_NAME,
    PHONE_NARROW,
    PHONE_SIDEWAYS,
    club,
    pages,
    settle,
    width,
)
from tests.live.harness import ROOT
from tests.needs import missing

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

__all__ = ["club"]  # the fixture, shared with the phone's tests


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        missing("axe-core is not installed: run `npm ci` (make test does)")
    return AXE.read_text()


def violations(page: Page, source: str) -> list[str]:
    """axe's violations on the page as shown, one line each (rule, impact, where)."""
    # evaluate() runs outside the page's Content-Security-Policy, which forbids inline scripts.
    if not page.evaluate("Boolean(window.axe)"):
        page.evaluate(source)
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'][:4])}" for v in found]


# One test for each of the eight visits (about twenty pages each, axe on every one): one
# test for all of them ran for minutes, near pytest's timeout on a slow machine, and kept a
# worker busy while the others had finished.
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_NARROW], ids=["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("logged_in", [False, True], ids=["visitor", "member"])
def test_no_axe_violation_on_any_page(
    browser: Any,
    server: Server,
    club: dict[str, Any],
    axe_source: str,
    logged_in: bool,
    locale: str,
    viewport: dict[str, int],
    artifacts: Path,
) -> None:
    found: dict[str, list[str]] = {}
    widths: dict[str, int] = {}
    phone = viewport is PHONE_NARROW
    context = browser.new_context(viewport=viewport, locale=locale, has_touch=phone)
    if logged_in:
        login(context, server, "carol")
    page = context.new_page()
    for path in pages(server, club, logged_in):
        page.goto(f"{server.url}{path}")
        settle(page)
        if phone:
            widths[path] = width(page)
        seen = violations(page, axe_source)
        if seen:
            found[path] = seen
    context.close()
    name = f"{'member' if logged_in else 'visitor'}-{locale}-{viewport['width']}"
    (artifacts / f"axe-{name}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    if phone:
        (artifacts / f"phone-widths-{name}.json").write_text(json.dumps(widths, indent=1))
    assert found == {}
    assert {path: w for path, w in widths.items() if w > PHONE_NARROW["width"]} == {}


def test_no_axe_violation_at_the_table_for_its_player(
    browser: Any, server: Server, club: dict[str, Any], axe_source: str
) -> None:
    """The player's own view (the stroke's controls, the fine-aim strip, the cue ball in
    hand), on a desktop and on a phone upright and on its side, in both languages."""
    found: dict[str, list[str]] = {}
    for locale in ("en", "ru"):
        for viewport in (DESKTOP, PHONE_NARROW, PHONE_SIDEWAYS):
            context = browser.new_context(viewport=viewport, locale=locale)
            login(context, server, LONG_NAME)
            page = context.new_page()
            page.goto(f"{server.url}/match/{club['long']}/")
            page.wait_for_function("() => window.snookerState && snookerState().ready")
            seen = violations(page, axe_source)
            if seen:
                found[f"{locale} {viewport['width']}"] = seen
            context.close()
    assert found == {}


def test_no_axe_violation_on_the_organisers_pages(
    browser: Any, server: Server, club: dict[str, Any], axe_source: str
) -> None:
    """An organiser's own pages (a member's handicap, the chat's reports with a reported line
    and the panic switch), on a desktop and a phone, in both languages."""
    server.manage(
        "from django.contrib.auth import get_user_model\n"
        "from django.utils import timezone\n"
        "from chat import moderation, service as chat\n"
        "from ratings import handicaps\n"
        "U = get_user_model().objects\n"
        f"org = U.create_user('org', password={PASSWORD!r}, is_staff=True)\n"
        "alice, bob = U.get(username='alice'), U.get(username='bob')\n"
        "handicaps.override(bob, org, 1650.0, 'new to the club')\n"
        "said = chat.say(chat.room('lobby'), bob, 'a rude line', timezone.now(), played=5)\n"
        "moderation.report(alice, said.id, 'insult', 'rude', timezone.now())\n"
    )
    found: dict[str, list[str]] = {}
    for locale in ("en", "ru"):
        for viewport in (DESKTOP, PHONE_NARROW):
            context = browser.new_context(viewport=viewport, locale=locale)
            login(context, server, "org")
            page = context.new_page()
            for path in ("/players/bob/handicap/", "/chat/reports/", "/computer/fair-play/"):
                page.goto(f"{server.url}{path}")
                settle(page)
                assert width(page) <= viewport["width"], (path, viewport)
                seen = violations(page, axe_source)
                if seen:
                    found[f"{locale} {viewport['width']} {path}"] = seen
            context.close()
    assert found == {}
