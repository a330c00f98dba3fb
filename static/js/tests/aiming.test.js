// The striker's cue (aiming.js Aim) within the stroke's limits, and what AimPainter draws
// from the aim guide and the table's figures.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Aim, AimPainter, NEUTRAL_SPEED, normaliseAngle } from "../aiming.js";
import { Guide } from "../guide.js";
import { CONSTANTS } from "./fixture.js";
import { fakeCanvas, recordingContext } from "./fakes.js";

const LIMIT = CONSTANTS.stroke.miscue_limit;
const TABLE = CONSTANTS.table;
const guide = new Guide(TABLE, CONSTANTS.physics);
const painter = new AimPainter(guide, CONSTANTS.stroke);
const DEG = Math.PI / 180;

test("angles stay within (−π, π]", () => {
  assert.equal(normaliseAngle(Math.PI), Math.PI);
  assert.ok(Math.abs(normaliseAngle(-Math.PI) - Math.PI) < 1e-12);
  assert.ok(Math.abs(normaliseAngle(3 * Math.PI + 0.5) - (-Math.PI + 0.5)) < 1e-12);
});

test("the cue turns by 0.5° a step, 0.05° finely, and by degrees anticlockwise", () => {
  const aim = new Aim(CONSTANTS.stroke);
  const start = aim.angle;
  aim.rotate(1, false);
  assert.ok(Math.abs(aim.angle - start - 0.5 * DEG) < 1e-12);
  aim.rotate(-1, true);
  assert.ok(Math.abs(aim.angle - start - 0.45 * DEG) < 1e-12);
  aim.turn(-10);
  assert.ok(Math.abs(aim.angle - start + 9.55 * DEG) < 1e-12);
});

test("the tip stays inside the miscue limit, however far it is put", () => {
  const aim = new Aim(CONSTANTS.stroke);
  aim.setSpin(0.1, -0.2);
  assert.deepEqual([aim.side, aim.height], [0.1, -0.2]);
  for (const [s, h] of [[3, 0], [-1, 1], [1, -1], [0.6, 0.8], [-0.35, -0.36], [LIMIT, 0]]) {
    aim.setSpin(s, h);
    assert.ok(Math.hypot(aim.side, aim.height) <= LIMIT, `${s}, ${h}`);
    assert.ok(Math.hypot(aim.side, aim.height) > LIMIT * 0.99, `${s}, ${h}`);
    assert.equal(Math.sign(aim.side), Math.sign(s));
  }
});

test("the message carries the cue ball only from hand; a stroke resets power and spin", () => {
  const aim = new Aim(CONSTANTS.stroke);
  aim.speed = 5.5;
  aim.setSpin(0.2, 0.1);
  aim.cueBall = [10, -1000];
  assert.deepEqual(aim.message(false).cue_ball, null);
  assert.deepEqual(aim.message(true).cue_ball, [10, -1000]);
  const angle = aim.angle;
  aim.resetStroke();
  assert.deepEqual([aim.speed, aim.side, aim.height, aim.angle], [NEUTRAL_SPEED, 0, 0, angle]);
});

test("the aim drawn is the guide's prediction: the ghost ball where the guide says", () => {
  const ctx = recordingContext();
  const cue = [0, -600];
  const balls = { white: cue, red1: [0, 0] };
  const aim = { angle: Math.PI / 2, speed: 3, side: 0, height: 0 };
  const drawn = painter.drawAim(ctx, { scale: 0.5 }, cue, aim, balls, { mine: true });
  assert.deepEqual(drawn, guide.predict(cue, aim, balls, { full: true }));
  assert.equal(drawn.target, "red1");
  const ghost = ctx.calls.find(([name, x, y]) => name === "arc" && x === drawn.ghost[0] &&
    y === drawn.ghost[1]);
  assert.equal(ghost[3], TABLE.ball_radius);
});

test("a short guide draws what the guide predicts without going past the first cushion", () => {
  const short = new AimPainter(guide, CONSTANTS.stroke, { guide: "short" });
  const cue = [0, -900];
  const aim = { angle: 0.45, speed: 3, side: 0, height: 0 };
  const drawn = short.drawAim(recordingContext(), { scale: 0.5 }, cue, aim, { white: cue },
    { mine: true });
  assert.equal(drawn.rebound, null);
  assert.equal(short.last.end, "cushion");
  const full = painter.drawAim(recordingContext(), { scale: 0.5 }, cue, aim, { white: cue },
    { mine: true });
  assert.ok(full.bank && painter.last.rebound > 1);
});

test("a ghost ball whose first contact is not on is crossed in red, with the reason", () => {
  const ctx = recordingContext();
  const cue = [0, -600];
  const balls = { white: cue, blue: [0, 0], red1: [300, 600] };
  const aim = { angle: Math.PI / 2, speed: 3, side: 0, height: 0 };
  const rules = { ballsOn: ["red1"], freeBall: false, on: "red", nominated: null };
  const view = { scale: 0.5, dpr: 1, cssWidth: 800, toScreen: ([x, y]) => [x / 4, y / 4] };
  painter.drawAim(ctx, view, cue, aim, balls, { mine: true, rules });
  assert.equal(painter.last.foul.ball, "blue");
  assert.equal(painter.last.foul.words, "Foul: the cue ball would hit the blue first (red on)");
  assert.ok(ctx.calls.some(([name, text]) => name === "fillText" && text === painter.last.foul.words));
  assert.ok(ctx.calls.some(([name, colour]) => name === "stroke" && colour === "#ff4b4b"));
  // A ball on is no foul; nor is any ball for a watcher told nothing of the turn.
  painter.drawAim(recordingContext(), view, cue, aim, balls,
    { mine: true, rules: { ...rules, ballsOn: ["blue"] } });
  assert.equal(painter.last.foul, null);
  painter.drawAim(recordingContext(), view, cue, aim, balls, { mine: false });
  assert.equal(painter.last.foul, null);
});

test("the D is drawn on the server's figures; the spin control rings the miscue limit", () => {
  const ctx = recordingContext();
  painter.drawD(ctx);
  const [cx, cy] = TABLE.d_centre;
  assert.ok(ctx.calls.some(([n, x, y, r]) => n === "arc" && x === cx && y === cy &&
    r === TABLE.d_radius));
  const spin = fakeCanvas(84, 84);
  painter.drawSpin(spin, { side: 0, height: 0 });
  const r = 84 / 2 - 4;
  assert.ok(spin.ctx.calls.some(([n, , , radius]) => n === "arc" && radius === r * LIMIT));
});
