// The match view's rights (view.js: who may strike, act, aim now) and its table's scene
// (scene.js: the balls drawn and what is drawn over and under them), on their collaborators
// given by hand.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Aim } from "../aiming.js";
import { Geometry } from "../geometry.js";
import { Guide } from "../guide.js";
import { t } from "../i18n.js";
import { Scene } from "../scene.js";
import { MatchView } from "../view.js";
import { CONSTANTS } from "./fixture.js";
import { fakePage } from "./fakes.js";

const TABLE = CONSTANTS.table;
const geometry = new Geometry(TABLE);
const guide = new Guide(TABLE, CONSTANTS.physics);

function position({ inHand = false, toAct = "A", pending = null, status = "live" } = {}) {
  const balls = { red1: [0, 800], black: TABLE.spots.black };
  if (!inHand) balls.white = [0, -900];
  return {
    version: 4,
    status,
    frame: { in_hand: inHand, balls, pending, frame_over: false },
    turn: { balls_on: ["red1"], nominate: [] },
    scoreboard: { to_act: toAct, striker: toAct, frame_number: 1 },
  };
}

/** A view of `snap` for seat `seat`, nothing moving and the socket greeted. */
function matchView(snap, { seat = "A", page = null } = {}) {
  const aim = new Aim(CONSTANTS.stroke);
  const playback = { shown: snap, anim: null, balls: { ...snap.frame.balls } };
  const players = { A: "ann", B: "bob" };
  const client = { seat, queue: [], pending: null, presence: null, players };
  const view = new MatchView({
    root: page ? page.root : {}, panels: { el: page ? page.el : () => null },
    decision: { focus: null }, logPanel: {}, story: {}, painter: { drawSpin: () => {}, guide }, client, playback, aim, conn: { ready: true }, settings: { get: () => false },
    sounds: {}, constants: CONSTANTS, geometry, rate: 1, practice: false,
    doc: page ? page.doc : undefined,
  });
  return { view, aim, playback, client };
}

test("the view keeps each collaborator it is given, and the frame's hold from the server", () => {
  const { view, client, aim } = matchView(position());
  assert.equal(view.client, client);
  assert.equal(view.aim, aim);
  assert.equal(view.geometry, geometry);
  assert.equal(view.holdMs, CONSTANTS.frame_hold * 1000);
});

test("only the seat to act strikes, in a live frame with no decision pending", () => {
  assert.equal(matchView(position()).view.canStrike(), true);
  assert.equal(matchView(position(), { seat: "B" }).view.canStrike(), false);
  assert.equal(matchView(position(), { seat: null }).view.canStrike(), false);
  assert.equal(matchView(position({ pending: { holder: "A" } })).view.canStrike(), false);
  assert.equal(matchView(position({ status: "finished" })).view.canStrike(), false);
});

test("ready: nothing moving, queued, unanswered or held, and the socket greeted", () => {
  const { view, playback, client } = matchView(position());
  assert.equal(view.ready(), true);
  playback.anim = {};
  assert.equal(view.ready(), false);
  playback.anim = null;
  client.pending = { message: {} };
  assert.equal(view.ready(), false);
  client.pending = null;
  view.hold = { until: 1, balls: {} };
  assert.equal(view.ready(), false);
  view.hold = null;
  view.conn = { ready: false };
  assert.equal(view.ready(), false);
  assert.equal(view.canAct(), false);
  view.conn = { ready: true };
  assert.equal(view.canAct(), true);
  client.presence = { abandoned: true };
  assert.equal(view.canAct(), false); // never started: nothing to claim or concede
});

test("the cue points at a ball on it can reach; from hand, only once placed", () => {
  const { view, aim } = matchView(position());
  aim.angle = 0;
  view.aimAtBallOn();
  assert.ok(Math.abs(aim.angle - Math.PI / 2) < 1e-9);
  assert.equal(view.target(), "red1");
  const hand = matchView(position({ inHand: true }));
  assert.equal(hand.view.cuePosition(), null);
  assert.equal(hand.view.target(), null);
  hand.aim.cueBall = [0, TABLE.baulk_y - 100];
  assert.deepEqual(hand.view.cuePosition(), [0, TABLE.baulk_y - 100]);
});

test("the hint says what is asked of this player now, by mouse and keys or by touch", () => {
  const { view, client, aim, playback } = matchView(position({ inHand: true }));
  const snap = position({ inHand: true });
  assert.equal(view.controls.hint(null, false), t("hint.connecting"));
  assert.equal(view.controls.hint(snap, true), t("hint.place"));
  view.touch = true;
  assert.equal(view.controls.hint(snap, true), t("hint.place_touch"));
  aim.cueBall = [0, TABLE.baulk_y - 100];
  assert.equal(view.controls.hint(snap, true), t("hint.aim_hand_touch"));
  view.touch = false;
  assert.equal(view.controls.hint(position(), true), t("hint.aim"));
  playback.anim = {};
  assert.equal(view.controls.hint(snap, true), t("hint.moving"));
  client.pending = { message: {} };
  assert.equal(view.controls.hint(snap, true), t("hint.waiting"));
  client.pending = null;
  playback.anim = null;
  const hint = (snap) => view.controls.hint(snap, false);
  assert.equal(hint(position({ pending: { holder: "A" } })), t("hint.your_decision"));
  assert.equal(hint(position({ pending: { holder: "B" } })), t("hint.deciding"));
  assert.equal(view.controls.hint(position({ status: "finished" }), false), t("hint.over"));
  const theirs = position({ toAct: "B" });
  assert.equal(view.controls.hint(theirs, false), t("hint.theirs", { name: "bob" }));
  client.presence = { players: { B: { arrived: true, online: false } } };
  assert.equal(view.controls.hint(theirs, false), t("hint.away", { name: "bob" }));
});

test("the controls: the striker's enabled; strike waits for the cue ball placed", () => {
  const page = fakePage();
  const { view, aim } = matchView(position({ inHand: true }), { page });
  view.refresh();
  const { el } = page;
  assert.equal(el("controls").hidden, false);
  assert.equal(el("stroke-controls").hidden, false);
  assert.equal(el("power").disabled, false);
  assert.equal(el("strike").disabled, true);
  assert.equal(el("place-cue").hidden, false);
  assert.ok(page.root.classList.contains("placing"));
  aim.cueBall = [0, TABLE.baulk_y - 100];
  aim.speed = 4.5;
  view.refresh();
  assert.equal(el("strike").disabled, false);
  assert.equal(el("place-cue").hidden, true);
  assert.equal(el("power").value, "4.5");
  // Beside the figure, the power in a player's terms (power.js).
  assert.equal(el("power-scale").textContent, "firm · rolls 15 table lengths");
  assert.equal(el("power").attributes["aria-valuetext"],
    "4.5 m/s, firm · rolls 15 table lengths");

  const other = fakePage();
  const theirs = matchView(position({ inHand: true }), { seat: "B", page: other });
  theirs.view.refresh();
  assert.equal(other.el("stroke-controls").hidden, true);
  assert.equal(other.el("power").disabled, true);
  assert.equal(other.el("aim-hint").textContent, t("hint.theirs", { name: "ann" }));
  assert.ok(!other.root.classList.contains("my-turn"));
});

/** A scene over `view`, its painter and canvas recording what they were asked to draw. */
function scene(view) {
  const drawn = [];
  const painter = new Proxy({}, { get: (_, name) => (...args) => drawn.push([name, args]) });
  const frames = [];
  const tableView = {
    focus: null,
    zoom: 1,
    view(zoom, focus) {
      const changed = zoom !== this.zoom || String(focus) !== String(this.focus);
      this.zoom = zoom;
      this.focus = focus;
      return changed;
    },
    resize: () => false,
    draw(balls, overlay) {
      frames.push(balls);
      overlay.under("ctx", this);
      overlay.over("ctx", this);
    },
  };
  const settings = { zoom: false, get(k) { return this[k]; } };
  const made = new Scene({ view, tableView, painter, settings, table: TABLE });
  return { scene: made, drawn, frames, tableView, settings };
}

test("the scene draws only when the view asks, zoomed on the D from hand", () => {
  const { view } = matchView(position({ inHand: true }));
  const { scene: s, frames, tableView, settings } = scene(view);
  s.draw();
  assert.equal(frames.length, 1);
  s.draw();
  assert.equal(frames.length, 1); // nothing changed
  settings.zoom = true;
  s.draw();
  assert.equal(frames.length, 2);
  assert.deepEqual(tableView.focus, TABLE.d_centre);
});

test("from hand the white is where this player put it, else where the striker's aim says", () => {
  const { view, aim } = matchView(position({ inHand: true }));
  const { scene: s } = scene(view);
  assert.equal("white" in s.balls(), false);
  aim.cueBall = [10, TABLE.baulk_y - 100];
  assert.deepEqual(Object.keys(s.balls()), ["red1", "black", "white"]); // the white on top
  assert.deepEqual(s.balls().white, aim.cueBall);
  const onTable = matchView(position());
  onTable.playback.balls = { white: [0, -900], red1: [0, 800] };
  assert.deepEqual(Object.keys(scene(onTable.view).scene.balls()), ["red1", "white"]);
  const watcher = matchView(position({ inHand: true }), { seat: "B" });
  watcher.view.heldAim = { seat: "A", cue_ball: [-5, TABLE.baulk_y - 50], version: 4 };
  assert.deepEqual(scene(watcher.view).scene.balls().white, [-5, TABLE.baulk_y - 50]);
  watcher.view.hold = { balls: { pink: [1, 2] } };
  assert.deepEqual(scene(watcher.view).scene.balls(), { pink: [1, 2] });
});

test("over the balls: our aim when ready, the striker's for others, nothing while moving", () => {
  const mine = matchView(position());
  const a = scene(mine.view);
  a.scene.draw();
  assert.deepEqual(a.drawn.map(([name]) => name), ["drawAim"]);
  assert.equal(a.drawn[0][1][3], mine.aim);
  // With what the server says is on, for the ghost ball's foul (aids.js).
  assert.deepEqual(a.drawn[0][1][5].rules.ballsOn, ["red1"]);

  const theirs = matchView(position(), { seat: "B" });
  theirs.view.heldAim = { seat: "A", angle: 1, speed: 2, side: 0, height: 0, version: 4 };
  const b = scene(theirs.view);
  b.scene.draw();
  assert.deepEqual(b.drawn.map(([name]) => name), ["drawAim"]);
  assert.equal(b.drawn[0][1][3], theirs.view.remoteAim);

  theirs.playback.anim = {};
  const c = scene(theirs.view);
  c.scene.draw();
  assert.deepEqual(c.drawn, []);

  const hand = matchView(position({ inHand: true }));
  const d = scene(hand.view);
  d.scene.draw();
  assert.deepEqual(d.drawn.map(([name]) => name), ["drawD", "drawPlacement"]);
});

test("a stall: the claim to the player at the table in the last minute, a warning to the staller", () => {
  const soon = (s) => new Date(Date.now() + s * 1000).toISOString();
  const said = (seat, claimFrom) => {
    const { view, client } = matchView(position({ toAct: "B" }), { seat });
    const shown = [];
    view.panels = { away: (text, claim) => shown.push([text, claim]) };
    view.el = () => ({ disabled: false });
    view.connection = "open";
    // The server's word (game/presence.py): when A may claim against B, both here.
    const here = { arrived: true, online: true, claim_from: null };
    client.presence = { started: soon(-400), players: { A: here, B: { ...here, claim_from: claimFrom } } };
    view.refreshAway();
    return shown.at(-1);
  };
  assert.deepEqual(said("A", soon(200)), [null, false]); // thinking time: nothing said
  const [text, claim] = said("A", soon(30));
  assert.ok(text.startsWith(t("away.stalling", { name: "bob" })) && text.includes(" — "));
  assert.equal(claim, false);
  assert.deepEqual(said("A", soon(-1)), [t("away.stalling", { name: "bob" }), true]);
  // The staller is warned, and offered nothing to claim.
  const [warning, offered] = said("B", soon(30));
  assert.ok(warning.startsWith(t("away.stall_warning", { time: "" }).split(" ")[0]));
  assert.equal(offered, false);
  assert.deepEqual(said(null, soon(-1)), [null, false]); // a spectator: nothing
});

test("an aim relayed during the playback is drawn once the stroke's position is still", () => {
  const page = fakePage();
  const { view, playback, client } = matchView(position({ toAct: "B" }), { seat: "A", page });
  playback.anim = {}; // the stroke that makes version 5 still rolls here
  client.version = 5;
  view.relayed({ type: "thinking", seat: "B", version: 5 });
  view.relayed({ type: "aim", seat: "B", angle: 1, speed: 2, side: 0, height: 0, cue_ball: null });
  assert.equal(view.heldAim.version, 5); // no version sent: the last event received
  assert.equal(view.remoteAim, null);
  playback.anim = null;
  playback.shown = { ...position({ toAct: "B" }), version: 5 };
  assert.equal(view.remoteAim.angle, 1);
  const drawn = scene(view);
  drawn.scene.draw();
  assert.deepEqual(drawn.drawn.map(([name]) => name), ["drawAim"]);
});

test("the stroke's cue swings back and through the cue ball's place, then goes", () => {
  const { view, playback } = matchView(position(), { seat: "B" });
  const swing = CONSTANTS.cue_swing;
  const request = { angle: 0.61, speed: 4, side: 0, height: 0 };
  playback.anim = { t: 0, before: { white: [0, -900] }, event: { request } };
  const address = view.swingingCue();
  assert.deepEqual(address.cue, [0, -900]);
  assert.equal(address.angle, 0.61);
  playback.anim.t = swing.back;
  assert.ok(view.swingingCue().pull > address.pull, "drawn back");
  playback.anim.t = swing.back + swing.through + swing.follow / 2;
  assert.ok(view.swingingCue().pull < 0, "through the ball's place");
  playback.anim.t = swing.back + swing.through + swing.follow;
  assert.equal(view.swingingCue(), null);
  // A stroke whose request has no aim (a shot clock's) draws no cue.
  playback.anim = { t: 0, before: { white: [0, -900] }, event: { request: {} } };
  assert.equal(view.swingingCue(), null);
});
