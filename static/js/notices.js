// A member's challenges, told live on every page: the badge beside "Lobby", the tab's title,
// a toast to accept or decline, an optional sound and the desktop notification (if allowed).
// When the member's own challenge is accepted, the page goes to the table (unless they are
// playing a match on this page: then a toast says where to go).

import { challengeWho, competitionText, describeFormat, reminderText } from "./clubtext.js";
import { NoticeBoard, answeredOnPage } from "./noticeboard.js";

const SOUND_KEY = "club.sound";
const TOAST_MS = 12000;

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    /* storage refused: no sound */
  }
}

export class Notices {
  constructor({ page, words }) {
    this.page = page;
    this.words = words;
    this.board = new NoticeBoard(page.me);
    this.baseTitle = document.title;
    this.badge = $("notice-badge");
    this.box = $("toasts");
    this.template = document.getElementById("tpl-toast");
    this.seen = { notified: [], sounds: 0, toasts: 0, went: null, abandoned: [] };
    this.audio = null;
    setInterval(() => this.refresh(), 1000); // challenges expire as time passes
  }

  /** A message of the lobby or notices socket (others are the lobby's business). */
  handle(msg) {
    if (msg.type === "welcome" || msg.type === "ladder" || msg.type === "competition") {
      // A page that shows something of the server's reads it again (site.js: a ladder's, a
      // competition's).
      document.dispatchEvent(new CustomEvent(`club:${msg.type}`, { detail: msg }));
    }
    if (msg.type === "welcome") {
      for (const effect of this.board.welcome(msg.mine)) {
        if (location.pathname !== `/match/${effect.go}/`) this.react(effect);
      }
    } else if (msg.type === "notice") {
      const effect = this.board.notice(msg.challenge);
      if (effect) this.react(effect);
      document.dispatchEvent(new CustomEvent("club:notice", { detail: msg.challenge }));
    } else if (msg.type === "reminder") {
      this.remind(msg);
    } else if (msg.type === "abandoned") {
      this.abandoned(msg);
    } else if (msg.type === "competition_notice") {
      this.competition(msg);
    } else {
      return;
    }
    this.refresh();
  }

  react({ kind, row, go }) {
    const { words } = this;
    if (kind === "challenged") {
      const text = challengeWho(row, "incoming", words);
      this.toast(row, text, { answer: true });
      this.ring();
      this.desktop(row, text);
    } else if (kind === "accepted" && go) {
      this.drop(row.id);
      if (document.body.dataset.playing === "true") {
        this.toast(row, words.t("accepted", { name: row.target || words.t("anyone") }), { go });
      } else {
        this.seen.went = go;
        location.assign(`/match/${go}/`);
      }
    } else if (kind !== "sent") {
      const was = this.drop(row.id);
      const mine = row.challenger === this.page.me;
      if (kind === "declined" && mine) {
        this.toast(row, words.t("declined", { name: row.target }), {});
      } else if (kind === "withdrawn" && was) {
        this.toast(row, words.t("withdrawn", { name: row.challenger }), {});
      } else if (kind === "expired" && (was || mine)) {
        const name = mine ? row.target || words.t("anyone") : row.challenger;
        this.toast(row, words.t(mine ? "expired_mine" : "expired_theirs", { name }), {});
      }
    }
  }

  /** A ladder match's agreed start is near: a toast with the way to the table, the sound
   * and the desktop notification, as for a challenge. */
  remind(msg) {
    const { challenge } = msg;
    const text = reminderText(msg, this.words, document.documentElement.lang || undefined, this.page.zone);
    this.toast(challenge, text, { go: challenge.match });
    this.ring();
    this.desktop(challenge, text);
    this.seen.reminded = (this.seen.reminded || 0) + 1;
  }

  /** A match of ours was abandoned, never started or left by both (club/noshows.py): say so,
   * with whom. */
  abandoned(msg) {
    const { A, B } = msg.players;
    const name = A === this.page.me ? B : A;
    const row = { id: `match-${msg.match}`, best_of: msg.best_of, shot_clock: null, rated: false };
    this.toast(row, this.words.t(msg.started ? "deserted" : "abandoned", { name }), {});
    this.seen.abandoned.push(msg.match);
  }

  /** A competition's news for this member (competitions/notices.py): a toast with the way to
   * the competition (to the table, for a next match's opponent) and the desktop notification;
   * the sound when a match of theirs is to be played. */
  competition(msg) {
    const lang = document.documentElement.lang || undefined;
    const text = competitionText(msg, this.words, lang, this.page.zone, this.page.me);
    const row = { id: `competition-${msg.competition}-${msg.news}` };
    const place = this.words.t("to_competition");
    const to = `/competitions/${msg.competition}/`;
    this.toast(row, text, { go: msg.match, to, place, format: "" });
    if (msg.news === "opponent" || msg.news === "proposed") this.ring();
    this.desktop(row, text, { href: to, format: "" });
    this.seen.competition = [...(this.seen.competition || []), `${msg.news}:${text}`];
  }

  refresh() {
    const n = this.board.count(Date.now());
    if (this.badge) {
      this.badge.textContent = String(n);
      this.badge.hidden = !n;
    }
    // A page that words its own title (the match page: "Your turn · ...") keeps it in
    // body[data-title]; the count of challenges waiting goes in front of it.
    document.title = this.board.title(document.body.dataset.title || this.baseTitle, Date.now());
  }

  /** `go`: a match to go to; `to` and `place`: another page to go to, and the link's words
   * (a competition's); `format`: the second line, when the row is not a challenge's. */
  toast(row, text, { answer = false, go = null, to = null, place = null, format = null }) {
    if (!this.box || !this.template) return;
    this.drop(row.id);
    const el = this.template.content.firstElementChild.cloneNode(true);
    el.dataset.id = String(row.id);
    el.querySelector('[data-field="text"]').textContent = text;
    el.querySelector('[data-field="format"]').textContent =
      format === null ? describeFormat(row, this.words) : format;
    this.box.append(el);
    this.seen.toasts += 1;
    if (answeredOnPage(row, document.body.dataset.endOf)) {
      // The end panel shows it with its own buttons: the toast is only read out (its
      // region is live), not laid over the panel, and holds nothing to tab to.
      el.classList.add("sr-only");
      el.querySelector(".toast-actions").remove();
      setTimeout(() => el.remove(), TOAST_MS);
      return;
    }
    const accept = el.querySelector('[data-action="accept"]');
    const decline = el.querySelector('[data-action="decline"]');
    accept.hidden = decline.hidden = !answer;
    accept.action = `/challenges/${row.id}/accept/`;
    decline.action = `/challenges/${row.id}/decline/`;
    decline.querySelector('[name="next"]').value = location.pathname;
    const link = el.querySelector('[data-action="go"]');
    const href = go ? `/match/${go}/` : to;
    link.hidden = !href;
    if (href) link.href = href;
    if (!go && to && place) link.textContent = place;
    el.querySelector('[data-action="close"]').addEventListener("click", () => el.remove());
    if (!answer && !go) setTimeout(() => el.remove(), TOAST_MS);
  }

  /** Remove a challenge's toast; whether there was one. */
  drop(id) {
    const el = this.box && this.box.querySelector(`[data-id="${id}"]`);
    if (el) el.remove();
    return Boolean(el);
  }

  ring() {
    if (!soundOn()) return;
    try {
      const Audio = window.AudioContext || window.webkitAudioContext;
      this.audio = this.audio || new Audio();
      const ctx = this.audio;
      const tone = ctx.createOscillator();
      const gain = ctx.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.12, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
      tone.connect(gain).connect(ctx.destination);
      tone.start();
      tone.stop(ctx.currentTime + 0.4);
      this.seen.sounds += 1;
    } catch {
      /* no audio here */
    }
  }

  desktop(row, text, { href = null, format = null } = {}) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const second = format === null ? describeFormat(row, this.words) : format;
      const note = new Notification(this.words.t("site"), {
        body: second ? `${text} · ${second}` : text,
        tag: `challenge-${row.id}`,
      });
      note.onclick = () => {
        window.focus();
        location.assign(href || `/challenges/${row.id}/`);
      };
      this.seen.notified.push(text);
    } catch {
      /* some browsers allow notifications only from a service worker */
    }
  }

  /** What the browser tests read. */
  snapshot() {
    const now = Date.now();
    return {
      count: this.board.count(now),
      title: document.title,
      waiting: this.board.waitingFor(now).map((r) => r.id),
      ...this.seen,
    };
  }
}
