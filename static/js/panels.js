// The page around the table: the scoreboard, the turn bar (whose turn, what is on, the
// referee's last calls), the connection, notices, the opponent away, the confirmation, the
// shot clock, the panel between frames, the match's result and the live region that reads
// the score and the calls out. Nothing here sits over the table but the connection banner.
// The words come from i18n.js; what they say of the match from story.js.

import { computerLevel } from "./clubtext.js";
import { num, playerName, t } from "./i18n.js";
import { breaksOf, frameResult, turnOf } from "./story.js";

const $ = (root, id) => root.querySelector(`[data-testid="${id}"]`);

export class Panels {
  constructor(root) {
    this.root = root;
    this.el = (id) => $(root, id);
    this.noticeTimer = null;
    this.answer = null; // resolves the open confirmation, if any
    this.opener = null; // what had the focus when the confirmation opened
    this.said = ""; // the last thing the live region said
    this.el("confirm-yes").addEventListener("click", () => this.closeConfirm(true));
    this.el("confirm-no").addEventListener("click", () => this.closeConfirm(false));
  }

  scoreboard(snap, players, presence, connection) {
    const board = snap.scoreboard;
    for (const s of ["A", "B"]) {
      this.el(`name-${s}`).textContent = playerName(players[s]) || s;
      this.el(`player-${s}`).setAttribute("aria-label", playerName(players[s]) || s); // its figures' owner
      this.el(`score-${s}`).textContent = String(board.scores[s]);
      this.el(`frames-${s}`).textContent = String(board.frames[s]);
      this.el(`start-${s}`).textContent = startText((board.start || {})[s]);
      const need = board.snookers_required[s];
      this.el(`snookers-${s}`).textContent = need ? t("scoreboard.snookers", { n: need }) : "";
      const atTable = snap.status === "live" && (board.to_act || board.striker) === s;
      this.el(`player-${s}`).classList.toggle("at-table", atTable);
      const info = presence && presence.players ? presence.players[s] : null;
      const dot = this.el(`online-${s}`);
      // The computer opens no socket, but it is always at its table (computer/driver.py).
      const computer = Boolean(computerLevel(players[s]));
      this.el(`player-${s}`).classList.toggle("computer", computer);
      const online = computer || (info ? info.online : false);
      dot.classList.toggle("online", online);
      const state = computer ? "computer"
        : online ? "online" : info && info.away_since ? "away" : "offline";
      dot.title = t(`presence.${state}`);
      dot.setAttribute("aria-label", t(`presence.${state}`));
      dot.setAttribute("role", "img");
    }
    this.el("frame-number").textContent = t("scoreboard.frame", { n: board.frame_number });
    this.el("best-of-text").textContent = t("scoreboard.best_of", { n: snap.best_of });
    this.el("break").textContent = String(board.break);
    this.el("remaining").textContent = String(board.points_remaining);
    this.el("spectators").textContent = t("scoreboard.watching", {
      n: presence ? presence.spectators : 0,
    });
    this.connection(connection);
  }

  /** Whose turn and what is on, large (`moving`: a stroke's balls running); returns the turn
   * (story.turnOf). */
  turn(snap, seat, players, moving = false) {
    const turn = turnOf(snap, seat, players, moving);
    const bar = this.el("turn");
    bar.dataset.kind = turn.kind;
    this.el("to-act").textContent = turn.text;
    this.el("ball-on").textContent = [turn.on, turn.hand].filter(Boolean).join(" · ");
    const dot = this.el("on-dot");
    dot.dataset.ball = turn.on ? snap.scoreboard.on : "";
    dot.hidden = !turn.on;
    return turn;
  }

  /** The referee's words for the last event, beside the turn. */
  calls(words) {
    const box = this.el("referee-calls");
    box.replaceChildren();
    for (const word of words) {
      const span = document.createElement("span");
      span.className = "call";
      span.textContent = word;
      box.append(span);
    }
  }

  /** Read `text` out to screen readers (the live region), once. */
  announce(text) {
    if (!text || text === this.said) return;
    this.said = text;
    this.el("announcer").textContent = text;
  }

  connection(state, detail = "") {
    const el = this.el("connection");
    el.dataset.state = state;
    el.textContent = t(`connection.${state}`);
    const banner = this.el("connection-banner");
    if (state === "open") {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    const why = detail ? t(`connection.why.${detail}`) : "";
    if (state === "connecting") banner.textContent = t("connection.banner_connecting");
    else if (state === "gone") banner.textContent = t("connection.banner_gone", { why });
    else banner.textContent = t("connection.banner_lost") + (why ? ` (${why})` : "");
  }

  /** Between frames: the frame just ended, its breaks, who breaks next. `record` is the
   * finished frame (snapshot.frames), `entries` its log (if held), `breaker` the next. */
  interval(record, entries, breaker, players) {
    const box = this.el("interval");
    if (!record && !breaker) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const result = this.el("frame-banner");
    result.hidden = !record;
    const breaks = this.el("frame-breaks");
    breaks.hidden = true;
    if (record) {
      const end = { termination: record.termination, winner: record.winner };
      result.textContent = frameResult(record.number, end, record.scores, players);
      if (entries) {
        const made = breaksOf(entries);
        const best = (seat) => made.filter((b) => b.seat === seat).map((b) => b.points)
          .sort((a, b) => b - a).slice(0, 3);
        const parts = ["A", "B"].filter((s) => best(s).length)
          .map((s) => t("interval.breaks_of", { name: players[s], breaks: best(s).join(", ") }));
        breaks.textContent = parts.length ? t("interval.breaks", { list: parts.join("; ") })
          : t("interval.no_breaks");
        breaks.hidden = false;
      }
    }
    this.el("next-frame").textContent = breaker
      ? t(record ? "interval.next" : "interval.draw", {
        n: record ? record.number + 1 : 1, name: players[breaker],
      })
      : "";
  }

  /** The match result, shown until the page is left; null hides it. */
  matchOver(text) {
    const banner = this.el("match-banner");
    banner.textContent = text || "";
    banner.hidden = !text;
  }

  /** The opponent is away: `text`, and the claim buttons when a claim may be made. */
  away(text, claim) {
    this.el("away-banner").hidden = !text;
    this.el("away-text").textContent = text || "";
    this.el("claim-buttons").hidden = !claim;
  }

  /** An in-page "are you sure?": resolves to true (confirmed) or false (cancelled). */
  confirm({ title, text, yes }) {
    this.closeConfirm(false);
    this.el("confirm-title").textContent = title;
    this.el("confirm-text").textContent = text;
    this.el("confirm-yes").textContent = yes;
    this.opener = document.activeElement; // the focus goes back to it when closed
    this.el("confirm-dialog").hidden = false;
    this.el("confirm-no").focus({ preventScroll: true });
    return new Promise((resolve) => (this.answer = resolve));
  }

  closeConfirm(answer) {
    const dialog = this.el("confirm-dialog");
    const wasOpen = !dialog.hidden;
    dialog.hidden = true;
    const opener = this.opener;
    this.opener = null;
    if (wasOpen && opener && opener.isConnected && !opener.disabled) {
      opener.focus({ preventScroll: true });
    }
    const resolve = this.answer;
    this.answer = null;
    if (resolve) resolve(answer);
  }

  /** The shot clock, counted down from the deadline in the snapshot, or in a `clock` message
   * for the same version (the clock starts when both players have come; the server decides). */
  shotClock(snap, moving, clock = null) {
    const el = this.el("shot-clock");
    const started = clock && snap && clock.version === snap.version ? clock.deadline : null;
    const deadline = started || (snap && snap.shot_clock && snap.shot_clock.deadline);
    if (!deadline || moving || snap.status !== "live") {
      el.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
    this.el("shot-clock-text").textContent = t("clock.seconds", { n: left });
    el.title = t("clock.title");
    el.classList.toggle("low", left <= 10);
    el.hidden = false;
  }

  /** A short message beside the controls; with `ms`, it goes away by itself. */
  notice(text, { ms = 0, error = false } = {}) {
    const el = this.el("notice");
    clearTimeout(this.noticeTimer);
    el.textContent = text || "";
    el.hidden = !text;
    el.classList.toggle("error", error);
    if (text && ms) this.noticeTimer = setTimeout(() => this.notice(""), ms);
  }
}

/** A handicap start as the scoreboard shows it ("+28 start"; RULES.md §10), "" for none. */
export function startText(points) {
  return points ? t("scoreboard.start", { n: points }) : "";
}

/** "1:05" for 65 seconds. */
export function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The power as the page shows it: "3.0 m/s" (its unit in the page's language). */
export function powerText(speed) {
  return t("controls.power_value", { v: num(speed, 1, 1) });
}
