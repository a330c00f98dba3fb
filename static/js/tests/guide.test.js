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
