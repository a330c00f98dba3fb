// The log and the chat as two tabs on a phone held upright (sidetabs.js): which one shows,
// the keys that choose, and the chat's lines unread while the log is shown.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Translator } from "../i18n.js";
import { SideTabs, TABS, tabAfter } from "../sidetabs.js";

test("the arrows go round the two tabs, Home and End to the first and the last", () => {
  assert.deepEqual(TABS, ["log", "chat"]);
  assert.equal(tabAfter("log", "ArrowRight"), "chat");
  assert.equal(tabAfter("chat", "ArrowRight"), "log");
  assert.equal(tabAfter("log", "ArrowLeft"), "chat");
  assert.equal(tabAfter("chat", "ArrowLeft"), "log");
  assert.equal(tabAfter("chat", "Home"), "log");
  assert.equal(tabAfter("log", "End"), "chat");
  // Up and down are the page's (and Enter, Space: the button's own click).
  for (const key of ["ArrowUp", "ArrowDown", "Enter", " ", "a"]) {
    assert.equal(tabAfter("log", key), null);
  }
});

test("on a phone the log shows first; another's line is unread until the chat is chosen", () => {
  const tabs = new SideTabs();
  tabs.fit({ narrow: true });
  assert.equal(tabs.tabbed, true);
  assert.equal(tabs.tab, "log");
  assert.deepEqual([tabs.shows("log"), tabs.shows("chat")], [true, false]);
  tabs.heard();
  tabs.heard();
  assert.equal(tabs.unread, 2);
  tabs.pick("chat");
  assert.deepEqual([tabs.unread, tabs.shows("log"), tabs.shows("chat")], [0, false, true]);
  tabs.heard(); // read as it comes
  assert.equal(tabs.unread, 0);
  tabs.pick("log");
  tabs.heard();
  assert.equal(tabs.unread, 1);
});

test("on a wide screen both show, and nothing is unread", () => {
  const tabs = new SideTabs();
  tabs.fit({ narrow: false });
  assert.equal(tabs.tabbed, false);
  assert.deepEqual([tabs.shows("log"), tabs.shows("chat")], [true, true]);
  tabs.heard();
  assert.equal(tabs.unread, 0);
  // Turned narrow, the log is the tab shown; turned wide again, the chat is in sight: read.
  tabs.fit({ narrow: true });
  tabs.heard();
  assert.equal(tabs.unread, 1);
  tabs.fit({ narrow: false });
  assert.equal(tabs.unread, 0);
});

test("without a chat (a player who turned it off) there are no tabs: the log alone", () => {
  const tabs = new SideTabs();
  tabs.fit({ narrow: true, chat: false });
  assert.equal(tabs.tabbed, false);
  assert.deepEqual([tabs.shows("log"), tabs.shows("chat")], [true, false]);
  tabs.fit({ chat: true }); // the match over: the spectators' room is theirs to read
  assert.equal(tabs.tabbed, true);
  assert.equal(tabs.tab, "log");
});

test("the unread count in words, in both languages", () => {
  const en = new Translator("en");
  const ru = new Translator("ru");
  assert.equal(en.t("side.unread", { n: 1 }), "1 new line");
  assert.equal(en.t("side.unread", { n: 3 }), "3 new lines");
  assert.equal(ru.t("side.unread", { n: 2 }), "2 новых сообщения");
  assert.equal(ru.t("side.unread", { n: 5 }), "5 новых сообщений");
  assert.deepEqual([en.t("side.log"), en.t("side.chat")], ["Log", "Chat"]);
  assert.deepEqual([ru.t("side.log"), ru.t("side.chat")], ["Журнал", "Чат"]);
});
