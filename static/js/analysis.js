// The coach's analysis on the replay page (docs/coach.md): the server's stored analysis of the
// frame (GET/POST /computer/analysis/<match>/<frame>/) read and checked, each stroke's mark
// found by its event's version, the players' marks counted, and the words for the status and
// a mark. Pure (tested with node --test); replay_page.js shows it and draws the Pro's stroke
// (aiming.js `drawHint`).

import { t } from "./i18n.js";

export const MARKS = ["inaccuracy", "mistake", "blunder"];
// The marks' signs, as chess annotates moves.
export const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const REASONS = new Set([
  "easy_pot", "position", "safety_left_pot", "avoidable_foul", "choice", "better_stroke",
]);
const STATUSES = new Set(["none", "queued", "running", "done"]);
// The refusals worded here (lang/*.js "coach.refused.<code>"); any other: "coach.refused.failed".
const REFUSALS = new Set(["not_logged_in", "not_a_player", "match_live", "bad_frame", "rate_limited"]);

const finite = (x) => typeof x === "number" && Number.isFinite(x);
const point = (p) => Array.isArray(p) && p.length === 2 && p.every(finite);

function strokeOf(entry) {
  if (!entry || !Number.isInteger(entry.index) || !finite(entry.lost)) return null;
  const mark = MARKS.includes(entry.mark) ? entry.mark : null;
  const best = entry.best;
  const aim = best && [best.angle, best.speed, best.side, best.height].every(finite)
    ? { angle: best.angle, speed: best.speed, side: best.side, height: best.height,
        cue_ball: point(best.cue_ball) ? best.cue_ball : null }
    : null;
  return {
    // The event the stroke was stored as: the match's commands follow its first event.
    version: entry.index + 2,
    seat: entry.seat === "B" ? "B" : "A",
    lost: entry.lost,
    mark,
    reason: mark && REASONS.has(entry.reason) ? entry.reason : null,
    kind: String(entry.best_kind || ""),
    option: String(entry.played_option || ""),
    aim,
    leave: point(entry.best_leave) ? entry.best_leave : null,
    // The striker's frame-winning chance before the stroke, 0–1 (the graph's point).
    chance: finite(entry.chance) ? Math.min(1, Math.max(0, entry.chance)) : null,
  };
}

/** The server's answer checked: {status, done, total, byVersion: Map(version → stroke),
 * accuracy: {A, B} (0–100, or null)}. */
export function parseAnalysis(data) {
  const status = data && STATUSES.has(data.status) ? data.status : "none";
  const byVersion = new Map();
  for (const entry of Array.isArray(data && data.strokes) ? data.strokes : []) {
    const stroke = strokeOf(entry);
    if (stroke) byVersion.set(stroke.version, stroke);
  }
  const done = Number.isInteger(data && data.done) ? data.done : byVersion.size;
  const total = Number.isInteger(data && data.total) ? data.total : 0;
  const accuracy = {};
  for (const seat of ["A", "B"]) {
    const figure = data && data.accuracy ? data.accuracy[seat] : null;
    accuracy[seat] = finite(figure) ? figure : null;
  }
  return { status, done, total, byVersion, accuracy };
}

/** The graph of player A's frame-winning chance through the frame: one point a stroke
 * analysed, in the frame's order, as [stroke's place, A's chance 0–1]. */
export function chanceLine(analysis) {
  return [...analysis.byVersion.values()]
    .filter((s) => s.chance !== null)
    .sort((a, b) => a.version - b.version)
    .map((s, i) => [i, s.seat === "A" ? s.chance : 1 - s.chance]);
}

/** The graph's polyline points in a `width` × `height` box (A's chance up). */
export function chancePoints(line, width, height) {
  const last = Math.max(1, line.length - 1);
  return line
    .map(([i, c]) => `${((i / last) * width).toFixed(1)},${((1 - c) * height).toFixed(1)}`)
    .join(" ");
}

/** Whether the page should ask again soon (the analysis is queued or running). */
export function pending(analysis) {
  return analysis.status === "queued" || analysis.status === "running";
}

/** Each player's marks, points lost and accuracy (the server's; "–" before any):
 * {A: {inaccuracy, mistake, blunder, lost, accuracy}, B: …}. */
export function summary(analysis) {
  const out = {};
  for (const seat of ["A", "B"]) {
    const figure = analysis.accuracy ? analysis.accuracy[seat] : null;
    out[seat] = {
      inaccuracy: 0, mistake: 0, blunder: 0, lost: 0,
      accuracy: figure === null || figure === undefined ? "–" : String(Math.round(figure)),
    };
  }
  for (const s of analysis.byVersion.values()) {
    if (s.mark) out[s.seat][s.mark] += 1;
    out[s.seat].lost += s.lost;
  }
  for (const seat of ["A", "B"]) out[seat].lost = Math.round(out[seat].lost * 10) / 10;
  return out;
}

/** The status line: "Queued", "12 of 48 strokes analysed", "Analysed"; "" with none. */
export function statusText(analysis) {
  if (analysis.status === "queued") return t("coach.queued");
  if (analysis.status === "running") {
    return t("coach.running", { n: analysis.total, done: analysis.done, total: analysis.total });
  }
  if (analysis.status === "done") return t("coach.done");
  return "";
}

/** A mark in words, for the log's line and a screen reader: "Blunder: an easy pot not taken
 * (9.2 points lost)". */
export function markText(stroke) {
  if (!stroke || !stroke.mark) return "";
  const lost = Math.round(stroke.lost * 10) / 10;
  const reason = stroke.reason ? t(`coach.reason.${stroke.reason}`) : "";
  return t("coach.mark", { mark: t(`coach.${stroke.mark}`), reason, lost });
}

/** The catalogue key for a refusal's code. */
export function refusalKey(code) {
  return REFUSALS.has(code) ? `coach.refused.${code}` : "coach.refused.failed";
}

/** Ask for the analysis (POST) or read it (GET, no csrf): {analysis} or {code}. `request` as
 * fetch (tests pass their own). */
export async function fetchAnalysis(url, csrf = null, request = fetch) {
  let response;
  try {
    response = await request(url, csrf === null
      ? { headers: { Accept: "application/json" }, credentials: "same-origin" }
      : { method: "POST", headers: { "X-CSRFToken": csrf, Accept: "application/json" },
          credentials: "same-origin" });
  } catch {
    return { code: "failed" };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) return { code: data && typeof data.code === "string" ? data.code : "failed" };
  return { analysis: parseAnalysis(data) };
}
