// The aim guide's closed forms from the server's figures. tests/physics/test_guide.py holds
// the whole guide to the server's physics over a grid of strokes; these are its shapes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Guide } from "../guide.js";
import { CONSTANTS } from "./fixture.js";

const g = new Guide(CONSTANTS.table, CONSTANTS.physics);
const R = CONSTANTS.table.ball_radius;
const cue = [0, -600];

test("right-hand side squirts the cue ball to the left, more with more side", () => {
  assert.equal(g.squirt(0), 0);
  assert.ok(g.squirt(0.3) > 0 && g.squirt(0.5) > g.squirt(0.3));
  assert.equal(g.squirt(-0.3), -g.squirt(0.3));
  const p = g.predict(cue, { angle: Math.PI / 2, speed: 2, side: 0.25, height: 0 }, {});
  assert.ok(p.dir[0] < 0 && p.target === null);
});

test("a stun straight in: the object ball goes on along the line, the cue ball stops", () => {
  const balls = { white: cue, red1: [0, 0] };
  const p = g.predict(cue, { angle: Math.PI / 2, speed: 3, side: 0, height: 0 }, balls);
  assert.equal(p.target, "red1");
  assert.ok(Math.abs(p.ghost[1] + 2 * R) < 1e-9);
  assert.ok(Math.abs(p.objectDir[0]) < 1e-12 && p.objectDir[1] > 0.999);
  assert.ok(Math.hypot(...p.cueAfter.v) < 0.05 * Math.hypot(...p.objectAfter.v));
});

test("a cut throws the object ball off the line of centres, more when slow", () => {
  const throwAt = (speed) => {
    const red = [2 * R * Math.sin(Math.PI / 6), 2 * R * Math.cos(Math.PI / 6)];
    const p = g.predict([0, -300], { angle: Math.PI / 2, speed, side: 0, height: 0 },
      { white: [0, -300], red1: red });
    const n = [red[0] - p.ghost[0], red[1] - p.ghost[1]];
    return Math.atan2(n[0], n[1]) - Math.atan2(p.objectDir[0], p.objectDir[1]);
  };
  assert.ok(throwAt(0.5) > throwAt(4) && throwAt(4) > 0);
});

test("a stroke too soft to reach the ball meets nothing", () => {
  const balls = { white: cue, red1: [0, 1500] };
  const p = g.predict(cue, { angle: Math.PI / 2, speed: 0.35, side: 0, height: 0 }, balls);
  assert.equal(p.target, null);
});

// --- the full guide: off the first cushion (tests/physics/test_guide_banks.py holds it to the
// physics' banks within a millimetre) ------------------------------------------------------------

const limX = CONSTANTS.table.half_width - R;
const limY = CONSTANTS.table.half_length - R;
const stun = (angle, speed = 3) => ({ angle, speed, side: 0, height: 0 });

test("the short guide stops at the cushion; the full one comes off it", () => {
  const from = [0, -900];
  const short = g.predict(from, stun(0.5), { white: from });
  assert.equal(short.end, "cushion");
  assert.equal(short.rebound, null);
  const full = g.predict(from, stun(0.5), { white: from }, { full: true });
  assert.ok(Math.abs(full.bank[0] - limX) < 1e-9);
  assert.deepEqual(full.rebound[0], full.bank);
  // Off the right cushion the ball comes back left and goes on up the table.
  const after = full.rebound[full.rebound.length - 1];
  assert.ok(after[0] < full.bank[0] && after[1] > full.bank[1]);
  assert.ok(["cushion", "stop", "pocket"].includes(full.end));
});

test("a plain bank at 45° comes off the cushion between 20° and 70°", () => {
  const from = [0, -1300];
  const p = g.predict(from, stun(Math.PI / 4, 2), { white: from }, { full: true });
  const [a, b] = [p.rebound[0], p.rebound[p.rebound.length - 1]];
  const out = Math.atan2(b[1] - a[1], a[0] - b[0]); // from the cushion, measured off it
  assert.ok(out > (20 * Math.PI) / 180 && out < (70 * Math.PI) / 180, String(out));
});

test("the cushion impact sends the ball back with less pace, and running side changes it", () => {
  const v = [1500, 1500];
  const plain = g.cushionImpact(v, [0, 0, 0], [1, 0]);
  assert.ok(plain.v[0] < 0 && Math.abs(plain.v[0]) < 1500);
  const running = g.cushionImpact(v, [0, 0, 60], [1, 0]);
  const check = g.cushionImpact(v, [0, 0, -60], [1, 0]);
  assert.notEqual(running.v[1], check.v[1]);
  assert.ok((running.v[1] - plain.v[1]) * (check.v[1] - plain.v[1]) < 0);
});

test("the rebound meets a ball: the ghost is there, with the object ball's line", () => {
  const from = [0, -900];
  const empty = g.predict(from, stun(0.6), { white: from }, { full: true });
  const mid = empty.rebound[Math.floor(empty.rebound.length / 2)];
  const balls = { white: from, blue: mid };
  const p = g.predict(from, stun(0.6), balls, { full: true });
  assert.equal(p.target, "blue");
  assert.ok(p.bank);
  assert.ok(Math.abs(Math.hypot(p.ghost[0] - mid[0], p.ghost[1] - mid[1]) - 2 * R) < 1e-6);
  assert.ok(p.objectPath.length >= 2);
});

test("the object ball's line runs to the cushion in full, 600 mm short", () => {
  const from = [0, 300];
  const balls = { white: from, red1: [200, 300] };
  const full = g.predict(from, stun(0), balls, { full: true });
  assert.equal(full.objectEnd, "cushion");
  assert.ok(Math.abs(full.objectPath[full.objectPath.length - 1][0] - limX) < 1e-6);
  const short = g.predict(from, stun(0), balls);
  assert.equal(short.objectEnd, null);
});

test("a line into a pocket's mouth ends at the pocket, with no rebound", () => {
  const from = [limX - 400, limY - 400];
  const p = g.predict(from, stun(Math.PI / 4), { white: from }, { full: true });
  assert.equal(p.end, "pocket");
  assert.equal(p.bank, null);
});
