// On a phone held upright the referee's log and the players' chat share one place beside the
// table, as two tabs, "Log" and "Chat" (docs/chat.md, "At the table"); on a wider screen both
// show, the chat under the log, and there are no tabs. While the log is shown, the chat's tab
// counts the lines of others that came. The tabs are ARIA's (a tablist: Tab reaches the one
// chosen, the arrows, Home and End choose another), and a click or a tap on one leaves the
// keyboard's focus where it was: the table keeps its keys (static/js/input.js). `SideTabs` is
// which tab and how many lines unread, without the DOM (tests/sidetabs.test.js).

import { t } from "./i18n.js";
import { UPRIGHT_PHONE } from "./phonefit.js";

export const TABS = ["log", "chat"];

/** The tab the arrow, Home or End `key` chooses from `tab`, or null for any other key. The
 * arrows go round, as ARIA's tabs do. */
export function tabAfter(tab, key) {
  const at = TABS.indexOf(tab);
  if (key === "Home") return TABS[0];
  if (key === "End") return TABS[TABS.length - 1];
  if (key === "ArrowRight") return TABS[(at + 1) % TABS.length];
  if (key === "ArrowLeft") return TABS[(at + TABS.length - 1) % TABS.length];
  return null;
}

export class SideTabs {
  constructor() {
    this.tab = "log"; // the one shown while they are tabs: the log, as the page opens
    this.unread = 0; // others' lines that came while the chat was out of sight
    this.narrow = false; // a phone held upright
    this.chat = true; // the chat is there at all (not for a player who turned it off)
  }

  /** Whether the log and the chat are tabs now: on a narrow screen, with a chat. */
  get tabbed() {
    return this.narrow && this.chat;
  }

  /** Whether `place` ("log" or "chat") is in sight, as far as the tabs go (no chat never). */
  shows(place) {
    if (place === "chat" && !this.chat) return false;
    return !this.tabbed || this.tab === place;
  }

  pick(tab) {
    this.tab = tab;
    this.seen();
  }

  /** A line of another's came to the chat: unread while the chat is out of sight. */
  heard() {
    if (!this.shows("chat")) this.unread += 1;
  }

  /** The screen is narrow (or not), the chat there (or not): what is in sight is read. */
  fit({ narrow = this.narrow, chat = this.chat }) {
    this.narrow = narrow;
    this.chat = chat;
    this.seen();
  }

  seen() {
    if (this.shows("chat")) this.unread = 0;
  }
}

/** The tabs on the page: `el(testid)`, the window whose width decides, and `sighted(place)`,
 * told when a place comes into sight (the chat's lines, laid out while out of sight, are
 * scrolled to the newest then). */
export class SideTabsView {
  constructor({ el, win = window, sighted = () => {} }) {
    this.state = new SideTabs();
    this.sighted = sighted;
    this.inSight = new Set(TABS); // as the page is laid out before the first render
    this.side = el("side");
    this.list = el("side-tabs");
    this.tabs = { log: el("tab-log"), chat: el("tab-chat") };
    this.places = { log: el("log-panel"), chat: el("chat") };
    this.badge = el("chat-unread");
    this.unreadWords = el("chat-unread-words");
    for (const tab of TABS) {
      const button = this.tabs[tab];
      // No focus from a press: the focus stays where it was, on the table as it aims.
      button.addEventListener("mousedown", (e) => e.preventDefault());
      button.addEventListener("click", () => this.pick(tab));
    }
    this.list.addEventListener("keydown", (e) => {
      const next = tabAfter(this.state.tab, e.key);
      if (!next) return;
      e.preventDefault();
      this.pick(next);
      this.tabs[next].focus();
    });
    const narrow = win.matchMedia(UPRIGHT_PHONE);
    const fit = () => {
      this.state.fit({ narrow: narrow.matches });
      this.render();
    };
    narrow.addEventListener("change", fit);
    fit();
  }

  pick(tab) {
    this.state.pick(tab);
    this.render();
  }

  /** A line of another's was shown in the chat. */
  heard() {
    this.state.heard();
    this.render();
  }

  /** Whether the chat is there at all (chatpanel.js: a player who turned it off reads none
   * while the match is on). */
  set chat(shown) {
    if (shown === this.state.chat) return;
    this.state.fit({ chat: shown });
    this.render();
  }

  render() {
    const { state } = this;
    this.list.hidden = !state.tabbed;
    if (state.tabbed) this.side.dataset.tab = state.tab;
    else delete this.side.dataset.tab;
    for (const tab of TABS) {
      const chosen = tab === state.tab;
      this.tabs[tab].setAttribute("aria-selected", String(chosen));
      this.tabs[tab].tabIndex = chosen ? 0 : -1;
      // Panels of the tabs only while there are tabs; else two sections of the page.
      if (state.tabbed) this.places[tab].setAttribute("role", "tabpanel");
      else this.places[tab].removeAttribute("role");
      const seen = state.shows(tab);
      if (seen && !this.inSight.has(tab)) this.sighted(tab);
      if (seen) this.inSight.add(tab);
      else this.inSight.delete(tab);
    }
    const n = state.unread;
    this.badge.hidden = n === 0;
    this.badge.textContent = n ? String(n) : "";
    this.unreadWords.textContent = n ? t("side.unread", { n }) : "";
  }
}
