// The live match page: wires the connection to the client (protocol state), the playback of
// events, the story of each frame, the view, its table's scene and the player's input, with
// the page constants (constants.js) passed to each, and offers a read-only hook to the
// browser tests.

import { guideOf } from "./aids.js";
import { Aim, AimPainter } from "./aiming.js";
import { MatchClient } from "./client.js";
import { Connection } from "./connection.js";
import { CONSTANTS, GEOMETRY, GUIDE } from "./constants.js";
import { lead } from "./cueswing.js";
import { DecisionPanel, decisionMarks } from "./decision.js";
import { askHint, hintShown, hintText, refusalKey } from "./hint.js";
import { language, t, translatePage } from "./i18n.js";
import { ChatPanel } from "./chatpanel.js";
import { bindInput } from "./input.js";
import { LogPanel } from "./logpanel.js";
import { MatchEnd } from "./matchend.js";
import { Panels } from "./panels.js";
import { fitTable } from "./phonefit.js";
import { Playback } from "./playback.js";
import { Scene } from "./scene.js";
import { Settings } from "./settings.js";
import { SideTabsView } from "./sidetabs.js";
import { Sounds } from "./sound.js";
import { Story, refusalWords } from "./story.js";
import { TableView } from "./table.js";
import { MatchView } from "./view.js";

const root = document.getElementById("match");
const matchId = Number(root.dataset.match);
const params = new URLSearchParams(location.search);
// Playback rate of stroke animations (1 = real time; tests speed it up).
const PLAYBACK = Math.min(40, Math.max(0.25, Number(params.get("playback")) || 1));

translatePage(root);
const panels = new Panels(root);
const canvas = root.querySelector("#table");
const tableView = new TableView(canvas, CONSTANTS.table);
const aim = new Aim(CONSTANTS.stroke);
const playback = new Playback(PLAYBACK, lead(CONSTANTS.cue_swing));
const story = new Story();
const settings = new Settings(window.localStorage);
const sounds = new Sounds();

function uuid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

const client = new MatchClient({
  seat: root.dataset.seat || null,
  players: { A: panels.el("name-A").textContent, B: panels.el("name-B").textContent },
  send: (message) => conn.send(message),
  drop: () => conn.drop(),
  newId: uuid,
});

const conn = new Connection({
  matchId,
  crowd: !root.dataset.seat,
  protocol: CONSTANTS.protocol,
  closeCodes: CONSTANTS.close_codes,
  versionOf: () => client.version,
  onMessage: receive,
  onState: (state, detail) => {
    view.connection = state;
    panels.connection(state, detail);
    view.refresh();
    view.refreshAway();
  },
});

// On a phone held upright the log and the chat are two tabs (before the chat: it says from
// the start whether it is there).
const sideTabs = new SideTabsView({
  el: panels.el,
  sighted: (place) => {
    if (place === "chat") chat.renderLines();
  },
});
const chat = new ChatPanel({
  el: panels.el,
  send: (message) => conn.send(message),
  announce: (text) => panels.announce(text),
  seat: root.dataset.seat || null,
  kind: root.dataset.chat,
  chat: CONSTANTS.chat,
  me: root.dataset.me,
  mild: root.dataset.mild === "1",
  off: root.dataset.chatOff === "1",
  heard: () => sideTabs.heard(),
  shown: (there) => {
    sideTabs.chat = there;
  },
});

const decision = new DecisionPanel(panels.el, () => {
  view.dirty = true;
});
const logPanel = new LogPanel({
  el: panels.el,
  story,
  players: () => client.players,
  ask: (frame) => client.askLog(frame),
});
const painter = new AimPainter(GUIDE, CONSTANTS.stroke, { guide: guideOf(root.dataset.guide) });
const view = new MatchView({
  root, panels, decision, logPanel, story, painter, client, playback, aim, conn, settings, sounds,
  constants: CONSTANTS, geometry: GEOMETRY, rate: PLAYBACK,
  practice: root.dataset.practice === "true",
});
const scene = new Scene({ view, tableView, painter, settings, table: CONSTANTS.table });
const coarse = window.matchMedia("(pointer: coarse)");
view.touch = coarse.matches;
coarse.addEventListener("change", () => {
  view.touch = coarse.matches;
  view.refresh();
});
panels.el("skip").addEventListener("click", () => view.skip());
const matchEnd = new MatchEnd({ el: panels.el("match-end-panel"), url: root.dataset.end, matchId });
// A pinch or the wheel zooms the table (zoom.js); the zoom button goes back to its own view.
const zoomer = {
  set(z) {
    scene.manual = z;
    view.dirty = true;
  },
};
panels.el("zoom").addEventListener("click", () => zoomer.set(null));
const controls = bindInput({
  panels, view, client, conn, aim, canvas, tableView, settings, sounds, constants: CONSTANTS,
  geometry: GEOMETRY, zoomer,
});
if (settings.get("sound")) sounds.enable(true);

// The hint at a practice table (its member only: the template gives the URL to them alone),
// with its power and spin in words and "Play this", which takes it as the aim.
const hintButton = panels.el("pro-hint");
const playHint = panels.el("pro-hint-play");
playHint.addEventListener("click", () => {
  if (!hintShown(view.proHint, view.shown) || !controls.takeHint(view.proHint)) {
    playHint.hidden = true;
  }
});
if (root.dataset.hint) {
  hintButton.hidden = false;
  hintButton.addEventListener("click", async () => {
    hintButton.disabled = true;
    panels.notice(t("advice.thinking"));
    const answer = await askHint(root.dataset.hint, root.dataset.csrf);
    hintButton.disabled = false;
    if (answer.hint) {
      view.proHint = answer.hint;
      view.dirty = true;
      playHint.hidden = false;
      panels.notice(hintText(answer.hint), { ms: 8000 });
    } else {
      panels.notice(t(refusalKey(answer.code)), { ms: 6000, error: true });
    }
  });
}

function receive(msg) {
  if (["line", "lines", "deleted", "struck", "timed_out"].includes(msg.type)) {
    chat.receive(msg);
    return;
  }
  if (msg.type === "error" && msg.code.startsWith("chat_")) {
    chat.refused(msg.message, msg.code);
    return;
  }
  if (msg.type === "welcome") chat.welcomed();
  const { snapshot, first, error, log } = client.receive(msg);
  if (snapshot) view.reset(snapshot, first);
  if (log) view.loaded(log);
  if (error && error.code !== "rate_limited") {
    panels.notice(refusalWords(error), { ms: 6000, error: true });
  }
  if (msg.type === "presence") {
    if (view.shown) panels.scoreboard(view.shown, client.players, client.presence, view.connection);
    view.refresh();
    view.refreshAway();
  } else if (msg.type === "aim" || msg.type === "thinking") {
    view.relayed(msg);
  } else if (!log) {
    view.pump(performance.now());
    view.refresh();
  }
}

function frame() {
  view.pump(performance.now());
  chat.moving = Boolean(playback.anim); // another's lines wait for the balls to stop
  scene.draw();
  requestAnimationFrame(frame);
}

// Animation frames stop in hidden tabs; events must still be shown when the tab returns.
setInterval(() => {
  if (document.hidden) view.pump(performance.now());
  chat.moving = Boolean(playback.anim);
  panels.shotClock(view.shown, Boolean(playback.anim || client.queue.length), client.clock);
  view.refreshAway(); // the claim countdown
  logPanel.tick();
  const snap = view.shown;
  const over = Boolean(snap && snap.status === "finished" && !playback.anim);
  chat.over = over;
  // Notices (static/js/notices.js) send a player to an accepted challenge's table, but not
  // from the middle of a match of theirs.
  document.body.dataset.playing = String(Boolean(client.seat && snap && !over));
  if (over && !matchEnd.shown) matchEnd.show();
}, 250);
window.addEventListener("resize", () => {
  view.dirty = true;
});

// --- the test hook (read-only) ----------------------------------------------------------------
window.snookerState = () => {
  const snap = view.shown;
  const round = (p) => [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100];
  const shown = logPanel.shown;
  const held = story.frame(shown);
  return JSON.parse(
    JSON.stringify({
      match: matchId,
      seat: client.seat,
      version: client.version,
      shownVersion: snap ? snap.version : null,
      connection: view.connection,
      reconnects: conn.reconnects,
      animating: Boolean(playback.anim),
      holding: Boolean(view.hold),
      queued: client.queue.length,
      pendingRequest: client.pending ? client.pending.message.type : null,
      status: snap ? snap.status : null,
      winner: snap ? snap.winner : null,
      results: snap ? snap.frames : [],
      scores: snap ? snap.scoreboard.scores : null,
      frames: snap ? snap.scoreboard.frames : null,
      frameNumber: snap ? snap.scoreboard.frame_number : null,
      to_act: snap ? snap.scoreboard.to_act : null,
      striker: snap ? snap.scoreboard.striker : null,
      on: snap ? snap.scoreboard.on : null,
      ballsOn: snap ? snap.turn.balls_on : [],
      in_hand: snap ? snap.frame.in_hand : null,
      pending: snap && snap.frame.pending
        ? { holder: snap.frame.pending.holder, options: snap.frame.pending.options }
        : null,
      balls: snap
        ? Object.fromEntries(Object.entries(playback.balls).map(([k, p]) => [k, round(p)]))
        : {},
      drawn: snap
        ? Object.fromEntries(Object.entries(scene.balls()).map(([k, p]) => [k, round(p)]))
        : {},
      calls: view.calls,
      presented: view.presented,
      scoredEarly: view.scoredEarly,
      log: { frame: shown, versions: held ? held.entries.map((e) => e.version) : [] },
      spectators: client.presence ? client.presence.spectators : null,
      ready: view.ready(),
      aim: { angle: aim.angle, speed: aim.speed, side: aim.side, height: aim.height,
        cue_ball: aim.cueBall, target: view.target() },
      remoteAim: view.remoteAim,
      thinking: panels.el("thinking").hidden ? null : panels.el("thinking").textContent,
      lastMotion: view.lastMotion,
      clock: client.clock,
      shotClock: panels.el("shot-clock").hidden ? null : panels.el("shot-clock").textContent.trim(),
      endLoads: matchEnd.loads,
      language: language(),
      title: document.title,
      sounds: sounds.played,
      marks: snap ? decisionMarks(snap, decision.focus) : null,
      hint: view.proHint,
      chat: { held: chat.hold.held.length, tab: sideTabs.state.tabbed ? sideTabs.state.tab : null,
        unread: sideTabs.state.unread },
      guide: { kind: root.dataset.guide, drawn: painter.last },
      zoom: tableView.zoom,
      swing: scene.swung,
      upright: tableView.upright,
    }),
  );
};
/** Page coordinates of a table point (for tests and tools), and the socket (to drop it). */
window.snookerGeometry = {
  toPage([x, y]) {
    const rect = canvas.getBoundingClientRect();
    const [sx, sy] = tableView.toScreen([x, y]);
    return [rect.left + sx, rect.top + sy];
  },
  scale: () => tableView.scale,
};
window.snookerSocket = () => conn.ws;

// --- go ------------------------------------------------------------------------------------------
document.title = t("title.match", { a: client.players.A, b: client.players.B });
fitTable({ root, player: Boolean(root.dataset.seat) });
tableView.resize();
view.refresh();
conn.open();
requestAnimationFrame(frame);
