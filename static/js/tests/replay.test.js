// The replay of a frame: every control lands on a stored position; strokes animate from their
// trajectories at the chosen speed; playing runs through the steps and stops at the end.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { PAUSE_MS, Replay } from "../replay.js";

// The white rolls 1000 mm along x in 2 s (full row layout: t0, motion, x0, y0, vx, vy, ax, ay),
// from wherever it starts: the rows give its own start.
const rolling = (x0) => ({
  trajectories: { white: [[0, 1, x0, 0, 1000, 0, -500, 0], [2, 3, x0 + 1000, 0]] },
});

const DATA = {
  start: { balls: { red1: [5, 5] }, scores: { A: 0, B: 0 }, break: 0 },
  steps: [
    // 1: A breaks from hand (the cue ball placed at 0, 0).
    { version: 2, kind: "stroke", seat: "A", cue_ball: [0, 0], shot: rolling(0),
      calls: [], balls: { white: [1000, 0], red1: [5, 5] }, scores: { A: 0, B: 0 }, break: 0 },
    // 2: B fouls: the stored position is what counts after it.
    { version: 3, kind: "stroke", seat: "B", cue_ball: null, shot: rolling(1000),
      calls: ["FOUL 4"], balls: { white: [2000, 0], red1: [5, 5] }, scores: { A: 4, B: 0 },
      break: 0 },
    // 3: A decides: no motion.
    { version: 4, kind: "choice", seat: "A", cue_ball: null, shot: null, calls: [],
      balls: { white: [2000, 0], red1: [5, 5] }, scores: { A: 4, B: 0 }, break: 0 },
    // 4: A pots the red.
    { version: 5, kind: "stroke", seat: "A", cue_ball: null, shot: rolling(2000), calls: [],
      balls: { white: [3000, 0] }, scores: { A: 5, B: 0 }, break: 1 },
  ],
};

let replay;

beforeEach(() => {
  replay = new Replay(DATA);
  replay.tick(0);
});

test("it starts at the frame as racked", () => {
  const v = replay.view();
  assert.equal(v.at, 0);
  assert.equal(v.total, 4);
  assert.deepEqual(v.balls, { red1: [5, 5] });
  assert.deepEqual(v.scores, { A: 0, B: 0 });
  assert.equal(v.stroke, 1);
  assert.equal(v.strokes, 3);
  assert.equal(v.version, null);
});

test("stepping forward animates the stroke from where the cue ball was placed", () => {
  replay.stepForward();
  assert.equal(replay.view().animating, true);
  assert.deepEqual(replay.balls.white, [0, 0]);
  replay.tick(1000);
  assert.deepEqual(replay.balls.white, [750, 0]);
  assert.equal(replay.at, 0); // the stroke is still being played
  replay.tick(2500);
  const v = replay.view();
  assert.equal(v.animating, false);
  assert.equal(v.at, 1);
  assert.deepEqual(v.balls, DATA.steps[0].balls);
  // It stops after one step.
  replay.tick(10000);
  assert.equal(replay.at, 1);
});

/** Let whatever moves come to rest. */
function rest() {
  replay.tick(replay.last + 60_000);
}

test("a second step forward while a stroke moves steps on: it lands, the next one moves", () => {
  replay.stepForward();
  replay.tick(500);
  replay.stepForward();
  let v = replay.view();
  assert.equal(v.animating, true);
  assert.equal(v.at, 1); // the first stroke landed where it was stored
  assert.deepEqual(replay.balls.white, [1000, 0]); // the second starts from there
  assert.equal(v.played, 2);
  rest();
  v = replay.view();
  assert.equal(v.at, 2);
  assert.deepEqual(v.balls, DATA.steps[1].balls);
  // On a decision (no motion), and at the end, it steps as from rest.
  replay.stepForward();
  assert.equal(replay.at, 3);
  replay.stepForward();
  replay.stepForward();
  assert.equal(replay.at, 4);
  assert.equal(replay.view().animating, false);
});

test("the strokes are counted, not the steps: one number for the stroke on screen", () => {
  const counts = () => {
    const v = replay.view();
    return [v.played, v.stroke, v.strokes];
  };
  assert.deepEqual(counts(), [0, 1, 3]);
  replay.stepForward(); // the first stroke moving: it is the one on screen
  assert.deepEqual(counts(), [1, 1, 3]);
  assert.equal(replay.view().step, 0);
  rest();
  assert.deepEqual(counts(), [1, 2, 3]);
  replay.seek(2); // after the foul
  assert.deepEqual(counts(), [2, 3, 3]);
  replay.seek(3); // after the decision: still two strokes
  assert.deepEqual(counts(), [2, 3, 3]);
  replay.seek(4);
  assert.deepEqual(counts(), [3, null, 3]);
});

test("every step lands on its stored position, forward and back", () => {
  for (let at = 1; at <= 4; at++) {
    replay.stepForward();
    rest();
    assert.equal(replay.at, at);
    assert.deepEqual(replay.balls, DATA.steps[at - 1].balls);
  }
  replay.stepForward(); // nothing after the end
  assert.equal(replay.at, 4);
  for (let at = 3; at >= 0; at--) {
    replay.stepBack();
    assert.equal(replay.at, at);
    assert.deepEqual(replay.balls, replay.position(at));
  }
  replay.stepBack();
  assert.equal(replay.at, 0);
});

test("stepping back from a moving stroke goes to where it began", () => {
  replay.seek(1);
  replay.stepForward();
  replay.tick(700);
  replay.stepBack();
  assert.equal(replay.view().animating, false);
  assert.equal(replay.at, 1);
  assert.deepEqual(replay.balls, DATA.steps[0].balls);
});

test("a decision shows its position at once", () => {
  replay.seek(2);
  replay.stepForward();
  assert.equal(replay.view().animating, false);
  assert.equal(replay.at, 3);
});

test("playing runs through every step, with a pause between, and stops at the end", () => {
  replay.play();
  let now = 0;
  const seen = [];
  while (replay.playing && now < 60000) {
    now += 16;
    replay.tick(now);
    if (!seen.includes(replay.at)) seen.push(replay.at);
  }
  assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  assert.equal(replay.at, 4);
  assert.deepEqual(replay.balls, DATA.steps[3].balls);
  // Three strokes of 2 s and the pauses after each step but the last.
  assert.ok(now >= 6000 + 3 * PAUSE_MS && now < 6000 + 5 * PAUSE_MS, `${now}`);
  // Playing again from the end starts over.
  replay.play();
  assert.equal(replay.at, 0);
});

test("pausing freezes a stroke mid-way; playing resumes it", () => {
  replay.play();
  replay.tick(16); // the first stroke begins
  replay.tick(1016);
  const frozen = [...replay.balls.white];
  replay.pause();
  replay.tick(5000);
  assert.deepEqual(replay.balls.white, frozen);
  assert.equal(replay.view().animating, true);
  replay.play();
  replay.tick(5500);
  assert.ok(replay.balls.white[0] > frozen[0]);
});

test("the speed scales the clock", () => {
  replay.setSpeed(4);
  replay.stepForward();
  replay.tick(250);
  assert.deepEqual(replay.balls.white, [750, 0]);
  replay.tick(500);
  assert.equal(replay.at, 1);
  replay.setSpeed(0); // refused
  assert.equal(replay.speed, 4);
});

test("a link to a stroke opens the table as that stroke is about to be played", () => {
  assert.equal(replay.strokeIndex(0), 0);
  assert.equal(replay.strokeIndex(1), 0);
  assert.equal(replay.strokeIndex(2), 1);
  assert.equal(replay.strokeIndex(3), 3); // after the decision
  assert.equal(replay.strokeIndex(99), 4);
  replay.seek(replay.strokeIndex(3));
  const v = replay.view();
  assert.deepEqual(v.balls, DATA.steps[2].balls);
  assert.equal(v.stroke, 3);
  assert.deepEqual(v.scores, { A: 4, B: 0 });
  replay.seek(4);
  assert.equal(replay.view().stroke, null);
});

test("the calls and the score are the last step's, hidden while the next one moves", () => {
  replay.seek(2);
  let v = replay.view();
  assert.deepEqual(v.calls, ["FOUL 4"]);
  assert.deepEqual(v.scores, { A: 4, B: 0 });
  assert.equal(v.version, 3);
  replay.seek(3);
  replay.stepForward();
  v = replay.view();
  assert.deepEqual(v.calls, []);
  assert.deepEqual(v.scores, { A: 4, B: 0 });
  replay.stepForward();
  assert.equal(replay.view().break, 1);
});

test("seeking clamps and stops playing", () => {
  replay.play();
  replay.seek(99);
  assert.equal(replay.at, 4);
  assert.equal(replay.playing, false);
  replay.seek(-3);
  assert.equal(replay.at, 0);
  replay.seek("2");
  assert.equal(replay.at, 2);
});
