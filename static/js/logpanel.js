// The referee's log beside the table: one frame at a time, newest first, the frame being
// played unless the reader picks an earlier one (asked of the server when the page does not
// hold it: the `log` request). Its words come from story.js, so a log read from the server
// after a reload reads as the one written live.

import { t } from "./i18n.js";
import { describe } from "./story.js";

const ASK_AGAIN = 3000; // ms before a frame's log not come is asked for again

export class LogPanel {
  /** `el(testid)`, the Story, `players()`, `ask(frame)` to request a frame's log. */
  constructor({ el, story, players, ask }) {
    this.el = el;
    this.story = story;
    this.players = players;
    this.ask = ask;
    this.current = 0; // the frame being played (the last one, once the match is over)
    this.over = false; // the match has ended
    this.picked = null; // an earlier frame the reader chose
    this.wanted = null; // an earlier frame the page needs (the one just ended, for its breaks)
    this.asked = new Map(); // frame → when it was asked for (ms)
    this.select = el("log-frame");
    this.select.addEventListener("change", () => {
      const n = Number(this.select.value);
      this.picked = n === this.current ? null : n;
      this.render();
    });
  }

  get shown() {
    return this.picked || this.current;
  }

  /** The frame being played is `number` (`frames`: the match's frames won, for a result;
   * `over`: the match has ended, so no frame is being played "now"). */
  follow(number, frames, over = false) {
    this.frames = frames;
    if (number !== this.current || over !== this.over) {
      this.current = number;
      this.over = over;
      if (this.picked === number) this.picked = null;
      this.options();
    }
    this.render();
  }

  options() {
    this.select.replaceChildren();
    for (const { n, key } of frameOptions(this.current, this.over)) {
      const o = document.createElement("option");
      o.value = String(n);
      o.textContent = t(key, { n });
      this.select.append(o);
    }
    this.select.value = String(this.shown);
    this.select.disabled = this.current <= 1;
  }

  /** Make sure the page holds frame `number`, asking the server if not (again after a
   * while: an answer can be lost with the socket, or a request refused as too many). */
  need(number, now = Date.now()) {
    if (!number || this.story.holds(number)) return;
    if (this.asked.has(number) && now - this.asked.get(number) < ASK_AGAIN) return;
    this.asked.set(number, now);
    this.ask(number);
  }

  /** Now and then: the frame on show, if it is still missing, is asked for again. */
  tick() {
    if (this.shown !== this.current) this.need(this.shown);
    if (this.wanted) this.need(this.wanted);
  }

  /** A `log` message came: it may be the frame on show. */
  loaded(number) {
    this.asked.delete(number);
    if (number === this.shown) this.render();
  }

  render() {
    const list = this.el("calls-log");
    const number = this.shown;
    const frame = this.story.frame(number);
    list.replaceChildren();
    // The frame being played comes after every welcome with a snapshot: never asked for.
    if ((!frame || frame.partial) && number !== this.current) this.need(number);
    const omitted = this.el("log-omitted");
    omitted.hidden = !(frame && frame.omitted);
    if (frame && frame.omitted) omitted.textContent = t("log.omitted", { n: frame.omitted });
    if (!frame) {
      list.append(line(t("log.loading"), "log-note"));
      return;
    }
    const players = this.players();
    const opening = frame.entries.length && frame.entries[0].kind === "start";
    if (frame.breaker && !opening) {
      list.append(line(t("log.frame_header", { n: number, name: players[frame.breaker] }),
        "log-note"));
    }
    for (const entry of frame.entries) list.prepend(item(entry, number, this.frames, players));
  }
}

/** The frame picker's choices, newest first: the frame being played is marked "(now)"
 * while the match goes on, never after it has ended. */
export function frameOptions(current, over) {
  const out = [];
  for (let n = current; n >= 1; n--) {
    out.push({ n, key: n === current && !over ? "log.frame_now" : "log.frame_option" });
  }
  return out;
}

function line(text, className) {
  const li = document.createElement("li");
  li.className = className;
  li.textContent = text;
  return li;
}

function item(entry, number, frames, players) {
  const words = describe(entry, players, { frame: number, frames: entry.match_end ? frames : null });
  const li = document.createElement("li");
  li.dataset.version = String(entry.version);
  li.dataset.kind = entry.kind;
  const head = document.createElement("div");
  head.className = "log-head-line";
  const what = document.createElement("span");
  what.className = "log-what";
  what.textContent = words.head;
  const score = document.createElement("span");
  score.className = "log-score";
  score.textContent = `${words.score.A}–${words.score.B}`;
  score.title = t("log.score");
  head.append(what, score);
  li.append(head);
  for (const call of words.calls) {
    const b = document.createElement("span");
    b.className = "call";
    b.textContent = call;
    li.append(b);
  }
  for (const text of words.details) {
    const d = document.createElement("div");
    d.className = "log-detail";
    d.textContent = text;
    li.append(d);
  }
  if (words.result) {
    const r = document.createElement("div");
    r.className = "log-result";
    r.classList.toggle("final", Boolean(entry.match_end));
    r.textContent = words.result;
    li.append(r);
  }
  return li;
}
