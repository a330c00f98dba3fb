// The replay page (templates/members/replay.html): the controls, the table and the log around
// the replay's state (replay.js). Words come from the page; this module sets figures and
// states, and offers a read-only hook to the browser tests.

import { AimPainter } from "./aiming.js";
import {
  SIGNS, chanceLine, chancePoints, fetchAnalysis, markText, parseAnalysis, pending, refusalKey,
  statusText, summary,
} from "./analysis.js";
import { CONSTANTS, GUIDE } from "./constants.js";
import { t, translatePage } from "./i18n.js";
import { SPEEDS, Replay } from "./replay.js";
import { TableView } from "./table.js";

const root = document.getElementById("replay");
const data = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => root.querySelector(`[data-testid="${id}"]`);
const params = new URLSearchParams(location.search);

const replay = new Replay(data);
const asked = Number(params.get("speed"));
if (SPEEDS.includes(asked)) replay.setSpeed(asked);
$("speed").value = String(replay.speed);
replay.seek(replay.strokeIndex(data.stroke));

const canvas = root.querySelector("#table");
const tableView = new TableView(canvas, CONSTANTS.table);
const entries = [...root.querySelectorAll("[data-step]")];
let dirty = true;
let shownAt = null;

function act(fn) {
  return () => {
    fn();
    dirty = true;
    render();
  };
}

$("first").addEventListener("click", act(() => replay.seek(0)));
$("last").addEventListener("click", act(() => replay.seek(replay.total)));
$("step-back").addEventListener("click", act(() => replay.stepBack()));
$("step-forward").addEventListener("click", act(() => replay.stepForward()));
$("play").addEventListener("click", act(() => replay.toggle()));
$("speed").addEventListener("change", act(() => replay.setSpeed(Number($("speed").value))));
$("jump-form").addEventListener("submit", (e) => {
  e.preventDefault();
  act(() => replay.seek(replay.strokeIndex(Number($("jump").value))))();
});
for (const li of entries) {
  li.tabIndex = 0;
  // A line opens its own step, about to be played (the address then names its stroke).
  li.addEventListener("click", act(() => replay.seek(Number(li.dataset.step) - 1)));
  li.addEventListener("keydown", (e) => {
    if (e.key === "Enter") li.click();
  });
}
// The replay's keys on the whole page, not only on the focused table: ← and → step, Home and
// End go to the ends, Space plays (a field, a list or a button keeps its own keys).
document.addEventListener("keydown", (e) => {
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
  if (tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
  const keys = {
    " ": () => replay.toggle(),
    ArrowRight: () => replay.stepForward(),
    ArrowLeft: () => replay.stepBack(),
    Home: () => replay.seek(0),
    End: () => replay.seek(replay.total),
  };
  if (keys[e.key]) {
    e.preventDefault();
    act(keys[e.key])();
  }
});
window.addEventListener("resize", () => {
  dirty = true;
});

function render() {
  const v = replay.view();
  $("score-A").textContent = String(v.scores.A);
  $("score-B").textContent = String(v.scores.B);
  $("break").textContent = String(v.break);
  $("stroke-number").textContent = String(v.stroke === null ? v.strokes : v.stroke);
  const play = $("play");
  play.setAttribute("aria-pressed", String(v.playing));
  play.classList.toggle("playing", v.playing);
  const calls = $("calls");
  calls.textContent = v.calls.join(" · ");
  calls.hidden = !v.calls.length;
  if (shownAt !== v.step) {
    shownAt = v.step;
    // "Play from here": the stroke about to be played (none at a choice or the frame's end).
    const from = root.querySelector('[data-testid="play-from"]');
    if (from) {
      const step = data.steps[v.step];
      const next = step && step.kind === "stroke" ? step.version : "";
      from.elements.version.value = String(next);
      $("play-from-button").disabled = !next;
      // The same position in the position editor (docs/coach.md, "The position editor").
      const edit = $("edit-position");
      edit.hidden = !next;
      edit.href = `${edit.dataset.editor}?from=${root.dataset.match}&version=${next}`;
    }
    // The log's line of the step on screen (moving, or next to be played; data-step counts
    // from 1).
    for (const li of entries) li.classList.toggle("current", Number(li.dataset.step) === v.step + 1);
    const current = entries.find((li) => Number(li.dataset.step) === v.step + 1);
    if (current) current.scrollIntoView({ block: "nearest" });
    // The address of what is on screen: the stroke moving or about to be played.
    const url = new URL(location.href);
    url.searchParams.set("frame", String(data.frame));
    if (v.stroke === null) url.searchParams.delete("stroke");
    else url.searchParams.set("stroke", String(v.stroke));
    $("stroke-link").href = url.pathname + url.search;
    history.replaceState(null, "", url);
  }
}

// --- the coach's analysis (docs/coach.md) --------------------------------------------------------
const coach = $("coach");
const painter = new AimPainter(GUIDE, CONSTANTS.stroke);
const names = {
  A: root.querySelector('[data-side="A"] .sb-name').textContent,
  B: root.querySelector('[data-side="B"] .sb-name').textContent,
};
let analysis = parseAnalysis(null);
let proShown = null; // the stroke whose comparison is on screen

/** The analysed stroke about to be played, when the replay stands still before it. */
function comparedStroke() {
  const v = replay.view();
  if (v.playing || v.animating || v.step >= data.steps.length) return null;
  const stroke = analysis.byVersion.get(data.steps[v.step].version);
  return stroke && stroke.aim ? { stroke, after: data.steps[v.step].balls } : null;
}

function showAnalysis() {
  $("coach-status").textContent = statusText(analysis);
  $("analyse").hidden = !(coach.dataset.mayAsk === "true" && analysis.status === "none");
  const counts = summary(analysis);
  $("coach-summary").replaceChildren(...(analysis.byVersion.size ? ["A", "B"] : []).map((seat) => {
    const li = document.createElement("li");
    li.textContent = t("coach.summary", { name: names[seat], ...counts[seat] });
    return li;
  }));
  // A's chance through the frame (the middle line: even), described for a screen reader.
  const line = chanceLine(analysis);
  const graph = $("coach-graph");
  graph.hidden = line.length < 2;
  graph.querySelector("polyline").setAttribute("points", chancePoints(line, 200, 60));
  if (line.length) {
    graph.setAttribute("aria-label", t("coach.graph", {
      name: names.A, first: Math.round(line[0][1] * 100), last: Math.round(line.at(-1)[1] * 100),
    }));
  }
  for (const li of root.querySelectorAll("[data-version]")) {
    const stroke = analysis.byVersion.get(Number(li.dataset.version));
    li.querySelector(".coach-mark")?.remove();
    if (!stroke || !stroke.mark) continue;
    const mark = document.createElement("span");
    mark.className = `coach-mark mark-${stroke.mark}`;
    mark.dataset.testid = "coach-mark";
    mark.dataset.mark = stroke.mark;
    mark.title = markText(stroke);
    const sign = document.createElement("span");
    sign.setAttribute("aria-hidden", "true");
    sign.textContent = SIGNS[stroke.mark];
    const words = document.createElement("span");
    words.className = "sr-only";
    words.textContent = markText(stroke);
    mark.append(sign, words);
    li.querySelector(".log-text").append(mark);
  }
  proShown = undefined; // drawn again with the new results
  dirty = true;
}

async function readAnalysis(ask = false) {
  const answer = await fetchAnalysis(coach.dataset.url, ask ? coach.dataset.csrf : null);
  const error = $("coach-error");
  error.hidden = !answer.code;
  if (answer.code) {
    error.textContent = t(refusalKey(answer.code));
    return;
  }
  analysis = answer.analysis;
  showAnalysis();
  if (pending(analysis)) setTimeout(readAnalysis, 2000);
}

$("analyse").addEventListener("click", () => {
  $("analyse").disabled = true;
  readAnalysis(true).finally(() => {
    $("analyse").disabled = false;
  });
});

/** The Pro's stroke beside the one played, drawn over the position before it: its aim line
 * and where it leaves the cue ball (cyan), and where the played stroke left it (orange). */
function drawComparison(ctx, view) {
  const compared = comparedStroke();
  if (!compared) return;
  const { stroke, after } = compared;
  painter.drawHint(ctx, view, { aim: stroke.aim, leave: stroke.leave }, replay.balls);
  const white = after && after.white;
  if (!white) return;
  const px = 1 / view.scale;
  ctx.save();
  ctx.setLineDash([4 * px, 4 * px]);
  ctx.strokeStyle = "rgb(255,160,60)";
  ctx.lineWidth = 2.5 * px;
  ctx.beginPath();
  ctx.arc(white[0], white[1], view.R, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.restore();
}

function showComparison() {
  const compared = comparedStroke();
  const key = compared ? compared.stroke.version : null;
  if (key === proShown) return;
  proShown = key;
  const pro = $("coach-pro");
  pro.hidden = !compared;
  pro.textContent = compared
    ? [markText(compared.stroke), t("coach.pro")].filter(Boolean).join(" ")
    : "";
}

function frame(now) {
  if (replay.tick(now)) {
    dirty = true;
    render();
  }
  if (tableView.resize()) dirty = true;
  if (dirty) {
    dirty = false;
    showComparison();
    tableView.draw(replay.balls, { over: drawComparison });
  }
  requestAnimationFrame(frame);
}

// --- the test hook (read-only) ------------------------------------------------------------------
window.snookerReplay = () => {
  const v = replay.view();
  const compared = comparedStroke();
  return JSON.parse(JSON.stringify({
    ...v, speed: replay.speed, analysis: analysis.status, compared: compared ? compared.stroke : null,
  }));
};

translatePage(coach);
readAnalysis();
render();
requestAnimationFrame(frame);
