// The replay page (templates/members/replay.html): the controls, the table and the log around
// the replay's state (replay.js). Words come from the page; this module sets figures and
// states, and offers a read-only hook to the browser tests.

import { CONSTANTS } from "./constants.js";
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

function frame(now) {
  if (replay.tick(now)) {
    dirty = true;
    render();
  }
  if (tableView.resize()) dirty = true;
  if (dirty) {
    dirty = false;
    tableView.draw(replay.balls);
  }
  requestAnimationFrame(frame);
}

// --- the test hook (read-only) ------------------------------------------------------------------
window.snookerReplay = () => {
  const v = replay.view();
  return JSON.parse(JSON.stringify({ ...v, speed: replay.speed }));
};

render();
requestAnimationFrame(frame);
