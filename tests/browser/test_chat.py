"""The match page's chat rooms in Chromium (static/js/chatpanel.js, docs/chat.md): the two
players exchange lines in their room, shown as text, never as markup; a spectator, on a 360 px
phone, writes in the spectators' room only and never reads the players' unless both players
let spectators read it (the club allows it here), then in a tab of its own, read only. On the
phone the referee's log and the chat are two tabs (static/js/sidetabs.js); another's line that
comes while a stroke's balls run waits for them to stop."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser import strokes
from tests.browser.conftest import Server, login

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
# The club lets spectators read a table's players' chat when both players let them (none has
# until a test says so).
SERVER_ENV = {"SNOOKER_SPECTATORS_READ_PLAYERS": "true"}


# A socket of the spectator's own, from their page: hello, then a line for the players' room.
SPECTATOR_IN_PLAYERS_ROOM = """(match) => new Promise((resolve) => {
  const ws = new WebSocket(`ws://${location.host}/ws/match/${match}/`);
  ws.onopen = () => ws.send(JSON.stringify({type: "hello", protocol: 1, last_version: null}));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "welcome") {
      ws.send(JSON.stringify({type: "say", room: "players", text: "play safe"}));
    } else if (msg.type === "error") {
      resolve({code: msg.code, open: ws.readyState === WebSocket.OPEN});
      ws.close();
    } else if (msg.type === "line") {
      resolve({code: null, line: msg.line.text});
    }
  };
})"""


def open_match(context: BrowserContext, server: Server) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.errors = errors  # type: ignore[attr-defined]
    page.dialogs = dialogs  # type: ignore[attr-defined]
    page.goto(f"{server.url}/match/{server.match_id}/")
    page.wait_for_function("() => window.snookerState && snookerState().connection === 'open'")
    return page


# A stroke from a socket of the player's own, from their page: hello, then the stroke (the
# table's own controls are tests/browser/test_match_page.py's); the ack's version.
STROKE_FROM_A_SOCKET = """(stroke) => new Promise((resolve) => {
  const ws = new WebSocket(`ws://${location.host}/ws/match/${stroke.match}/`);
  ws.onopen = () => ws.send(JSON.stringify({type: "hello", protocol: 1, last_version: null}));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "welcome") {
      ws.send(JSON.stringify({type: "stroke", client_id: "chat-break", version: stroke.version,
        angle: stroke.angle, speed: stroke.speed, cue_ball: stroke.cue_ball}));
    } else if (msg.type === "ack" || msg.type === "error") {
      resolve(msg.type === "ack" ? msg.version : msg.code);
      ws.close();
    }
  };
})"""


def say(page: Page, text: str) -> None:
    """Type a line and send it by the keyboard (Enter in the field)."""
    field = page.get_by_test_id("chat-text")
    field.focus()
    field.fill(text)
    field.press("Enter")


def test_two_players_exchange_lines_and_a_spectator_writes_only_to_the_spectators(
    browser: Any, server: Server
) -> None:
    contexts = {
        "alice": browser.new_context(viewport=DESKTOP),
        "bob": browser.new_context(viewport=DESKTOP, locale="ru-RU"),
        "carol": browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
    }
    for name, context in contexts.items():
        login(context, server, name)
    alice, bob = open_match(contexts["alice"], server), open_match(contexts["bob"], server)
    carol = open_match(contexts["carol"], server)

    # The players' room for the players; the spectators' for the spectator, with no tab to
    # the players' room.
    expect(alice.get_by_test_id("chat-room")).to_have_text("Players")
    expect(bob.get_by_test_id("chat-room")).to_have_text("Игроки")
    # On her phone the chat is the tab beside the referee's log: chosen, it shows.
    carol.get_by_test_id("tab-chat").click()
    expect(carol.get_by_test_id("chat-room")).to_have_text("Spectators")
    expect(carol.get_by_test_id("chat-tabs")).to_be_hidden()
    expect(carol.get_by_test_id("chat-form")).to_be_visible()

    # A line with markup in it shows as those characters, and runs no script.
    line = "good luck <img src=x onerror=alert(1)>"
    say(alice, line)
    expect(bob.get_by_test_id("chat-lines").locator("li")).to_have_text([f"alice {line}"])
    expect(alice.get_by_test_id("chat-lines").locator("li")).to_have_text([f"alice {line}"])
    assert bob.get_by_test_id("chat-lines").locator("img").count() == 0
    # Bob answers in his own words (members write theirs; guests only the preset phrases).
    say(bob, "спасибо, и тебе")
    expect(alice.get_by_test_id("chat-lines").locator("li")).to_have_count(2)
    expect(alice.get_by_test_id("chat-lines").locator("li").last).to_have_text(
        "bob спасибо, и тебе"
    )
    # The table keeps the keyboard: sending left the focus in the field, not elsewhere.
    assert alice.evaluate("document.activeElement.dataset.testid") == "chat-text"
    # A screen reader hears the other's new line, once.
    expect(alice.get_by_test_id("announcer")).to_have_text("Players. bob: спасибо, и тебе")

    # The spectator writes in the spectators' room, which the players do not read while
    # the match is live, and never reads the players' lines.
    say(carol, "what a break")
    expect(carol.get_by_test_id("chat-lines").locator("li")).to_have_text(["carol what a break"])
    expect(carol.get_by_test_id("chat-lines")).not_to_contain_text("good luck")
    # Bob's next line is broadcast after Carol's: Alice has it, and not Carol's before it.
    say(bob, "ready?")
    expect(alice.get_by_test_id("chat-lines").locator("li")).to_have_count(3)
    expect(alice.get_by_test_id("chat-lines")).not_to_contain_text("what a break")

    # A spectator's own socket cannot write to the players' room either: refused, and open.
    answer = carol.evaluate(SPECTATOR_IN_PLAYERS_ROOM, server.match_id)
    assert answer == {"code": "chat_not_allowed", "open": True}

    # Too long is said before sending, in the page's language.
    say(carol, "x" * 141)
    expect(carol.get_by_test_id("chat-refusal")).to_have_text("A line is at most 140 characters.")

    # A reload shows the room's lines again (the `lines` after the welcome).
    bob.reload()
    expect(bob.get_by_test_id("chat-lines").locator("li")).to_have_count(3)

    # The 360 px phone: the chat panel fits the screen's width.
    width = carol.evaluate(
        "() => document.querySelector('[data-testid=chat]').getBoundingClientRect().right"
    )
    assert width <= PHONE["width"]
    assert carol.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for page in (alice, bob, carol):
        assert page.errors == []  # type: ignore[attr-defined]
        assert page.dialogs == []  # type: ignore[attr-defined]
    for context in contexts.values():
        context.close()


def players_let_spectators_read(server: Server, shown: bool) -> None:
    """Alice's and Bob's chat settings: spectators may read their table's players' chat."""
    server.manage(
        "from django.contrib.auth import get_user_model; from chat.models import Preference\n"
        "for user in get_user_model().objects.filter(username__in=['alice', 'bob']):\n"
        "    Preference.objects.update_or_create(\n"
        f"        member=user, defaults={{'players_shown': {shown}}})\n"
    )


def test_a_spectator_reads_the_players_room_read_only_when_both_players_let_them(
    browser: Any, server: Server
) -> None:
    table = server.new_match(3)
    players_let_spectators_read(table, True)
    try:
        contexts = {
            "alice": browser.new_context(viewport=DESKTOP),
            "carol": browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                         locale="ru-RU"),
        }  # fmt: skip
        for name, context in contexts.items():
            login(context, table, name)
        alice = open_match(contexts["alice"], table)
        say(alice, "good luck")
        expect(alice.get_by_test_id("chat-lines").locator("li")).to_have_count(1)
        carol = open_match(contexts["carol"], table)
        carol.get_by_test_id("tab-chat").tap()  # on her phone the log shows first
        # Her own room first, and a tab for the players', named read only.
        expect(carol.get_by_test_id("chat-room")).to_have_text("Зрители")
        tabs = carol.get_by_test_id("chat-tabs").locator("button")
        expect(tabs).to_have_text(["Зрители", "Игроки (только чтение)"])
        tabs.last.click()
        expect(carol.get_by_test_id("chat-lines").locator("li")).to_have_text(["alice good luck"])
        expect(carol.get_by_test_id("chat-form")).to_be_hidden()
        expect(carol.get_by_test_id("chat-presets")).to_be_hidden()
        expect(carol.get_by_test_id("chat-players-only")).to_be_visible()
        # Live, as the players say them.
        say(alice, "your break")
        expect(carol.get_by_test_id("chat-lines").locator("li")).to_have_count(2)
        assert alice.get_by_test_id("chat-tabs").is_hidden()  # the players' page as ever
        for page in (alice, carol):
            assert page.errors == []  # type: ignore[attr-defined]
        for context in contexts.values():
            context.close()
    finally:
        players_let_spectators_read(table, False)


def test_on_a_phone_the_log_and_the_chat_are_two_tabs(browser: Any, server: Server) -> None:
    """On a 360 px phone the referee's log and the players' chat share one place as two tabs
    (ARIA's: a tablist, the arrows choose), the log first; a line of the opponent's while the
    log is shown is counted on the Chat tab, and read once the chat is chosen. A tap on a tab
    leaves the table its keys. On a desktop both show, without tabs."""
    alice_context = browser.new_context(viewport=DESKTOP)
    bob_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    login(alice_context, server, "alice")
    login(bob_context, server, "bob")
    alice, bob = open_match(alice_context, server), open_match(bob_context, server)

    expect(alice.get_by_test_id("side-tabs")).to_be_hidden()
    expect(alice.get_by_test_id("log-panel")).to_be_visible()
    expect(alice.get_by_test_id("chat")).to_be_visible()
    expect(bob.get_by_role("tablist")).to_be_visible()
    expect(bob.get_by_role("tab")).to_have_text(["Log", "Chat"])
    expect(bob.get_by_role("tab", name="Log")).to_have_attribute("aria-selected", "true")
    expect(bob.get_by_role("tabpanel")).to_have_count(1)  # the log's: the chat's is out of sight
    expect(bob.get_by_test_id("log-panel")).to_be_visible()
    expect(bob.get_by_test_id("chat")).to_be_hidden()
    expect(bob.get_by_test_id("chat-unread")).to_be_hidden()

    # Alice's line while Bob reads the log: counted on his Chat tab, in figures and in words.
    say(alice, "your break, bob")
    expect(bob.get_by_test_id("chat-unread")).to_have_text("1")
    expect(bob.get_by_role("tab", name="Chat 1 new line", exact=True)).to_be_visible()
    assert bob.evaluate("snookerState().chat") == {"held": 0, "tab": "log", "unread": 1}

    # A tap on the tab shows the chat, read, and leaves the keys with the table.
    table = bob.get_by_test_id("table")
    table.focus()
    bob.get_by_test_id("tab-chat").tap()
    expect(table).to_be_focused()
    expect(bob.get_by_test_id("chat")).to_be_visible()
    expect(bob.get_by_test_id("log-panel")).to_be_hidden()
    expect(bob.get_by_test_id("chat-lines").locator("li").last).to_have_text(
        "alice your break, bob"
    )
    expect(bob.get_by_test_id("chat-unread")).to_be_hidden()
    expect(bob.get_by_role("tab", name="Chat", exact=True)).to_have_attribute(
        "aria-selected", "true"
    )

    # From the keyboard: Tab reaches the tab chosen (the other is out of the Tab order), the
    # arrows and Home choose another, the focus with it.
    assert bob.get_by_test_id("tab-log").get_attribute("tabindex") == "-1"
    bob.get_by_test_id("tab-chat").focus()
    bob.keyboard.press("ArrowRight")
    expect(bob.get_by_test_id("tab-log")).to_be_focused()
    expect(bob.get_by_test_id("tab-log")).to_have_attribute("aria-selected", "true")
    expect(bob.get_by_test_id("log-panel")).to_be_visible()
    expect(bob.get_by_test_id("chat")).to_be_hidden()
    bob.keyboard.press("End")
    expect(bob.get_by_test_id("tab-chat")).to_be_focused()
    expect(bob.get_by_test_id("chat")).to_be_visible()
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for page in (alice, bob):
        assert page.errors == []  # type: ignore[attr-defined]
    alice_context.close()
    bob_context.close()


def test_a_line_waits_while_the_balls_run(browser: Any, server: Server) -> None:
    """Another's line that comes while a stroke's balls run is neither shown nor read out
    until they stop (here, skipped to their end); one's own shows at once."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    login(contexts[0], server, "alice")
    login(contexts[1], server, "bob")
    alice, bob = (open_match(context, server) for context in contexts)
    snap = server.snapshot()
    cue = (150.0, -1150.0)
    found = strokes.break_off(strokes.frame_of(snap), cue, 8.0)
    stroke = {"match": server.match_id, "version": snap["version"], "angle": found.angle,
              "speed": found.speed, "cue_ball": list(cue)}  # fmt: skip
    assert alice.evaluate(STROKE_FROM_A_SOCKET, stroke) == snap["version"] + 1
    bob.wait_for_function("() => snookerState().animating")
    lines = bob.get_by_test_id("chat-lines").locator("li")
    say(bob, "good break")
    expect(lines.last).to_have_text("bob good break")  # his own: at once
    say(alice, "thank you, lucky")
    expect(alice.get_by_test_id("chat-lines").locator("li").last).to_have_text(
        "alice thank you, lucky"
    )
    bob.wait_for_function("() => snookerState().chat.held === 1")
    assert bob.evaluate("snookerState().animating")
    expect(lines.last).to_have_text("bob good break")
    expect(bob.get_by_test_id("announcer")).not_to_have_text("Players. alice: thank you, lucky")
    bob.get_by_test_id("skip").click()  # the stroke to its end
    expect(lines.last).to_have_text("alice thank you, lucky")
    expect(bob.get_by_test_id("announcer")).to_have_text("Players. alice: thank you, lucky")
    assert bob.evaluate("snookerState().chat.held") == 0
    for page in (alice, bob):
        assert page.errors == []  # type: ignore[attr-defined]
    for context in contexts:
        context.close()
