// The story of the match in words: the referee's log of each frame, as the server keeps it
// (`log` messages: every event of a frame as an entry, docs/protocol.md) and as the page sees
// it happen (`entryOf` makes the same entry from a live event), and what the page says of
// turns, results, spin and refused placements. The referee's calls are rendered from the
// ruling's fields (foul and penalty, miss, free ball, ...), never from its English words;
// fouls name their clause of the rule book. Pure: no DOM (tests/story.test.js).
//
// The one wording of the log: a finished match's record and replay word the same entries on
// the server with game/words.py, from these catalogues, key for key as `describe` does here
// (tests/game/test_log_words.py runs this module and fails if the two differ).

import { num, t } from "./i18n.js";

export const other = (seat) => (seat === "A" ? "B" : "A");

/** A ball's name: `form` "name" (red, brown, cue ball), "the" (as the object of a verb:
 * "a red", "the brown"; Russian: the genitive). Reds are one name whatever their number. */
export function ballName(id, form = "name") {
  const base = String(id).startsWith("red") ? "red" : id;
  return t(`ball.${form}.${base}`);
}

/** "red", "colour" or a colour, as the scoreboard's `on` says it. */
export function onName(on) {
  return t(`on.${on}`);
}

function list(items) {
  return items.join(t("list.sep"));
}

// --- the referee's calls -----------------------------------------------------------------
/** The referee's words for a ruling, in the order the server calls them
 * (rules.referee.calls): each from its field, in the page's language. */
export function refereeCalls(ruling) {
  if (!ruling) return [];
  const words = [];
  if (ruling.foul) words.push(t("call.foul", { n: ruling.penalty }));
  if (ruling.miss) words.push(t("call.miss"));
  if (ruling.warning) words.push(t("call.warning"));
  if (ruling.free_ball) words.push(t("call.free_ball"));
  if (ruling.touching) words.push(t("call.touching"));
  if (ruling.respotted_black) words.push(t("call.respotted_black"));
  if (ruling.frame_over) words.push(t("call.frame_over"));
  return words;
}

/** "§23.1.6" as the rule book numbers it ("п. 23.1.6" in Russian); the club's own rules
 * (the shot clock) as such. */
export function clauseText(clause) {
  return String(clause).startsWith("§")
    ? t("clause.section", { n: String(clause).slice(1) })
    : t("clause.club");
}

export function foulText(foul) {
  return t("log.foul", { what: t(`foul.${foul.kind}`), clause: clauseText(foul.clause) });
}

/** The label of a decision's option and what it does; the re-spotted black's `play` (after
 * the draw, no foul) is worded for itself. */
export function optionText(option, toss = false) {
  const key = toss && option === "play" ? "toss_play" : option;
  return { label: t(`option.${key}`), text: t(`option.${key}.text`) };
}

// --- results -------------------------------------------------------------------------------
/** "Frame 2 to alice, 72–35", and how it ended if not by the balls: `end` is a frame_end
 * ({termination, winner}), `scores` the frame's final score. */
export function frameResult(number, end, scores, players) {
  const winner = end.winner;
  const loser = other(winner);
  const params = {
    n: number, name: players[winner], loser: players[loser],
    won: scores[winner], lost: scores[loser],
  };
  const how = ["conceded", "claimed", "three_misses", "foul_on_black"].includes(end.termination)
    ? end.termination
    : "balls";
  return t(`result.frame.${how}`, params);
}

/** "alice wins the match 2–1", or how else it ended: `result` ({termination, winner}),
 * `frames` the frames won. */
export function matchResult(result, frames, players) {
  if (!result || !result.winner) return t("result.match.over");
  const { winner, termination } = result;
  const loser = other(winner);
  const params = {
    name: players[winner], loser: players[loser], won: frames[winner], lost: frames[loser],
  };
  const how = ["conceded", "claimed"].includes(termination) ? termination : "frames";
  return t(`result.match.${how}`, params);
}

// --- the log -------------------------------------------------------------------------------
/** A live event as the log keeps it: the server's `LogEntry` (game/protocol/server_out.py).
 * `before` is the snapshot shown before it (for the break the frame's last pot made). */
export function entryOf(event, before) {
  const snap = event.snapshot;
  let scores = snap.scoreboard.scores;
  let brk = snap.scoreboard.break;
  if (event.frame_end && snap.frames.length) {
    // Its snapshot shows the next frame racked: the frame's own figures instead.
    scores = snap.frames[snap.frames.length - 1].scores;
    const r = event.ruling;
    brk = r && !r.foul ? (before ? before.scoreboard.break : 0) + r.points : 0;
  }
  const shot = event.shot
    ? { first_contact: event.shot.first_contact, potted: event.shot.potted }
    : null;
  return {
    version: event.version, kind: event.kind, seat: event.seat, request: event.request,
    ruling: event.ruling, shot, scores, break: brk,
    frame_end: event.frame_end || null, match_end: event.match_end || null,
  };
}

/** The words for one entry: `head` (who did what), the referee's `calls`, `details`, and
 * the frame's or the match's `result` when it ended one. */
export function describe(entry, players, { frame, frames } = {}) {
  const who = entry.seat ? players[entry.seat] : t("log.referee");
  const r = entry.ruling;
  const shot = entry.shot;
  const request = entry.request || {};
  const details = [];
  let head;
  switch (entry.kind) {
    case "start":
      head = t("log.draw", { name: players[request.draw] || "?" });
      // The handicap start (RULES.md §10); none in matches made before starts.
      for (const seat of ["A", "B"]) {
        const points = request.start ? request.start[seat] : 0;
        if (points) details.push(t("log.start", { name: players[seat] || "?", n: points }));
      }
      break;
    case "stroke": {
      // Said as a referee would: who potted what, whose foul, or what was played (a safety).
      const potted = shot ? shot.potted.filter((b) => b !== "white").map((b) => ballName(b)) : [];
      const first = shot ? shot.first_contact.map((b) => ballName(b)) : [];
      if (r && r.foul) head = t("log.foul_by", { name: who });
      else if (potted.length) head = t("log.pots", { name: who, balls: list(potted) });
      else if (first.length) head = t("log.plays_ball", { name: who, balls: list(first) });
      else head = t("log.plays", { name: who });
      if (r && r.nominated) details.push(t("log.nominated", { ball: ballName(r.nominated) }));
      if (r && r.foul && first.length) details.push(t("log.first", { balls: list(first) }));
      if (r && r.foul && potted.length) details.push(t("log.potted", { balls: list(potted) }));
      if (r && !r.foul && r.points) {
        details.push(t("log.points", { n: r.points, name: who, brk: entry.break }));
      }
      break;
    }
    case "choice":
      head = t(`log.choice.${request.option}`, { name: who, other: players[other(entry.seat)] });
      break;
    case "toss":
      head = t("log.toss", { name: players[request.winner] });
      break;
    case "concede":
    case "claim":
      head = t(`log.${entry.kind}.${request.scope === "match" ? "match" : "frame"}`, { name: who });
      break;
    case "shot_clock":
      head = t("log.shot_clock", { name: who });
      break;
    default:
      head = entry.kind;
  }
  if (r) {
    for (const f of r.fouls) details.push(foulText(f));
    if (r.foul) details.push(t("log.penalty", { n: r.penalty, name: players[other(entry.seat)] }));
    if (r.touching) details.push(t("log.touching", { ball: ballName(r.touching) }));
    const spotted = Object.keys(r.respotted || {});
    if (spotted.length) details.push(t("log.respotted", { balls: list(spotted.map((b) => ballName(b))) }));
    if (r.choices && r.choices.length && !r.frame_over) {
      const toss = entry.kind === "toss";
      details.push(t("log.options", { options: list(r.choices.map((o) => optionText(o, toss).label)) }));
    }
  }
  let result = null;
  if (entry.frame_end && frame) result = frameResult(frame, entry.frame_end, entry.scores, players);
  if (entry.match_end && frames) result = matchResult(entry.match_end, frames, players);
  return { head, calls: refereeCalls(r), details, result, score: entry.scores };
}

/** What the live region reads for one event, once: one sentence in the log's own words
 * (who did what, what was potted, the fouls and the penalty, the decision asked for, with the
 * calls the log does not word: miss, warning, free ball), then the frame's or the match's
 * result when it ended one. */
export function spokenEvent(event, before, players) {
  const snap = event.snapshot;
  const ended = snap.frames.length ? snap.frames[snap.frames.length - 1].number : null;
  const said = describe(entryOf(event, before), players, {
    frame: ended, frames: snap.scoreboard.frames,
  });
  const r = event.ruling;
  const calls = r ? [r.miss && t("call.miss"), r.warning && t("call.warning"),
    r.free_ball && t("call.free_ball")].filter(Boolean) : [];
  const details = [...said.details, ...calls.map((c) => c.toLowerCase())];
  const sentence = details.length ? `${said.head}: ${details.join(", ")}` : said.head;
  return [sentence, said.result].filter(Boolean).join(". ");
}

/** The breaks of a frame, in order: each visit that scored, with its last value. */
export function breaksOf(entries) {
  const out = [];
  let run = null;
  for (const e of entries) {
    if (run && (e.break === 0 || e.seat !== run.seat || e.kind !== "stroke")) {
      out.push(run);
      run = null;
    }
    if (e.kind === "stroke" && e.seat && e.break > 0) run = { seat: e.seat, points: e.break };
  }
  if (run) out.push(run);
  return out;
}

/** Every frame's log the page holds: loaded from the server (`log`) or seen as it was
 * played. `frames` maps a frame's number to {number, breaker, entries, omitted}. */
export class Story {
  constructor() {
    this.frames = new Map();
  }

  /** A `log` message: the frame's entries up to the version it was read at; any newer entry
   * seen live meanwhile is kept. */
  load(log) {
    const held = this.frames.get(log.frame);
    const last = log.entries.length ? log.entries[log.entries.length - 1].version : 0;
    const newer = held ? held.entries.filter((e) => e.version > last) : [];
    this.frames.set(log.frame, {
      number: log.frame, breaker: log.breaker, entries: [...log.entries, ...newer],
      omitted: log.omitted,
    });
  }

  /** A live event shown on the page, with the snapshot shown before it. Returns the entry. */
  add(event, before) {
    const snap = event.snapshot;
    const number = before ? before.scoreboard.frame_number : snap.scoreboard.frame_number;
    const entry = entryOf(event, before);
    let frame = this.frames.get(number);
    if (!frame) {
      // Not held (its log has not come yet): keep what is seen; the log fills the rest.
      frame = { number, breaker: null, entries: [], omitted: 0, partial: true };
      this.frames.set(number, frame);
    }
    const last = frame.entries.length ? frame.entries[frame.entries.length - 1].version : 0;
    if (entry.version > last) frame.entries.push(entry);
    if (event.frame_end && !event.match_end) {
      // The next frame is racked: its log starts empty, its breaker on the table.
      const next = snap.scoreboard.frame_number;
      if (!this.frames.has(next)) {
        this.frames.set(next, { number: next, breaker: snap.frame.striker, entries: [], omitted: 0 });
      }
    }
    return entry;
  }

  /** A whole new picture (events were skipped): a frame not known to have ended may have
   * gaps, so it is dropped until its log comes again. */
  reset() {
    for (const [number, frame] of this.frames) {
      if (!frame.entries.some((e) => e.frame_end)) this.frames.delete(number);
    }
  }

  frame(number) {
    return this.frames.get(number) || null;
  }

  /** Whether frame `number` is held whole (else the page asks the server for it). */
  holds(number) {
    const frame = this.frames.get(number);
    return Boolean(frame && !frame.partial);
  }
}

// --- what the page says about the table -------------------------------------------------------
/** Whose turn it is and what is on: {kind: mine | decide | theirs | wait | over | moving,
 * text, on}. `moving`: a stroke's balls are running on `snap`'s table, nobody's turn yet
 * (not "Your turn · ball in hand" while one's own balls run). */
export function turnOf(snap, seat, players, moving = false) {
  const board = snap.scoreboard;
  const pending = snap.frame.pending;
  if (snap.status === "finished") {
    return { kind: "over", text: matchResult(snap.result, board.frames, players), on: "" };
  }
  if (pending && !pending.holder) return { kind: "wait", text: t("turn.toss"), on: "" };
  if (pending) {
    return pending.holder === seat
      ? { kind: "decide", text: t("turn.your_decision"), on: "" }
      : { kind: "theirs", text: t("turn.deciding", { name: players[pending.holder] }), on: "" };
  }
  const on = snap.frame.free_ball
    ? t("turn.on_free_ball", { ball: onName(board.on) })
    : t("turn.on", { ball: onName(board.on) });
  if (moving) return { kind: "moving", text: t("turn.running"), on, hand: "" };
  const hand = snap.frame.in_hand ? t("turn.in_hand") : "";
  if (seat && board.to_act === seat) return { kind: "mine", text: t("turn.yours"), on, hand };
  return { kind: "theirs", text: t("turn.plays", { name: players[board.to_act] }), on, hand };
}

/** "top 0.3, left 0.2": the tip's offset from the cue ball's centre, in ball radii. */
export function spinLabel(side, height) {
  if (!side && !height) return t("spin.centre");
  const parts = [];
  if (height) parts.push(t(height > 0 ? "spin.top" : "spin.screw", { v: num(Math.abs(height)) }));
  if (side) parts.push(t(side > 0 ? "spin.right" : "spin.left", { v: num(Math.abs(side)) }));
  return list(parts);
}

/** Why the cue ball cannot go there (geometry.placementRefusal's answer). */
export function refusalText(refusal) {
  if (refusal.code === "cue_ball_overlaps") {
    return t("place.touches", { ball: ballName(refusal.ball, "the") });
  }
  if (refusal.ball) return t("place.outside_d_touching", { ball: ballName(refusal.ball, "the") });
  return t("place.outside_d");
}

/** What a refused request says to a person: the server's sentence (game/text.py words it
 * in the page's language), never its code; the catalogue's if the server sent none. */
export function refusalWords(error) {
  if (error.message) return error.message;
  const key = `error.${error.code}`;
  const text = t(key);
  return text === key ? t("error.other") : text;
}
