// The player's controls (input.js, controls.js), each binder on fake elements with the
// server's figures: the aim sent at most ten times a second and once more at the end, the power within the
// stroke's limits, the turn buttons, the fine strip, the spin, the keys on the table, the cue
// ball placed and dragged from hand, the requests the buttons make, the dialog's focus.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Aim } from "../aiming.js";
import { Geometry } from "../geometry.js";
import { t } from "../i18n.js";
import { refusalText } from "../story.js";
import { AimSender, Controls } from "../controls.js";
import {
  bindAngle, bindButtons, bindFocus, bindInput, bindKeys, bindPointer, bindPower, bindSettings,
  bindSpin, bindVernier,
} from "../input.js";
import { PULL_PX } from "../powerdrag.js";
import { vernierTurn } from "../vernier.js";
import { CONSTANTS } from "./fixture.js";
import { FakeClock, FakeElement, fakePage } from "./fakes.js";

const TABLE = CONSTANTS.table;
const STROKE = CONSTANTS.stroke;
const geometry = new Geometry(TABLE);
const DEG = Math.PI / 180;
const [DX, DY] = TABLE.d_centre;

/** A position: the striker "A" to play, the cue ball on the table or in hand. */
function position({ inHand = false } = {}) {
  const balls = { red1: [0, 800], black: TABLE.spots.black };
  if (!inHand) balls.white = [0, -900];
  return {
    version: 7,
    status: "live",
    frame: { in_hand: inHand, balls },
    turn: { balls_on: ["red1"] },
    scoreboard: { frame_number: 2 },
  };
}

/** A view that is ready for our stroke unless told otherwise, counting what it is asked. */
function fakeView(aim, snap) {
  return {
    shown: snap,
    isReady: true,
    mayAct: true,
    moved: 0,
    refreshed: 0,
    dirty: false,
    lastFocus: null,
    ready() {
      return this.isReady;
    },
    canStrike() {
      return this.isReady;
    },
    canAct() {
      return this.mayAct;
    },
    cuePosition() {
      return this.shown.frame.in_hand ? aim.cueBall : this.shown.frame.balls.white;
    },
    aimMoved() {
      this.moved += 1;
    },
    refresh() {
      this.refreshed += 1;
    },
    nominated: () => null,
    aimAtBallOn() {
      aim.angle = Math.PI / 2;
    },
    endHold() {
      this.held = false;
    },
  };
}

/** Everything a binder needs, on fake elements; `sent` and `requests` hold what went out. */
function controls({ inHand = false, answer = true } = {}) {
  const page = fakePage();
  const aim = new Aim(STROKE);
  const view = fakeView(aim, position({ inHand }));
  const notices = [];
  const panels = {
    el: page.el,
    root: page.root,
    notice: (text) => notices.push(text),
    confirm: async () => answer,
    closeConfirm: (a) => notices.push(`closed ${a}`),
  };
  const requests = [];
  const client = {
    version: 7, pending: null, seat: "A", players: { A: "ann", B: "bob" },
    request: (m) => requests.push(m),
  };
  const clock = new FakeClock();
  const sent = [];
  const conn = { send: (m) => sent.push(m) };
  const sender = new AimSender({ view, conn, aim, clock });
  const c = new Controls({
    panels, view, client, aim, geometry, stroke: STROKE, changed: () => sender.changed(),
  });
  return { c, page, aim, view, notices, requests, sent, clock, el: page.el };
}

test("the aim goes out at once, then at most every 120 ms, and once more at the end", () => {
  const { c, aim, sent, clock, view } = controls();
  aim.angle = 0.1;
  c.changed();
  assert.equal(sent.length, 1);
  assert.equal(view.moved, 1);
  for (let i = 0; i < 5; i++) {
    clock.advance(20);
    aim.angle += 0.01;
    c.changed();
  }
  assert.equal(sent.length, 1); // 100 ms: held back
  clock.advance(20);
  assert.equal(sent.length, 2);
  assert.equal(sent[1].angle, aim.angle);
  clock.advance(379);
  assert.equal(sent.length, 2);
  clock.advance(1); // 400 ms after the last change: the final aim again
  assert.equal(sent.length, 3);
  assert.deepEqual(sent[2], { type: "aim", ...aim.message(false) });
  view.isReady = false;
  c.changed();
  clock.advance(1000);
  assert.equal(sent.length, 3); // not ours to play: the view follows, nothing is sent
  assert.equal(view.moved, 7);
});

test("from hand, no aim goes out until the cue ball is placed", () => {
  const { c, aim, sent, clock } = controls({ inHand: true });
  c.changed();
  clock.advance(1000);
  assert.deepEqual(sent, []);
  aim.cueBall = [DX, DY - 50];
  c.changed();
  assert.deepEqual(sent[0].cue_ball, [DX, DY - 50]);
});

test("the power steps by 0.1 m/s within the stroke's limits", () => {
  const { c, aim, el } = controls();
  bindPower(c);
  el("power-up").click();
  assert.equal(aim.speed, 3.1);
  el("power").value = String(STROKE.max_speed + 3);
  el("power").fire("input");
  assert.equal(aim.speed, STROKE.max_speed);
  el("power-up").click();
  assert.equal(aim.speed, STROKE.max_speed);
  el("power").value = "0";
  el("power").fire("input");
  assert.equal(aim.speed, STROKE.min_speed);
  el("power-down").click();
  assert.equal(aim.speed, STROKE.min_speed);
});

test("the angle field sets the cue in degrees; the turn buttons turn it when ready", () => {
  const { c, aim, el, view } = controls();
  const left = new FakeElement("aim-left-coarse");
  left.dataset.turn = "1";
  el("controls").children = [left];
  bindAngle(c);
  el("aim-angle").value = "-90";
  el("aim-angle").fire("change");
  assert.ok(Math.abs(aim.angle + Math.PI / 2) < 1e-12);
  left.click();
  assert.ok(Math.abs(aim.angle + 89 * DEG) < 1e-12);
  view.isReady = false;
  left.click();
  assert.ok(Math.abs(aim.angle + 89 * DEG) < 1e-12);
});

test("the fine strip turns the cue by its vernier, by finger or arrow key", () => {
  const { c, aim, el, view } = controls();
  bindVernier(c);
  const fine = el("aim-fine");
  const start = aim.angle;
  fine.fire("pointerdown", { clientX: 100, pointerId: 3 });
  assert.deepEqual(fine.captured, [3]);
  fine.fire("pointermove", { clientX: 130 });
  assert.ok(Math.abs(aim.angle - start - vernierTurn(30) * DEG) < 1e-12);
  assert.equal(fine.style.backgroundPositionX, "30px");
  fine.fire("pointerup");
  fine.fire("pointermove", { clientX: 200 }); // released: nothing
  const key = fine.fire("keydown", { key: "ArrowRight" });
  assert.ok(key.prevented && key.stopped); // not the table's own arrow keys
  assert.ok(Math.abs(aim.angle - start - vernierTurn(31) * DEG) < 1e-12);
  view.isReady = false;
  fine.fire("keydown", { key: "ArrowLeft" });
  assert.ok(Math.abs(aim.angle - start - vernierTurn(31) * DEG) < 1e-12);
});

test("the spin: a tap puts the tip there, arrows move it, Home centres it", () => {
  const { c, aim, el } = controls();
  bindSpin(c);
  const spin = el("spin");
  spin.rect = { left: 0, top: 0, width: 88, height: 88 };
  spin.fire("pointerdown", { clientX: 44 + 8, clientY: 44 - 16 }); // r = 40
  assert.deepEqual([aim.side, aim.height], [0.2, 0.4]);
  spin.fire("keydown", { key: "ArrowDown" });
  assert.deepEqual([aim.side, aim.height], [0.2, 0.35]);
  const other = spin.fire("keydown", { key: "a" });
  assert.ok(!other.prevented);
  spin.fire("keydown", { key: "Home" });
  assert.deepEqual([aim.side, aim.height], [0, 0]);
  spin.fire("pointerdown", { clientX: 88, clientY: 44 }); // the edge: held at the limit
  assert.ok(Math.hypot(aim.side, aim.height) <= STROKE.miscue_limit);
  el("spin-reset").click();
  assert.deepEqual([aim.side, aim.height], [0, 0]);
});

test("keys on the table turn the cue, finer with Shift, and Enter strikes once", () => {
  const { c, aim, el, requests, page, notices } = controls();
  const canvas = new FakeElement("table", "CANVAS");
  bindKeys(c, canvas, { screenOffset: (r, d) => [d, r] }, page.doc);
  const key = (props) => page.doc.fire("keydown", { target: canvas, ...props });
  const start = aim.angle;
  assert.ok(key({ key: "ArrowLeft" }).prevented);
  assert.ok(Math.abs(aim.angle - start - 0.5 * DEG) < 1e-12);
  key({ key: "ArrowRight", shiftKey: true });
  assert.ok(Math.abs(aim.angle - start - 0.45 * DEG) < 1e-12);
  page.doc.fire("keydown", { key: "ArrowLeft", target: new FakeElement("x", "INPUT") });
  assert.ok(Math.abs(aim.angle - start - 0.45 * DEG) < 1e-12); // a field's own keys
  key({ key: "Enter", repeat: true });
  assert.deepEqual(requests, []);
  key({ key: "Enter" });
  const stroke = { type: "stroke", version: 7, ...aim.message(false), nominated: null };
  assert.deepEqual(requests, [stroke]);
  el("confirm-dialog").hidden = false;
  page.doc.fire("keydown", { key: "Escape" });
  assert.deepEqual(notices, ["closed false"]); // the dialog closes, answering no
});

test("Page Up and Down turn the cue 5°; ↑ and ↓ on the table press the power's + and −", () => {
  const { c, aim, el, page } = controls();
  const canvas = new FakeElement("table", "CANVAS");
  bindKeys(c, canvas, { screenOffset: (r, d) => [d, r] }, page.doc);
  const key = (props) => page.doc.fire("keydown", { target: canvas, ...props });
  const start = aim.angle;
  assert.ok(key({ key: "PageUp" }).prevented);
  assert.ok(Math.abs(aim.angle - start - 5 * DEG) < 1e-12);
  key({ key: "PageDown" });
  key({ key: "PageDown" });
  assert.ok(Math.abs(aim.angle - start + 5 * DEG) < 1e-12);
  const pressed = [];
  el("power-up").addEventListener("click", () => pressed.push("+"));
  el("power-down").addEventListener("click", () => pressed.push("−"));
  assert.ok(key({ key: "ArrowUp" }).prevented);
  key({ key: "ArrowDown" });
  assert.deepEqual(pressed, ["+", "−"]);
});

test("from hand: Enter places the cue ball, Alt+arrows move it within the D", () => {
  const { c, aim, el, page, notices } = controls({ inHand: true });
  const canvas = new FakeElement("table", "CANVAS");
  bindButtons(c, canvas);
  bindKeys(c, canvas, { screenOffset: (r, d) => [d, r] }, page.doc);
  const key = (props) => page.doc.fire("keydown", { target: canvas, ...props });
  key({ key: "Enter" });
  const spot = geometry.placeFor(["red1"], c.view.shown.frame.balls);
  assert.deepEqual(aim.cueBall, spot);
  assert.equal(canvas.focused, 1);
  key({ key: "ArrowUp", altKey: true }); // screen up: table −x lying across
  assert.deepEqual(aim.cueBall, [spot[0] - 5, spot[1]]);
  aim.cueBall = [DX, TABLE.baulk_y - 2];
  key({ key: "ArrowRight", altKey: true }); // screen right: table +y, past the baulk line
  assert.deepEqual(aim.cueBall, [DX, TABLE.baulk_y - 2]);
  const why = refusalText({ code: "cue_ball_outside_d" });
  assert.equal(notices[notices.length - 1], t("place.refused", { why }));
  assert.equal(el("place-cue").listeners.click.length, 1);
});

test("the table by pointer: aim at the point; from hand, place in the D and drag", () => {
  const { c, aim, view, notices } = controls({ inHand: true });
  const canvas = new FakeElement("table", "CANVAS");
  bindPointer(c, canvas, { toTable: (p) => p });
  const press = (type, [x, y]) => canvas.fire(type, { clientX: x, clientY: y, pointerId: 1 });
  press("pointermove", [DX, DY - 40]);
  assert.deepEqual(aim.hover, { point: [DX, DY - 40], refusal: null });
  press("pointerdown", [DX + 500, DY + 500]); // far from the D
  assert.equal(aim.cueBall, null);
  assert.deepEqual(notices, [t("place.first")]);
  press("pointerdown", [DX, DY - 40]);
  assert.deepEqual(aim.cueBall, [DX, DY - 40]);
  press("pointerup", [DX, DY - 40]);
  // A press on the cue ball picks it up; a drag moves it while it may go there.
  press("pointerdown", [DX + 10, DY - 40]);
  press("pointermove", [DX + 60, DY - 60]);
  assert.deepEqual(aim.cueBall, [DX + 60, DY - 60]);
  press("pointermove", [DX + 60, TABLE.baulk_y + 100]);
  assert.deepEqual(aim.cueBall, [DX + 60, DY - 60]);
  assert.equal(aim.hover.refusal.code, "cue_ball_outside_d");
  press("pointerup", [DX + 60, TABLE.baulk_y + 100]);
  assert.equal(aim.hover, null);
  // Away from the cue ball, a press aims.
  press("pointerdown", [DX + 60, DY + 1000]);
  assert.ok(Math.abs(aim.angle - Math.PI / 2) < 1e-12);
  press("pointermove", [DX + 1060, DY - 60]);
  assert.ok(Math.abs(aim.angle) < 1e-12);
  view.isReady = false;
  press("pointermove", [DX + 60, DY + 1000]);
  assert.ok(Math.abs(aim.angle) < 1e-12);
});

test("the buttons: strike, a decision's option, concessions asked first", async () => {
  const { c, el, requests, view, notices } = controls();
  bindButtons(c, new FakeElement("table", "CANVAS"));
  el("strike").click();
  assert.equal(requests[0].type, "stroke");
  const option = new FakeElement("option", "BUTTON");
  option.dataset.option = "replay";
  el("decision-options").fire("click", { target: option });
  assert.deepEqual(requests[1], { type: "choose", version: 7, option: "replay" });
  assert.equal(el("decision-panel").hidden, true);
  el("concede-frame").click();
  await Promise.resolve();
  assert.deepEqual(requests[2], { type: "concede", scope: "frame" });
  // The frame changed while the dialog was open: nothing is sent.
  c.panels.confirm = async () => {
    view.shown = { ...view.shown, scoreboard: { frame_number: 3 } };
    return true;
  };
  el("claim-match").click();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(requests.length, 3);
  assert.deepEqual(notices, [t("notice.changed")]);
  el("nominate").fire("change");
  assert.equal(el("nominate").dataset.touched, "1");
});

test("the settings are remembered; the zoom's button says whether it is pressed", () => {
  const { el, view, page } = controls();
  const stored = { sound: false, keepStroke: true, zoom: false };
  const settings = { get: (k) => stored[k], set: (k, v) => (stored[k] = v) };
  const enabled = [];
  bindSettings({ el, settings, sounds: { enable: (on) => enabled.push(on) }, view, doc: page.doc });
  assert.equal(el("keep-stroke").checked, true);
  el("zoom").click();
  assert.equal(stored.zoom, true);
  assert.equal(el("zoom").attributes["aria-pressed"], "true");
  el("table-sound").checked = true;
  el("table-sound").fire("change");
  assert.deepEqual(enabled, [true]);
  assert.equal(el("sound-toggle").attributes["aria-pressed"], "true");
  // The turn bar's speaker: off in one tap, and the settings' box follows.
  el("sound-toggle").click();
  assert.deepEqual(enabled, [true, false]);
  assert.equal(stored.sound, false);
  assert.equal(el("table-sound").checked, false);
  assert.equal(el("sound-toggle").attributes["aria-pressed"], "false");
});

test("the confirm dialog keeps the focus on its buttons; the last focus is remembered", () => {
  const { c, el, page, view } = controls();
  bindFocus(c, page.doc);
  page.doc.activeElement = el("confirm-yes");
  const tab = el("confirm-dialog").fire("keydown", { key: "Tab" });
  assert.ok(tab.prevented);
  assert.equal(el("confirm-no").focused, 1);
  page.doc.activeElement = el("confirm-no");
  el("confirm-dialog").fire("keydown", { key: "Tab", shiftKey: true });
  assert.equal(el("confirm-yes").focused, 1);
  const strike = el("strike");
  page.root.fire("focusin", { target: strike });
  assert.equal(view.lastFocus, strike);
});

test("every control the binders ask for is on the match page, and each is listened to", () => {
  const template = readFileSync(new URL("../../../templates/match.html", import.meta.url), "utf8");
  const onPage = new Set([...template.matchAll(/data-testid="([\w-]+)"/g)].map((m) => m[1]));
  const asked = new Set();
  const page = fakePage();
  const el = (id) => {
    asked.add(id);
    return page.el(id);
  };
  const { c, aim } = controls();
  const settings = { get: () => false, set: () => {} };
  bindInput({
    panels: { ...c.panels, el }, view: c.view, client: c.client, conn: { send: () => true }, aim,
    canvas: new FakeElement("table", "CANVAS"), tableView: {}, settings, sounds: {},
    constants: CONSTANTS, geometry, clock: new FakeClock(), doc: page.doc,
  });
  assert.deepEqual([...asked].filter((id) => !onPage.has(id)), []);
  const deaf = [...asked].filter((id) => !Object.keys(page.el(id).listeners).length);
  assert.deepEqual(deaf, ["controls"]); // the box of the turn buttons, which are listened to
  assert.ok(asked.size > 15, [...asked].join(" "));
});

test("conceding the frame that gives the other the match says the match ends, not a next frame", async () => {
  const { c, view } = controls();
  const asked = [];
  c.panels.confirm = async (ask) => {
    asked.push(ask.text);
    return false;
  };
  view.shown = { ...view.shown, frames_to_win: 2, scoreboard: { frame_number: 2, frames: { A: 0, B: 0 } } };
  await c.settle("concede", "frame");
  view.shown = { ...view.shown, scoreboard: { frame_number: 2, frames: { A: 0, B: 1 } } };
  await c.settle("concede", "frame");
  assert.deepEqual(asked, [
    t("confirm.concede_frame.text", { n: 2, name: "bob" }),
    t("confirm.concede_frame.text_last", { n: 2, name: "bob" }),
  ]);
  assert.match(asked[1], /and with it the match/);
});

test("a hint taken becomes the aim (direction, power, spin, and from hand the cue ball's place)", () => {
  const { c, aim, view } = controls({ inHand: true });
  const spot = geometry.placeFor(["red1"], view.shown.frame.balls);
  const hint = { aim: { angle: 1.25, speed: 3.5, side: 0.1, height: -0.2, cue_ball: spot } };
  assert.equal(c.takeHint(hint), true);
  assert.deepEqual([aim.angle, aim.speed, aim.side, aim.height, aim.cueBall], [1.25, 3.5, 0.1, -0.2, spot]);
  assert.equal(view.refreshed, 1);
  // A place the referee refuses, or a table not ready, takes nothing.
  assert.equal(c.takeHint({ aim: { ...hint.aim, angle: 2, cue_ball: TABLE.spots.black } }), false);
  view.isReady = false;
  assert.equal(c.takeHint(hint), false);
  assert.equal(aim.angle, 1.25);
});

test("a finger on the cue drawn pulls it back for power; a mouse there aims", () => {
  const { c, aim } = controls();
  const canvas = new FakeElement("table", "CANVAS");
  bindPointer(c, canvas, { toTable: (p) => p, scale: 1 });
  const press = (type, [x, y], pointerType = "touch") =>
    canvas.fire(type, { clientX: x, clientY: y, pointerId: 1, pointerType });
  aim.angle = Math.PI / 2; // up the table: the cue lies below the cue ball at [0, -900]
  const onTheCue = [0, -900 - 200];
  press("pointerdown", onTheCue);
  assert.equal(aim.angle, Math.PI / 2); // the aim stays
  press("pointermove", [0, -900 - 260]); // 60 px back
  const range = STROKE.max_speed - STROKE.min_speed;
  assert.equal(aim.speed, Number((3 + (60 / PULL_PX) * range).toFixed(1)));
  press("pointermove", [0, -900 - 200 + 1000]); // all the way forward
  assert.equal(aim.speed, STROKE.min_speed);
  press("pointerup", [0, -900 + 800]);
  assert.equal(aim.angle, Math.PI / 2);
  // A mouse pressed there aims at the point, as before.
  press("pointerdown", onTheCue, "mouse");
  assert.ok(Math.abs(aim.angle + Math.PI / 2) < 1e-12);
  press("pointerup", onTheCue, "mouse");
});
