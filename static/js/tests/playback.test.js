// Events on screen in order, each once; a stroke animated before its snapshot is shown.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { Playback, scoreAfterDrops, scoringDrops } from "../playback.js";

const at = (version, balls) => ({ version, frame: { balls } });
// The white rolls 1000 mm along x in 2 s (full row layout: t0, motion, x0, y0, vx, vy, ax, ay).
const SHOT = {
  trajectories: { white: [[0, 1, 0, 0, 1000, 0, -500, 0], [2, 3, 1000, 0]] },
};
const stroke = (version, shot = SHOT) => ({
  version, kind: "stroke", request: {}, shot,
  snapshot: at(version, { white: [1000, 0], red1: [5, 5] }),
});
const choice = (version) => ({ version, kind: "choice", snapshot: at(version, { white: [1, 1] }) });

let playback;
let shown;
const show = (event, before) => shown.push([event.version, before && before.version]);

beforeEach(() => {
  playback = new Playback(1);
  playback.reset(at(1, { white: [0, 0], red1: [5, 5] }));
  shown = [];
});

test("a stroke moves its balls, then its snapshot is shown", () => {
  const queue = [stroke(2)];
  const started = playback.advance(1000, queue, show);
  assert.equal(started.event.version, 2);
  assert.deepEqual(playback.balls, { white: [0, 0], red1: [5, 5] });
  assert.equal(playback.advance(2000, queue, show), null);
  assert.deepEqual(playback.balls.white, [750, 0]);
  assert.deepEqual(shown, []);
  assert.equal(playback.shown.version, 1);
  playback.advance(3000, queue, show);
  assert.deepEqual(shown, [[2, 1]]);
  assert.equal(playback.anim, null);
  assert.deepEqual(playback.balls, { white: [1000, 0], red1: [5, 5] });
});

test("the rate speeds the clock up", () => {
  playback = new Playback(4);
  playback.reset(at(1, { white: [0, 0] }));
  playback.advance(0, [stroke(2)], show);
  playback.advance(250, [], show);
  assert.deepEqual(playback.balls.white, [750, 0]);
  playback.advance(500, [], show);
  assert.deepEqual(shown, [[2, 1]]);
});

test("while catching up only the last stroke is animated", () => {
  const queue = [stroke(2), choice(3), stroke(4)];
  const started = playback.advance(0, queue, show);
  assert.deepEqual(shown, [[2, 1], [3, 2]]);
  assert.equal(started.event.version, 4);
  assert.deepEqual(queue, []);
  // What was queued behind a moving stroke waits for it.
  queue.push(choice(5));
  playback.advance(1000, queue, show);
  assert.deepEqual(queue.map((e) => e.version), [5]);
  playback.advance(2000, queue, show);
  assert.deepEqual(shown, [[2, 1], [3, 2], [4, 3], [5, 4]]);
});

test("from hand, the cue ball starts where it was placed", () => {
  const placed = { ...stroke(2), request: { cue_ball: [-10, -1100] } };
  const started = playback.advance(0, [placed], show);
  assert.deepEqual(started.before.white, [-10, -1100]);
});

test("a stroke that moves nothing is shown at once", () => {
  const still = stroke(2, { trajectories: { white: [[0, 3, 0, 0]] } });
  assert.equal(playback.advance(0, [still], show), null);
  assert.deepEqual(shown, [[2, 1]]);
});

test("a new picture stops the stroke moving", () => {
  playback.advance(0, [stroke(2)], show);
  playback.reset(at(9, { white: [3, 3] }));
  assert.equal(playback.anim, null);
  assert.deepEqual(playback.balls, { white: [3, 3] });
  assert.equal(playback.advance(5000, [], show), null);
  assert.deepEqual(shown, []);
});

test("each event shown says where the balls were when it was done (a frame's last position)", () => {
  const finals = [];
  const keep = (event, before, final) => finals.push([event.version, final]);
  // A stroke that ends the frame: its snapshot shows the next rack, its end is where it stopped.
  const ending = { ...stroke(2), snapshot: at(2, { red1: [0, 900] }) };
  const queue = [ending];
  playback.advance(0, queue, keep);
  playback.advance(5000, queue, keep);
  assert.deepEqual(finals, [[2, { white: [1000, 0], red1: [5, 5] }]]);
  assert.deepEqual(playback.balls, { red1: [0, 900] });
  // Shown without its animation (catching up): the shot's resting positions.
  const quick = { ...stroke(3), shot: { ...SHOT, positions: { white: [1000, 0] } } };
  playback.advance(6000, [quick, choice(4)], keep);
  assert.deepEqual(finals[1], [3, { white: [1000, 0] }]);
});

test("with a lead the balls wait for the cue's swing, and the stroke ends that much later", () => {
  playback = new Playback(1, 0.5);
  playback.reset(at(1, { white: [0, 0] }));
  playback.advance(0, [stroke(2)], show);
  playback.advance(400, [], show);
  assert.equal(playback.anim.t, 0.4);
  assert.deepEqual(playback.balls.white, [0, 0]);
  playback.advance(1500, [], show);
  assert.deepEqual(playback.balls.white, [750, 0]);
  playback.advance(2400, [], show);
  assert.deepEqual(shown, []);
  playback.advance(2500, [], show);
  assert.deepEqual(shown, [[2, 1]]);
});

test("a skip ends the swing and the stroke at once", () => {
  playback = new Playback(1, 0.5);
  playback.reset(at(1, { white: [0, 0] }));
  playback.advance(0, [stroke(2)], show);
  assert.equal(playback.skip(), true);
  playback.advance(10, [], show);
  assert.deepEqual(shown, [[2, 1]]);
  assert.deepEqual(playback.balls.white, [1000, 0]);
});

// The red drops at 1.5 s of the white's 2 s roll.
const potting = (version, ruling, extra = {}) => ({
  ...stroke(version, { ...SHOT, events: [[0.5, "ball_ball", "white", "red1"], [1.5, "pocket", "red1"]] }),
  ruling, ...extra,
});

test("a fair stroke's score counts as its balls drop, from the server's ruling", () => {
  assert.deepEqual(scoringDrops(potting(2, { foul: false, points: 1 })), [1.5]);
  assert.deepEqual(scoringDrops(potting(2, { foul: true, points: 0 })), []);
  assert.deepEqual(scoringDrops(potting(2, { foul: false, points: 0 })), []);
  assert.deepEqual(scoringDrops(potting(2, { foul: false, points: 7 }, { frame_end: {} })), []);
  assert.deepEqual(scoringDrops(stroke(2)), []); // nothing dropped
  // Two reds: 1 point each; the figures are the server's after the stroke, less what is to drop.
  const two = {
    version: 2, kind: "stroke", seat: "B", ruling: { foul: false, points: 2 },
    snapshot: { scoreboard: { scores: { A: 10, B: 21 }, break: 9 } },
  };
  assert.deepEqual(scoreAfterDrops(two, 0, 2), { seat: "B", score: 19, break: 7 });
  assert.deepEqual(scoreAfterDrops(two, 1, 2), { seat: "B", score: 20, break: 8 });
  assert.deepEqual(scoreAfterDrops(two, 2, 2), { seat: "B", score: 21, break: 9 });
});

test("the scored callback comes once for each ball, as it drops, before the stroke's end", () => {
  playback = new Playback(1, 0.5);
  playback.reset(at(1, { white: [0, 0], red1: [5, 5] }));
  const scored = [];
  const note = (event, k, n) => scored.push([event.version, k, n]);
  const shot = { ...SHOT, events: [[0.8, "pocket", "red2"], [1.5, "pocket", "red1"]] };
  playback.advance(0, [{ ...stroke(2, shot), ruling: { foul: false, points: 2 } }], show, note);
  playback.advance(1200, [], show, note);
  assert.deepEqual(scored, []);
  playback.advance(1300, [], show, note);
  assert.deepEqual(scored, [[2, 1, 2]]);
  playback.advance(2000, [], show, note);
  playback.advance(2100, [], show, note);
  assert.deepEqual(scored, [[2, 1, 2], [2, 2, 2]]);
  assert.deepEqual(shown, []);
  playback.advance(2500, [], show, note);
  assert.deepEqual(shown, [[2, 1]]);
  assert.equal(scored.length, 2);
});
