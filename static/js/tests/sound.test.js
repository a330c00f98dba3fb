// A stroke's sounds from its contact events and trajectories: the strike first, then each
// contact as loud as the balls met (their closing speed, from the trajectory rows).

import assert from "node:assert/strict";
import { test } from "node:test";

import { VOLUME, pitchOf, soundsOf } from "../sound.js";
import { CONSTANTS } from "./fixture.js";

// The cue ball rolls at 2000 mm/s along +y into a red at rest (compact rows, no deceleration
// constants that matter over 0.1 s), then the red hits the top cushion and drops.
const shot = {
  constants: { R: CONSTANTS.table.ball_radius, slide_decel: 0, roll_decel: 0, spin_decel: 0 },
  events: [[0.1, "ball_ball", "white", "red1"], [0.3, "ball_cushion", "red1"],
    [0.5, "pocket", "red1"]],
  trajectories: {
    white: [[0, 1, 0, 0, 0, 2000], [0.1, 3, 0, 200]],
    red1: [[0, 3, 0, 252.5], [0.1, 1, 0, 252.5, 0, 1500], [0.5, 4, 0, 852.5]],
  },
};

test("the strike, then each contact with its strength", () => {
  const sounds = soundsOf(shot, 5, 10);
  assert.deepEqual(sounds.map((s) => s.kind), ["strike", "ball", "cushion", "pocket"]);
  assert.equal(sounds[0].t, 0);
  assert.equal(sounds[0].strength, 0.5);
  assert.ok(Math.abs(sounds[1].strength - 2000 / 3000) < 1e-9); // closing at 2000 mm/s
  assert.ok(Math.abs(sounds[2].strength - 1500 / 3000) < 1e-9);
  assert.ok(sounds[3].strength > 0.4 && sounds[3].strength <= 1);
});

test("a stroke that meets nothing is only the strike", () => {
  assert.deepEqual(soundsOf({ events: [], trajectories: {} }, 1, 10).map((s) => s.kind),
    ["strike"]);
  assert.deepEqual(soundsOf(null, 1, 10).map((s) => s.kind), ["strike"]);
});

test("a harder contact sounds higher as well as louder, and the table is quiet", () => {
  const soft = soundsOf(shot, 1, 10)[0];
  const hard = soundsOf(shot, 9, 10)[0];
  assert.ok(hard.pitch > soft.pitch);
  assert.equal(hard.pitch, pitchOf(hard.strength));
  const [, ball, cushion] = soundsOf(shot, 5, 10);
  assert.ok(ball.pitch > cushion.pitch); // 2000 mm/s closing against 1500 into the cushion
  assert.ok(VOLUME > 0 && VOLUME < 1);
});
