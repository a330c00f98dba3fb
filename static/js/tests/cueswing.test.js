// The cue at the strike: back with the power, through the ball as it starts, then put away.

import assert from "node:assert/strict";
import { test } from "node:test";

import { addressPull, cuePull, lead } from "../cueswing.js";
import { CONSTANTS } from "./fixture.js";

const SWING = CONSTANTS.cue_swing;

test("the swing's times are the server's, and the balls wait for it", () => {
  assert.ok(SWING.back > 0 && SWING.through > 0 && SWING.follow > 0);
  assert.equal(lead(SWING), SWING.back + SWING.through);
  assert.equal(lead(null), 0);
});

test("the cue stands further back at the address the harder the stroke", () => {
  assert.ok(addressPull(8) > addressPull(3));
  assert.ok(addressPull(3) > addressPull(0.5));
  assert.equal(cuePull(0, 3, SWING), addressPull(3));
});

test("it draws back, then comes through the ball as the balls start", () => {
  const top = cuePull(SWING.back, 5, SWING);
  assert.ok(top > addressPull(5));
  // Back all the way through the back swing, then forward, faster and faster.
  const mid = cuePull(SWING.back / 2, 5, SWING);
  assert.ok(mid > addressPull(5) && mid < top);
  const a = cuePull(SWING.back + SWING.through * 0.25, 5, SWING);
  const b = cuePull(SWING.back + SWING.through * 0.5, 5, SWING);
  const c = cuePull(SWING.back + SWING.through * 0.75, 5, SWING);
  assert.ok(top > a && a > b && b > c && c > 0);
  assert.ok(a - b < b - c, "the cue accelerates into the ball");
  assert.ok(Math.abs(cuePull(lead(SWING), 5, SWING)) < 1e-9, "the tip meets the ball");
});

test("it goes through the ball's place, further for a harder stroke, then is put away", () => {
  const end = lead(SWING) + SWING.follow * 0.99;
  assert.ok(cuePull(end, 2, SWING) < 0);
  assert.ok(cuePull(end, 8, SWING) < cuePull(end, 2, SWING));
  assert.equal(cuePull(lead(SWING) + SWING.follow, 5, SWING), null);
});

test("without a swing (a replay) the cue only stands at the address", () => {
  assert.equal(cuePull(0.1, 3, null), addressPull(3));
});
