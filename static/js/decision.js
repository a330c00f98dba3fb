// The decision after a foul (and the re-spotted black's play-or-pass), beside the table, never
// over it: who decides and why, the options (buttons for the one who decides, a list for
// everyone else), and what each option depends on, marked on the table (`decisionMarks`):
// where the cue ball lies, where `replace` would put every ball back, the D for a stroke
// from hand. Pointing at an option (or focusing it) shows its marks alone.

import { t } from "./i18n.js";
import { optionText } from "./story.js";

/** What the table shows for a pending decision: {cue, restore, d, focus}, or null. */
export function decisionMarks(snap, focus = null) {
  const pending = snap && snap.frame.pending;
  if (!pending || !pending.holder || snap.status !== "live") return null;
  const offered = (option) => pending.options.includes(option) && (!focus || focus === option);
  const restore = offered("replace") && pending.restore ? pending.restore : null;
  const lies = offered("play") || offered("put_back") || (!focus && !restore);
  return {
    cue: lies && !snap.frame.in_hand ? snap.frame.balls.white || null : null,
    restore,
    d: offered("from_d") || Boolean(restore && restore.in_hand) ||
      (snap.frame.in_hand && (offered("play") || offered("put_back"))),
    focus,
  };
}

/** Where an arrow key moves among `count` options from `at` (a list's keys: ↓/→ the next,
 * ↑/← the one before, round; Home, End), or null for another key. */
export function stepAmong(count, at, key) {
  if (!count) return null;
  const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  if (!(key in moves)) return null;
  return (Math.max(0, at) + moves[key] + count) % count;
}

export class DecisionPanel {
  /** `el(testid)`; `changed()` when the option pointed at changes (the table redraws). */
  constructor(el, changed) {
    this.el = el;
    this.changed = changed;
    this.focus = null;
    this.key = "";
    this.quiet = false;
    const box = el("decision-options");
    const point = (e) => {
      const item = e.target.closest("[data-option]");
      this.point(item ? item.dataset.option : null);
    };
    box.addEventListener("pointerover", point);
    box.addEventListener("focusin", (e) => {
      if (!this.quiet) point(e);
    });
    box.addEventListener("pointerleave", () => this.point(null));
    box.addEventListener("focusout", () => this.point(null));
    // The options answer the arrow keys as a list does (Tab still goes through them).
    box.addEventListener("keydown", (e) => {
      const items = [...box.querySelectorAll("[data-option]")];
      const to = stepAmong(items.length, items.indexOf(e.target), e.key);
      if (to === null) return;
      items[to].focus({ preventScroll: true });
      e.preventDefault();
    });
  }

  point(option) {
    if (option === this.focus) return;
    this.focus = option;
    this.changed();
  }

  /** Show the pending decision (or hide the panel); focus the first option for its holder
   * when it first appears. */
  show(snap, seat, players) {
    const panel = this.el("decision-panel");
    const pending = snap.frame.pending;
    if (!pending || !pending.holder || snap.status !== "live") {
      panel.hidden = true;
      this.key = "";
      this.focus = null;
      return;
    }
    const mine = pending.holder === seat;
    const key = `${snap.version}:${mine}`;
    if (key === this.key && !panel.hidden) return;
    this.key = key;
    this.focus = null;
    const toss = !pending.offender;
    const holder = players[pending.holder];
    this.el("decision-title").textContent = mine
      ? t("decision.yours")
      : t("decision.theirs", { name: holder });
    let why = toss
      ? t(mine ? "decision.toss_mine" : "decision.toss", { name: holder })
      : t("decision.foul", { name: players[pending.offender] });
    if (snap.frame.free_ball && !toss) why += ` ${t("decision.free_ball")}`;
    this.el("decision-why").textContent = why;
    const box = this.el("decision-options");
    box.replaceChildren();
    for (const option of pending.options) {
      const { label, text } = optionText(option, toss);
      const item = document.createElement(mine ? "button" : "div");
      if (mine) {
        item.type = "button";
        item.dataset.testid = `option-${option}`;
      } else {
        item.className = "option-view";
        item.tabIndex = 0;
      }
      item.dataset.option = option;
      const strong = document.createElement("strong");
      strong.textContent = label;
      const small = document.createElement("span");
      small.textContent = text;
      item.append(strong, small);
      box.append(item);
    }
    const legend = [];
    if (!snap.frame.in_hand && snap.frame.balls.white) legend.push(t("decision.legend_cue"));
    if (pending.restore) legend.push(t("decision.legend_restore"));
    if (pending.options.includes("from_d")) legend.push(t("decision.legend_d"));
    this.el("decision-legend").textContent = legend.join(" ");
    this.el("decision-legend").hidden = !legend.length;
    panel.hidden = false;
    if (mine) {
      const first = box.querySelector("button");
      // Focused for the keyboard, not pointed at: the table keeps every mark.
      this.quiet = true;
      if (first) first.focus({ preventScroll: true });
      this.quiet = false;
      // On a phone held upright the panel is under the table: bring it up to the thumb.
      panel.scrollIntoView({ block: "nearest" });
    }
  }
}
