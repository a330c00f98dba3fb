// The page around the table: scoreboard, banners, the referee's log, the decision dialog.
// The wording functions at the end are pure (tests/panels.test.js).

const $ = (root, id) => root.querySelector(`[data-testid="${id}"]`);

export const OPTION_TEXT = {
  play: ["Play on", "Take the table as it lies (from hand in the D if the cue ball is in hand)."],
  put_back: ["Put him back in", "Your opponent plays the next stroke from where the balls lie."],
  replace: ["Replace the balls", "Every ball goes back where it was; your opponent plays again."],
  from_d: ["Play from the D", "The cue ball is angled: take it in hand and play from the D."],
  rebreak: ["Re-break", "The balls are racked again and your opponent breaks again."],
  pass: ["Pass", "Your opponent takes the first stroke at the re-spotted black."],
};
const TOSS_PLAY = ["Play", "Take the first stroke at the re-spotted black, from hand in the D."];

const FOUL_TEXT = {
  no_contact: "the cue ball hit no ball",
  in_off: "the cue ball went in-off",
};

export function ballName(id) {
  if (!id) return "";
  return id.startsWith("red") ? "red" : id;
}

function describeFoul(kind) {
  return FOUL_TEXT[kind] || kind.replaceAll("_", " ");
}

export class Panels {
  constructor(root) {
    this.root = root;
    this.el = (id) => $(root, id);
    this.log = this.el("calls-log");
    this.bannerTimer = null;
    this.noticeTimer = null;
    this.frameTimer = null;
    this.answer = null; // resolves the open confirmation, if any
    this.el("confirm-yes").addEventListener("click", () => this.closeConfirm(true));
    this.el("confirm-no").addEventListener("click", () => this.closeConfirm(false));
  }

  scoreboard(snap, players, presence, connection) {
    const board = snap.scoreboard;
    for (const s of ["A", "B"]) {
      this.el(`name-${s}`).textContent = players[s] || s;
      this.el(`score-${s}`).textContent = String(board.scores[s]);
      this.el(`frames-${s}`).textContent = String(board.frames[s]);
      const need = board.snookers_required[s];
      this.el(`snookers-${s}`).textContent = need ? `needs ${need} snooker${need > 1 ? "s" : ""}` : "";
      const atTable = snap.status === "live" && board.striker === s;
      this.el(`player-${s}`).classList.toggle("at-table", atTable);
      const info = presence && presence.players ? presence.players[s] : null;
      const dot = this.el(`online-${s}`);
      const online = info ? info.online : false;
      dot.classList.toggle("online", online);
      dot.title = online ? "online" : info && info.away_since ? "away" : "offline";
    }
    this.el("frame-number").textContent = `Frame ${board.frame_number}`;
    this.el("best-of").textContent = String(snap.best_of);
    this.el("break").textContent = String(board.break);
    this.el("remaining").textContent = String(board.points_remaining);
    this.el("ball-on").textContent = snap.frame.free_ball ? `${board.on} (free ball)` : board.on;
    let who = "";
    const pending = snap.frame.pending;
    if (snap.status === "finished") {
      who = snap.winner ? `${players[snap.winner]} wins the match` : "match over";
    } else if (pending && pending.holder) {
      who = `${players[pending.holder]} is deciding…`;
    } else if (pending) {
      who = "the referee tosses a coin…";
    } else if (board.to_act) {
      const hand = snap.frame.in_hand ? " (ball in hand)" : "";
      who = `${players[board.to_act]} to play${hand}`;
    }
    this.el("to-act").textContent = who;
    this.el("spectators").textContent = `${presence ? presence.spectators : 0} watching`;
    this.connection(connection);
  }

  connection(state, detail = "") {
    const el = this.el("connection");
    el.dataset.state = state;
    el.textContent = { open: "connected", gone: "closed" }[state] || state;
    const banner = this.el("connection-banner");
    if (state === "open") {
      banner.hidden = true;
    } else {
      banner.hidden = false;
      banner.textContent =
        state === "gone"
          ? `Connection closed: ${detail}`
          : `Connection lost — reconnecting…${detail ? ` (${detail})` : ""}`;
      if (state === "connecting") banner.textContent = "Connecting…";
    }
  }

  referee(words) {
    const banner = this.el("referee-banner");
    clearTimeout(this.bannerTimer);
    if (!words.length) {
      banner.hidden = true;
      return;
    }
    banner.textContent = words.join(" · ");
    banner.hidden = false;
    this.bannerTimer = setTimeout(() => (banner.hidden = true), 5000);
  }

  /** One entry per event, newest first; returns the calls for the banner. */
  logEvent(event, players) {
    const lines = describeEvent(event, players);
    const li = document.createElement("li");
    li.dataset.version = String(event.version);
    li.dataset.kind = event.kind;
    const calls = (event.ruling && event.ruling.calls) || [];
    li.dataset.calls = JSON.stringify(calls);
    const head = document.createElement("div");
    head.className = "log-head";
    head.textContent = lines.head;
    li.append(head);
    for (const call of calls) {
      const b = document.createElement("span");
      b.className = "call";
      b.textContent = call;
      li.append(b);
    }
    for (const line of lines.details) {
      const d = document.createElement("div");
      d.className = "log-detail";
      d.textContent = line;
      li.append(d);
    }
    this.log.prepend(li);
    return lines.banner;
  }

  /** A line in the log that is not an event (joining, resynchronising, results). */
  logNote(text, className = "log-note") {
    const li = document.createElement("li");
    li.className = className;
    li.textContent = text;
    this.log.prepend(li);
  }

  /** A frame has ended (the next one is already racked): a line in the log and a banner. */
  frameOver(text) {
    this.logNote(text, "log-result");
    const banner = this.el("frame-banner");
    clearTimeout(this.frameTimer);
    banner.textContent = text;
    banner.hidden = false;
    this.frameTimer = setTimeout(() => (banner.hidden = true), 6000);
  }

  /** The match result, shown until the page is left; null hides it. */
  matchOver(text) {
    const banner = this.el("match-banner");
    banner.textContent = text || "";
    banner.hidden = !text;
    if (text) {
      clearTimeout(this.frameTimer);
      this.el("frame-banner").hidden = true;
    }
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
    this.el("confirm-dialog").hidden = false;
    this.el("confirm-no").focus({ preventScroll: true });
    return new Promise((resolve) => (this.answer = resolve));
  }

  closeConfirm(answer) {
    this.el("confirm-dialog").hidden = true;
    const resolve = this.answer;
    this.answer = null;
    if (resolve) resolve(answer);
  }

  decision(snap, seat, players) {
    const dialog = this.el("decision-dialog");
    const pending = snap.frame.pending;
    const mine = pending && pending.holder && pending.holder === seat && snap.status === "live";
    if (!mine) {
      dialog.hidden = true;
      dialog.dataset.version = "";
      return;
    }
    if (dialog.dataset.version === String(snap.version) && !dialog.hidden) return;
    dialog.dataset.version = String(snap.version);
    const toss = !pending.offender;
    this.el("decision-why").textContent = toss
      ? "Scores level: the black is re-spotted. You won the toss."
      : `${players[pending.offender]} fouled. What do you want to do?` +
        (snap.frame.free_ball ? " (You have a free ball if you play on.)" : "");
    const box = this.el("decision-options");
    box.replaceChildren();
    for (const option of pending.options) {
      const [label, text] = toss && option === "play" ? TOSS_PLAY : OPTION_TEXT[option] || [option, ""];
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.testid = `option-${option}`;
      b.dataset.option = option;
      const strong = document.createElement("strong");
      strong.textContent = label;
      const small = document.createElement("span");
      small.textContent = text;
      b.append(strong, small);
      box.append(b);
    }
    dialog.hidden = false;
    const first = box.querySelector("button");
    if (first) first.focus({ preventScroll: true });
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
    el.textContent = `⏱ ${left}s`;
    el.classList.toggle("low", left <= 10);
    el.hidden = false;
  }

  /** A short message over the table; with `ms`, it goes away by itself. */
  notice(text, { ms = 0, error = false } = {}) {
    const el = this.el("notice");
    clearTimeout(this.noticeTimer);
    el.textContent = text || "";
    el.hidden = !text;
    el.classList.toggle("error", error);
    if (text && ms) this.noticeTimer = setTimeout(() => this.notice(""), ms);
  }
}

/** How a frame or the match ended, after the score (the server names the termination). */
const ENDING = {
  foul_on_black: () => " (foul on the black)",
  three_misses: (loser) => ` (${loser} missed three times)`,
  conceded: (loser) => ` (${loser} conceded)`,
  claimed: () => " (claimed)",
};

function ending(termination, players, winner) {
  const words = ENDING[termination];
  return words ? words(players[winner === "A" ? "B" : "A"]) : "";
}

/** "Frame 1 to alice, 72–35" (the winner's score first), and how it ended if not by the
 * last ball: "Frame 2 to alice, 0–0 (claimed)". */
export function frameResult(record, players) {
  const { winner, scores } = record;
  const loser = winner === "A" ? "B" : "A";
  return `Frame ${record.number} to ${players[winner]}, ${scores[winner]}–${scores[loser]}` +
    ending(record.termination, players, winner);
}

/** "alice wins the match 2–1", or "alice wins the match 1–0 (bob conceded)". */
export function matchResult(snap, players) {
  const { result } = snap;
  if (!result || !result.winner) return "The match is over";
  const { winner, termination } = result;
  const { frames } = snap.scoreboard;
  const loser = winner === "A" ? "B" : "A";
  return `${players[winner]} wins the match ${frames[winner]}–${frames[loser]}` +
    ending(termination, players, winner);
}

/** "1:05" for 65 seconds. */
export function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The referee's words for one event: the log entry and the banner. */
export function describeEvent(event, players) {
  const who = event.seat ? players[event.seat] : "the referee";
  const r = event.ruling;
  const shot = event.shot;
  const details = [];
  const banner = [];
  let head;
  switch (event.kind) {
    case "start":
      head = `Frame begins: ${players[event.request.draw] || "?"} to break (the draw)`;
      banner.push(`${players[event.request.draw] || "?"} TO BREAK`);
      break;
    case "stroke": {
      const potted = shot ? shot.potted.filter((b) => b !== "white") : [];
      const inOff = shot && shot.potted.includes("white");
      head = `${who} plays`;
      if (r && r.nominated) details.push(`nominated ${r.nominated}`);
      if (shot && shot.first_contact && shot.first_contact.length) {
        details.push(`first contact: ${shot.first_contact.map(ballName).join(" and ")}`);
      } else if (shot) {
        details.push("hit no ball");
      }
      if (potted.length) details.push(`potted: ${potted.map(ballName).join(", ")}`);
      else if (shot && !inOff && shot.first_contact.length) details.push("nothing potted");
      if (inOff) details.push("the cue ball went in-off");
      if (r && !r.foul && r.points) {
        const brk = event.snapshot.scoreboard.break;
        banner.push(`${potted.map((b) => ballName(b).toUpperCase()).join(" + ")} · BREAK ${brk}`);
        details.push(`${r.points} point${r.points > 1 ? "s" : ""} to ${who}`);
      }
      break;
    }
    case "choice":
      head = `${who} chooses: ${(OPTION_TEXT[event.request.option] || [event.request.option])[0]}`;
      break;
    case "toss":
      head = `Re-spotted black: ${players[event.request.winner]} wins the toss`;
      break;
    case "concede":
      head = `${who} concedes the ${event.request.scope}`;
      break;
    case "claim":
      head = `${who} claims the ${event.request.scope}`;
      break;
    case "shot_clock":
      head = `${who} ran out of time`;
      break;
    default:
      head = event.kind;
  }
  if (r) {
    if (r.foul) {
      for (const f of r.fouls) details.push(`foul: ${describeFoul(f.kind)} (${f.clause})`);
      const other = event.seat === "A" ? "B" : "A";
      details.push(`penalty ${r.penalty} to ${players[other]}`);
    }
    if (r.miss) details.push("a miss");
    if (r.free_ball) details.push("free ball");
    if (r.touching) details.push(`touching ball: ${r.touching}`);
    const spots = Object.keys(r.respotted || {});
    if (spots.length) details.push(`re-spotted: ${spots.join(", ")}`);
    if (r.respotted_black) details.push("the black is re-spotted");
    if (r.warning) details.push("warning: a third miss loses the frame");
    if (r.frame_over) details.push(`frame over${r.winner ? `: ${players[r.winner]} wins it` : ""}`);
    if (r.choices && r.choices.length) {
      details.push(`options: ${r.choices.map((c) => (OPTION_TEXT[c] || [c])[0]).join(", ")}`);
    }
    banner.unshift(...r.calls);
  }
  return { head, details, banner };
}
