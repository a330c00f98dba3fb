// The live match page: wires the connection, the event queue, the table and the controls.
//
// Protocol bookkeeping (`version`) follows the events as they arrive; what the page shows
// follows them through a queue, so a stroke is animated from its trajectories before the
// scoreboard and the referee's calls move on, and every event is shown exactly once.

import { Aim, MAX_SPEED, MIN_SPEED, MISCUE, drawAim, drawD, drawPlacement, normaliseAngle,
  placementProblem, predict } from "./aiming.js";
import { Connection } from "./connection.js";
import { Panels, clock, frameResult, matchResult, nominationChoices } from "./panels.js";
import { R, TableView } from "./table.js";
import { Motion } from "./trajectory.js";

const root = document.getElementById("match");
const matchId = Number(root.dataset.match);
const params = new URLSearchParams(location.search);
// Playback rate of stroke animations (1 = real time; tests speed it up).
const PLAYBACK = Math.min(40, Math.max(0.25, Number(params.get("playback")) || 1));
const AIM_EVERY = 120; // ms between aim messages (the server relays at most 10 a second)
const AIM_SETTLE = 400; // ms after the last change, the final aim is sent again

const panels = new Panels(root);
const canvas = root.querySelector("#table");
const view = new TableView(canvas);
const el = panels.el;

const S = {
  seat: root.dataset.seat || null,
  players: { A: el("name-A").textContent, B: el("name-B").textContent },
  presence: null,
  connection: "connecting",
  version: null, // the last event version received (protocol bookkeeping)
  shown: null, // the snapshot on screen
  queue: [], // events received, not yet shown
  anim: null, // {motion, start, before, event}
  balls: {}, // what is drawn now
  aim: new Aim(),
  remoteAim: null, // the striker's aim as relayed to us
  pending: null, // the last request sent and not yet answered {message, version}
  resyncing: false,
  presented: [], // versions shown, in order
  calls: [], // {version, kind, calls}
  dirty: true,
  lastAimSent: 0,
  aimTimer: null,
  aimSettle: null,
  dragging: false,
  lastMotion: null, // {version, seconds, continuity} of the last stroke animated
};

function uuid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// --- the connection ----------------------------------------------------------------------------
const conn = new Connection({
  matchId,
  versionOf: () => S.version,
  onMessage: receive,
  onState: (state, detail) => {
    S.connection = state;
    panels.connection(state, detail);
    refreshControls();
    refreshAway();
  },
});

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      onWelcome(msg);
      break;
    case "event":
      onEvent(msg);
      break;
    case "ack":
      if (S.pending && S.pending.message.client_id === msg.client_id) S.pending = null;
      refreshControls();
      break;
    case "error":
      onError(msg);
      break;
    case "presence":
      S.presence = msg;
      if (S.shown) panels.scoreboard(S.shown, S.players, S.presence, S.connection);
      refreshAway();
      break;
    case "aim":
      S.remoteAim = msg;
      S.dirty = true;
      break;
    case "pong":
      if (S.resyncing) {
        S.resyncing = false;
        resendPending();
      }
      break;
    default:
      break;
  }
}

function onWelcome(msg) {
  S.seat = msg.seat;
  S.players = msg.players;
  const snap = msg.snapshot;
  if (snap && snap.version !== S.version) {
    // A whole new picture: whatever was queued or moving is superseded.
    S.queue = [];
    S.anim = null;
    const first = S.version === null;
    S.version = snap.version;
    present(snap);
    const { scores, frame_number: number } = snap.scoreboard;
    panels.logNote(
      `${first ? "Joined" : "Resynchronised"} at frame ${number}: ` +
        `${S.players.A} ${scores.A} – ${scores.B} ${S.players.B}`,
    );
  }
  // Missed events (if any) follow the welcome; the pong to this ping comes after them.
  S.resyncing = true;
  conn.send({ type: "ping", version: S.version || 0 });
  refreshControls();
}

function onEvent(event) {
  if (S.version !== null && event.version <= S.version) return; // seen already
  if (S.version !== null && event.version > S.version + 1) {
    conn.drop(); // a gap: reconnect and ask for what is missing
    return;
  }
  S.version = event.version;
  if (S.pending && event.version > S.pending.version) {
    // Our request made this event, or the table moved on and it is stale: either way done.
    S.pending = null;
  }
  S.queue.push(event);
  pump();
}

// What a player reads for the refusals a click can run into; the server's words otherwise.
const ERROR_TEXT = {
  not_claimable: "You cannot claim: your opponent is back, or the grace period has not run out.",
  match_over: "The match is already over.",
  frame_over: "That frame is already over.",
  not_a_player: "Only the two players can do that.",
};

function onError(msg) {
  if (S.pending && msg.client_id && S.pending.message.client_id === msg.client_id) {
    S.pending = null;
  }
  if (msg.code !== "rate_limited") {
    panels.notice(`${ERROR_TEXT[msg.code] || msg.message} (${msg.code})`, { ms: 6000, error: true });
  }
  refreshControls();
}

function resendPending() {
  if (!S.pending) return;
  if (S.version !== S.pending.version) {
    S.pending = null; // the table moved on: the request is answered or stale
  } else {
    conn.send(S.pending.message);
  }
  refreshControls();
}

function request(message) {
  S.pending = { message, version: S.version };
  conn.send(message);
  refreshControls();
}

// --- showing events ------------------------------------------------------------------------------
function present(snap, event = null) {
  const before = S.shown;
  S.shown = snap;
  S.balls = { ...snap.frame.balls };
  if (event) {
    S.presented.push(event.version);
    const calls = (event.ruling && event.ruling.calls) || [];
    S.calls.push({ version: event.version, kind: event.kind, calls });
    const banner = panels.logEvent(event, S.players);
    panels.referee(banner);
  }
  const myTurn = canStrike();
  if (!before || before.version !== snap.version) {
    S.remoteAim = null;
    if (snap.frame.in_hand) {
      S.aim.cueBall = null;
      S.aim.hover = null;
    }
    if (myTurn && !snap.frame.in_hand) aimAtNearestBallOn();
  }
  announceResults(before, snap, event);
  panels.scoreboard(snap, S.players, S.presence, S.connection);
  panels.decision(snap, S.seat, S.players);
  refreshControls();
  refreshAway();
  S.dirty = true;
}

/** A frame that ended since the last picture, and the end of the match, told once. */
function announceResults(before, snap, event) {
  const ended = before ? snap.frames.slice(before.frames.length) : [];
  const finished = snap.status === "finished";
  for (const record of ended) {
    let text = frameResult(record, S.players);
    if (event && (event.kind === "concede" || event.kind === "claim") && record === ended.at(-1)) {
      text += event.kind === "claim" ? " (claimed)" : " (conceded)";
    }
    if (finished && record === ended.at(-1)) panels.logNote(text, "log-result");
    else panels.frameOver(text);
  }
  if (finished && (!before || before.status !== "finished")) {
    panels.closeConfirm(false);
    const text = matchResult(snap, S.players);
    panels.logNote(text, "log-result final");
    panels.matchOver(text);
  } else if (!finished) {
    panels.matchOver(null);
  }
}

function pump() {
  const now = performance.now();
  if (S.anim) {
    const t = ((now - S.anim.start) / 1000) * PLAYBACK;
    if (t >= S.anim.motion.end) {
      const { event } = S.anim;
      S.anim = null;
      present(event.snapshot, event);
    } else {
      S.balls = S.anim.motion.positionsAt(t, S.anim.before);
      S.dirty = true;
      return;
    }
  }
  while (!S.anim && S.queue.length) {
    const event = S.queue.shift();
    // While catching up, only the last stroke is animated.
    if (event.kind === "stroke" && event.shot && S.queue.length === 0) {
      const motion = new Motion(event.shot);
      if (motion.end > 0) {
        const before = { ...S.balls };
        const cue = event.request && event.request.cue_ball;
        if (cue) before.white = cue;
        S.anim = { motion, start: now, before, event };
        S.lastMotion = {
          version: event.version,
          seconds: motion.end,
          continuity: Math.round(motion.continuityError() * 1000) / 1000,
        };
        S.remoteAim = null;
        S.balls = motion.positionsAt(0, before);
        S.dirty = true;
        refreshControls();
        return;
      }
    }
    present(event.snapshot, event);
  }
}

// --- aiming ----------------------------------------------------------------------------------------
function canStrike() {
  const snap = S.shown;
  return Boolean(
    snap && S.seat && snap.status === "live" && !snap.frame.pending &&
      snap.scoreboard.to_act === S.seat && !snap.frame.frame_over,
  );
}

function ready() {
  return canStrike() && !S.anim && S.queue.length === 0 && !S.pending && conn.ready;
}

function cuePosition() {
  if (!S.shown) return null;
  if (S.shown.frame.in_hand) return S.aim.cueBall;
  return S.shown.frame.balls.white || null;
}

function ballsOn(snap) {
  const on = snap.frame.on;
  const ids = Object.keys(snap.frame.balls).filter((b) => b !== "white");
  if (on === "red") return ids.filter((b) => b.startsWith("red"));
  if (on === "colour") return ids.filter((b) => !b.startsWith("red"));
  return ids.filter((b) => b === on);
}

function aimAtNearestBallOn() {
  const cue = cuePosition();
  if (!cue) return;
  let best = null;
  for (const id of ballsOn(S.shown)) {
    const p = S.shown.frame.balls[id];
    const d = Math.hypot(p[0] - cue[0], p[1] - cue[1]);
    if (!best || d < best.d) best = { d, p };
  }
  if (best) S.aim.angle = Math.atan2(best.p[1] - cue[1], best.p[0] - cue[0]);
}

function aimChanged() {
  S.dirty = true;
  syncAimInputs();
  refreshNomination();
  if (!ready()) return;
  // At most one aim message every AIM_EVERY ms, and the final aim once more a little later:
  // the server drops aim messages that come too fast, and the last one must get through.
  const wait = AIM_EVERY - (Date.now() - S.lastAimSent);
  if (wait <= 0) sendAim();
  else if (!S.aimTimer) S.aimTimer = setTimeout(sendAim, wait);
  clearTimeout(S.aimSettle);
  S.aimSettle = setTimeout(sendAim, AIM_SETTLE);
}

function sendAim() {
  clearTimeout(S.aimTimer);
  S.aimTimer = null;
  if (!ready()) return;
  const inHand = S.shown.frame.in_hand;
  if (inHand && !S.aim.cueBall) return;
  S.lastAimSent = Date.now();
  conn.send({ type: "aim", ...S.aim.message(inHand) });
}

function strike() {
  if (!ready()) return;
  const snap = S.shown;
  const inHand = snap.frame.in_hand;
  if (inHand && !S.aim.cueBall) {
    panels.notice("Place the cue ball in the D first.");
    return;
  }
  const nominate = el("nominate");
  const nominated = !el("nominate-row").hidden && nominate.value ? nominate.value : null;
  request({
    type: "stroke",
    client_id: uuid(),
    version: S.version,
    ...S.aim.message(inHand),
    nominated,
  });
}

// --- conceding and claiming ------------------------------------------------------------------------
function live() {
  return Boolean(S.shown && S.seat && S.shown.status === "live");
}

/** Concessions and claims need the table as it is now: nothing moving, queued or unanswered. */
function canAct() {
  return live() && !S.anim && S.queue.length === 0 && !S.pending && conn.ready;
}

function opponentSeat() {
  return S.seat === "A" ? "B" : "A";
}

/** Ask first; then send `concede` or `claim` if the frame asked about is still the one in play. */
async function settle(type, scope) {
  if (!canAct()) return;
  const frameNumber = S.shown.scoreboard.frame_number;
  const other = S.players[opponentSeat()];
  const what = scope === "match" ? "the match" : `frame ${frameNumber}`;
  const ask =
    type === "concede"
      ? {
          title: `Concede ${what}?`,
          text: `${other} will be awarded ${what}.` +
            (scope === "frame" ? " The next frame is racked at once." : " The match ends."),
          yes: scope === "match" ? "Concede match" : "Concede frame",
        }
      : {
          title: `Claim ${what}?`,
          text: `${other} has left the table and will be recorded as conceding ${what}.`,
          yes: scope === "match" ? "Claim match" : "Claim frame",
        };
  if (!(await panels.confirm(ask))) return;
  if (!canAct() || S.shown.scoreboard.frame_number !== frameNumber) {
    panels.notice("The table changed meanwhile: nothing was sent. Look again.", { ms: 6000 });
    return;
  }
  request({ type, client_id: uuid(), scope });
}

/** The opponent (or, for spectators, any player) who is away: a banner and maybe a claim. */
function refreshAway() {
  const seats = S.seat ? [opponentSeat()] : ["A", "B"];
  const players = (S.presence && S.presence.players) || {};
  const gone = seats.filter((s) => players[s] && !players[s].online);
  if (!gone.length || !S.shown || S.shown.status !== "live" || S.connection !== "open") {
    panels.away(null, false);
    return;
  }
  const names = gone.map((s) => S.players[s]).join(" and ");
  let text = `${names} ${gone.length > 1 ? "have" : "has"} left the table`;
  let claim = false;
  if (S.seat) {
    const from = Date.parse(players[gone[0]].claim_from);
    const left = Math.ceil((from - Date.now()) / 1000);
    if (left > 0) text += ` — you may claim in ${clock(left)}`;
    else claim = true;
  }
  panels.away(text, claim);
  for (const id of ["claim-frame", "claim-match"]) el(id).disabled = !canAct();
}

function choose(option) {
  if (!S.shown || S.pending) return;
  el("decision-dialog").hidden = true;
  request({ type: "choose", client_id: uuid(), version: S.version, option });
}

// --- controls ------------------------------------------------------------------------------------
const power = el("power");
const angleInput = el("aim-angle");
const spin = el("spin");

function syncAimInputs() {
  if (document.activeElement !== angleInput) {
    angleInput.value = ((S.aim.angle * 180) / Math.PI).toFixed(2);
  }
  power.value = String(S.aim.speed);
  el("power-value").textContent = S.aim.speed.toFixed(1);
  const { side, height } = S.aim;
  el("spin-value").textContent =
    side === 0 && height === 0
      ? "centre"
      : `${height > 0 ? "top" : height < 0 ? "screw" : ""} ${Math.abs(height).toFixed(2)}` +
        ` · ${side > 0 ? "right" : side < 0 ? "left" : ""} ${Math.abs(side).toFixed(2)}`;
  drawSpin();
}

function drawSpin() {
  const dpr = window.devicePixelRatio || 1;
  const size = 84;
  if (spin.width !== size * dpr) {
    spin.width = size * dpr;
    spin.height = size * dpr;
  }
  const ctx = spin.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, size, size);
  const c = size / 2;
  const r = size / 2 - 4;
  const g = ctx.createRadialGradient(c - 10, c - 12, 4, c, c, r);
  g.addColorStop(0, "#ffffff");
  g.addColorStop(1, "#cfcbbb");
  ctx.beginPath();
  ctx.arc(c, c, r, 0, 2 * Math.PI);
  ctx.fillStyle = g;
  ctx.fill();
  ctx.strokeStyle = "#888";
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(c, c, r * MISCUE, 0, 2 * Math.PI);
  ctx.setLineDash([3, 3]);
  ctx.strokeStyle = "#b33";
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(c + S.aim.side * r, c - S.aim.height * r, 5, 0, 2 * Math.PI);
  ctx.fillStyle = "#1f5fbf";
  ctx.fill();
}

function refreshNomination() {
  const row = el("nominate-row");
  const select = el("nominate");
  const snap = S.shown;
  const choices = snap && canStrike() ? nominationChoices(snap.frame, snap.frame.balls) : [];
  if (!choices.length) {
    row.hidden = true;
    select.dataset.key = "";
    return;
  }
  row.hidden = false;
  const key = `${snap.version}:${choices.join(",")}`;
  if (select.dataset.key !== key) {
    select.dataset.key = key;
    select.dataset.touched = "";
    select.replaceChildren();
    const auto = document.createElement("option");
    auto.value = "";
    auto.textContent = "the ball hit first";
    select.append(auto);
    for (const id of choices) {
      const o = document.createElement("option");
      o.value = id;
      o.textContent = id.startsWith("red") ? `red (${id})` : id;
      select.append(o);
    }
  }
  // Follow the ball aimed at until the player picks one by hand.
  if (select.dataset.touched) return;
  const cue = cuePosition();
  const target = cue ? predict(cue, S.aim.angle, snap.frame.balls).target : null;
  select.value = target && choices.includes(target) ? target : "";
}

function refreshControls() {
  const snap = S.shown;
  const player = Boolean(S.seat);
  const mine = canStrike();
  el("controls").hidden = !player;
  const watching = el("watching");
  if (!player) {
    watching.hidden = false;
    watching.textContent = "You are watching. Sign in as a player to play.";
  } else {
    watching.hidden = true;
  }
  for (const id of ["concede-frame", "concede-match"]) el(id).disabled = !canAct();
  root.classList.toggle("finished", Boolean(snap && snap.status === "finished"));
  const strikeButton = el("strike");
  strikeButton.disabled = !ready() || (snap && snap.frame.in_hand && !S.aim.cueBall);
  for (const input of [power, angleInput, el("nominate"), el("spin-reset")]) {
    input.disabled = !mine;
  }
  let hint = "";
  if (!snap) hint = "Connecting…";
  else if (S.pending) hint = "Waiting for the referee…";
  else if (S.anim || S.queue.length) hint = "Balls are moving…";
  else if (snap.status !== "live") hint = "The match is over.";
  else if (snap.frame.pending) {
    hint = snap.frame.pending.holder === S.seat ? "Your decision." : "Waiting for a decision…";
  } else if (mine && snap.frame.in_hand && !S.aim.cueBall) {
    hint = "Ball in hand: click in the D to place the cue ball.";
  } else if (mine && snap.frame.in_hand) {
    hint = "Drag on the table to aim (drag the cue ball to move it in the D); ←/→ fine-tune.";
  } else if (mine) {
    hint = "Your shot: drag to aim, ←/→ to fine-tune (Shift: finer), then Strike.";
  } else hint = `${S.players[snap.scoreboard.to_act] || "Your opponent"} is at the table.`;
  el("aim-hint").textContent = hint;
  root.classList.toggle("my-turn", mine);
  root.classList.toggle("placing", mine && Boolean(snap && snap.frame.in_hand));
  refreshNomination();
  syncAimInputs();
  S.dirty = true;
}

power.addEventListener("input", () => {
  S.aim.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, Number(power.value)));
  aimChanged();
});
angleInput.addEventListener("change", () => {
  const deg = Number(angleInput.value);
  if (Number.isFinite(deg)) S.aim.angle = normaliseAngle((deg * Math.PI) / 180);
  aimChanged();
});
spin.addEventListener("pointerdown", (e) => {
  if (!canStrike()) return;
  const rect = spin.getBoundingClientRect();
  const r = rect.width / 2 - 4;
  const side = (e.clientX - rect.left - rect.width / 2) / r;
  const height = -(e.clientY - rect.top - rect.height / 2) / r;
  S.aim.setSpin(side, height);
  aimChanged();
});
el("spin-reset").addEventListener("click", () => {
  S.aim.setSpin(0, 0);
  aimChanged();
});
el("nominate").addEventListener("change", () => {
  el("nominate").dataset.touched = "1";
});
el("strike").addEventListener("click", strike);
el("concede-frame").addEventListener("click", () => settle("concede", "frame"));
el("concede-match").addEventListener("click", () => settle("concede", "match"));
el("claim-frame").addEventListener("click", () => settle("claim", "frame"));
el("claim-match").addEventListener("click", () => settle("claim", "match"));
el("decision-options").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-option]");
  if (button) choose(button.dataset.option);
});

// --- the table: pointer and keyboard -----------------------------------------------------------
function tablePoint(e) {
  const rect = canvas.getBoundingClientRect();
  return view.toTable([e.clientX - rect.left, e.clientY - rect.top]);
}

function inDArea(p) {
  // A little slack so that a click just outside the arc still shows the invalid marker.
  return p[1] <= -1084.5 + R && Math.hypot(p[0], p[1] + 1084.5) <= 292 + 2 * R;
}

function place(p) {
  const problem = placementProblem(p, S.shown.frame.balls);
  S.aim.hover = { point: p, problem };
  if (problem) {
    panels.notice(`The cue ball cannot go there: ${problem}.`);
    S.dirty = true;
    return false;
  }
  panels.notice("");
  const fresh = !S.aim.cueBall;
  S.aim.cueBall = p;
  if (fresh) aimAtNearestBallOn();
  refreshControls();
  aimChanged();
  return true;
}

canvas.addEventListener("pointerdown", (e) => {
  if (!ready()) return;
  const p = tablePoint(e);
  canvas.focus();
  const inHand = S.shown.frame.in_hand;
  const cue = cuePosition();
  if (inHand && !cue) {
    // Ball in hand: a click in the D places the cue ball.
    if (inDArea(p)) place(p);
    else panels.notice("Place the cue ball in the D first.");
    return;
  }
  if (!cue) return;
  if (inHand && Math.hypot(p[0] - cue[0], p[1] - cue[1]) < 2.5 * R) {
    // Grab the cue ball to move it about the D.
    S.dragging = "cue";
    canvas.setPointerCapture(e.pointerId);
    return;
  }
  S.dragging = "aim";
  canvas.setPointerCapture(e.pointerId);
  S.aim.angle = Math.atan2(p[1] - cue[1], p[0] - cue[0]);
  aimChanged();
});

canvas.addEventListener("pointermove", (e) => {
  if (!ready()) return;
  const p = tablePoint(e);
  const cue = cuePosition();
  if (S.dragging === "aim" && cue) {
    S.aim.angle = Math.atan2(p[1] - cue[1], p[0] - cue[0]);
    aimChanged();
    return;
  }
  if (S.dragging === "cue") {
    const problem = placementProblem(p, S.shown.frame.balls);
    if (!problem) {
      S.aim.cueBall = p;
      aimChanged();
    }
    S.aim.hover = { point: p, problem };
    S.dirty = true;
    return;
  }
  if (S.shown.frame.in_hand && !cue) {
    S.aim.hover = inDArea(p) ? { point: p, problem: placementProblem(p, S.shown.frame.balls) } : null;
    S.dirty = true;
  }
});

const endDrag = () => {
  S.dragging = false;
  if (S.aim.hover && S.aim.cueBall) {
    S.aim.hover = null;
    S.dirty = true;
  }
};
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);
canvas.addEventListener("pointerleave", () => {
  if (S.aim.hover && !S.dragging) {
    S.aim.hover = null;
    S.dirty = true;
  }
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !el("confirm-dialog").hidden) {
    panels.closeConfirm(false);
    return;
  }
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) && e.target !== power) return;
  if (!ready() || !cuePosition()) return;
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    if (e.target === power) return; // the slider uses its own arrows
    // ← turns the cue anticlockwise on the screen (which is anticlockwise on the table too).
    S.aim.rotate(e.key === "ArrowLeft" ? 1 : -1, e.shiftKey);
    aimChanged();
    e.preventDefault();
  }
});

// --- drawing -----------------------------------------------------------------------------------
function overlay() {
  const snap = S.shown;
  return {
    under(ctx) {
      if (snap && snap.frame.in_hand && !S.anim && snap.status === "live" && !snap.frame.pending) {
        drawD(ctx);
      }
    },
    over(ctx, v) {
      if (!snap || S.anim) return;
      if (ready()) {
        const cue = cuePosition();
        if (snap.frame.in_hand) drawPlacement(ctx, v, S.aim.hover);
        if (cue) drawAim(ctx, v, cue, S.aim, snap.frame.balls, { mine: true });
        return;
      }
      const remote = S.remoteAim;
      if (remote && remote.seat === snap.scoreboard.to_act && remote.seat !== S.seat) {
        const cue = snap.frame.in_hand ? remote.cue_ball : snap.frame.balls.white;
        if (cue) drawAim(ctx, v, cue, remote, snap.frame.balls, { mine: false });
      }
    },
  };
}

function drawnBalls() {
  const balls = { ...S.balls };
  const snap = S.shown;
  if (!S.anim && snap && snap.frame.in_hand) {
    delete balls.white;
    if (ready() && S.aim.cueBall) balls.white = S.aim.cueBall;
    else if (S.remoteAim && S.remoteAim.cue_ball && S.remoteAim.seat !== S.seat) {
      balls.white = S.remoteAim.cue_ball;
    }
  }
  // Draw the white last so it sits on top of a ball it might be placed against.
  const ordered = {};
  for (const id of Object.keys(balls).sort((a, b) => (a === "white") - (b === "white"))) {
    ordered[id] = balls[id];
  }
  return ordered;
}

function frame() {
  pump();
  if (view.resize()) S.dirty = true;
  if (S.dirty) {
    S.dirty = false;
    view.draw(drawnBalls(), overlay());
  }
  requestAnimationFrame(frame);
}

// Animation frames stop in hidden tabs; events must still be shown when the tab returns.
setInterval(() => {
  if (document.hidden) pump();
  panels.shotClock(S.shown, Boolean(S.anim || S.queue.length));
  refreshAway(); // the claim countdown
}, 250);
window.addEventListener("resize", () => {
  S.dirty = true;
});

// --- the test hook (read-only) ----------------------------------------------------------------
window.snookerState = () => {
  const snap = S.shown;
  const round = (p) => [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100];
  return JSON.parse(
    JSON.stringify({
      match: matchId,
      seat: S.seat,
      version: S.version,
      shownVersion: snap ? snap.version : null,
      connection: S.connection,
      reconnects: conn.reconnects,
      animating: Boolean(S.anim),
      queued: S.queue.length,
      pendingRequest: S.pending ? S.pending.message.type : null,
      status: snap ? snap.status : null,
      winner: snap ? snap.winner : null,
      results: snap ? snap.frames : [],
      scores: snap ? snap.scoreboard.scores : null,
      frames: snap ? snap.scoreboard.frames : null,
      to_act: snap ? snap.scoreboard.to_act : null,
      striker: snap ? snap.scoreboard.striker : null,
      on: snap ? snap.scoreboard.on : null,
      in_hand: snap ? snap.frame.in_hand : null,
      pending: snap && snap.frame.pending
        ? { holder: snap.frame.pending.holder, options: snap.frame.pending.options }
        : null,
      balls: snap ? Object.fromEntries(Object.entries(S.balls).map(([k, p]) => [k, round(p)])) : {},
      calls: S.calls,
      presented: S.presented,
      spectators: S.presence ? S.presence.spectators : null,
      ready: ready(),
      aim: { angle: S.aim.angle, speed: S.aim.speed, side: S.aim.side, height: S.aim.height,
        cue_ball: S.aim.cueBall, target: (() => {
          const cue = cuePosition();
          return cue && snap ? predict(cue, S.aim.angle, snap.frame.balls).target : null;
        })() },
      remoteAim: S.remoteAim,
      lastMotion: S.lastMotion,
    }),
  );
};
/** Page coordinates of a table point (for tests and tools), and the socket (to drop it). */
window.snookerGeometry = {
  toPage([x, y]) {
    const rect = canvas.getBoundingClientRect();
    const [sx, sy] = view.toScreen([x, y]);
    return [rect.left + sx, rect.top + sy];
  },
  scale: () => view.scale,
};
window.snookerSocket = () => conn.ws;

// --- go ------------------------------------------------------------------------------------------
view.resize();
syncAimInputs();
refreshControls();
conn.open();
requestAnimationFrame(frame);
