// The power by a finger: a press on the cue drawn, a drag back along it.

import assert from "node:assert/strict";
import { test } from "node:test";

import { addressPull } from "../cueswing.js";
import { GRIP_PX, PULL_PX, draggedPower, onCue } from "../powerdrag.js";
import { CONSTANTS } from "./fixture.js";

const R = CONSTANTS.table.ball_radius;
const STROKE = CONSTANTS.stroke;
const CUE = [0, -900];
const UP = Math.PI / 2; // aimed up the table: the cue lies below the cue ball
const PHONE = 0.15; // CSS px to the mm, about a phone's whole table

test("a press on the cue drawn takes it; beside it, in front of the ball or past its butt, not", () => {
  const tip = R + addressPull(3);
  assert.ok(onCue([0, -900 - tip - 100], CUE, UP, 3, R, PHONE));
  assert.ok(onCue([0, -900 - tip - 1400], CUE, UP, 3, R, PHONE));
  // A finger's width either side of the line still holds it.
  assert.ok(onCue([(GRIP_PX - 1) / PHONE, -900 - tip - 300], CUE, UP, 3, R, PHONE));
  assert.ok(!onCue([(GRIP_PX + 1) / PHONE, -900 - tip - 300], CUE, UP, 3, R, PHONE));
  assert.ok(!onCue([0, -900 + 300], CUE, UP, 3, R, PHONE)); // in front of the ball: aiming
  assert.ok(!onCue([0, -900 - tip - 1600 - GRIP_PX / PHONE], CUE, UP, 3, R, PHONE));
  // On a big table the grip is the same on the screen, so fewer mm.
  assert.ok(!onCue([(GRIP_PX + 1) / 0.6, -900 - tip - 300], CUE, UP, 3, R, 0.6));
});

test("back along the cue is harder, towards the ball softer, within the limits", () => {
  const from = [0, -1200];
  const range = STROKE.max_speed - STROKE.min_speed;
  const pull = (px) => [0, -1200 - px / PHONE];
  assert.equal(draggedPower(from, from, UP, 3, PHONE, STROKE), 3);
  const quarter = draggedPower(from, pull(PULL_PX / 4), UP, 3, PHONE, STROKE);
  assert.equal(quarter, Number((3 + range / 4).toFixed(1)));
  assert.equal(draggedPower(from, pull(-PULL_PX / 8), UP, 3, PHONE, STROKE),
    Number((3 - range / 8).toFixed(1)));
  assert.equal(draggedPower(from, pull(PULL_PX * 2), UP, 3, PHONE, STROKE), STROKE.max_speed);
  assert.equal(draggedPower(from, pull(-PULL_PX * 2), UP, 3, PHONE, STROKE), STROKE.min_speed);
  // Sideways is worth nothing: only the pull along the cue counts.
  assert.equal(draggedPower(from, [300, -1200], UP, 3, PHONE, STROKE), 3);
});
