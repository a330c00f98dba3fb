// The table's canvas (table.js) from the server's figures: how table millimetres map to the
// screen lying across or standing up, the zoom kept on the table, and a frame drawn.

import assert from "node:assert/strict";
import { test } from "node:test";

import { frameFor, SMALL_BOX, TableView } from "../table.js";
import { CONSTANTS } from "./fixture.js";
import { fakeCanvas } from "./fakes.js";

const TABLE = CONSTANTS.table;
const R = TABLE.ball_radius;

function view(width, height) {
  const canvas = fakeCanvas(width, height);
  const v = new TableView(canvas, TABLE, { offscreen: () => fakeCanvas(width, height) });
  assert.equal(v.resize(), true);
  return v;
}

const close = (a, b, eps = 1e-9) =>
  assert.ok(Math.abs(a[0] - b[0]) < eps && Math.abs(a[1] - b[1]) < eps, `${a} ≠ ${b}`);

test("across a wide box: the baulk end on the left, the centre spot in the middle", () => {
  const v = view(1200, 600);
  assert.equal(v.upright, false);
  close(v.toScreen([0, 0]), [600, 300]);
  const baulk = v.toScreen([0, TABLE.baulk_y]);
  const top = v.toScreen([0, TABLE.half_length]);
  assert.ok(baulk[0] < 600 && top[0] > 600 && Math.abs(baulk[1] - 300) < 1e-9);
  // Table +x (right, seen from baulk) is screen down: a quarter turn, not a mirror.
  assert.ok(v.toScreen([TABLE.half_width, 0])[1] > 300);
  // The whole table with its rail fits, and fills the box one way.
  const corner = v.toScreen([-TABLE.half_width, -TABLE.half_length]);
  assert.ok(corner[0] > 0 && corner[1] > 0);
  assert.ok(Math.abs(v.fit * 2 * v.extentLong - 1200) < 1e-9 ||
    Math.abs(v.fit * 2 * v.extentShort - 600) < 1e-9);
});

test("standing up in a tall box: the baulk end at the bottom, x to the right", () => {
  const v = view(360, 640);
  assert.equal(v.upright, true);
  close(v.toScreen([0, 0]), [180, 320]);
  assert.ok(v.toScreen([0, TABLE.baulk_y])[1] > 320);
  assert.ok(v.toScreen([TABLE.half_width, 0])[0] > 180);
});

test("screen and table points map back and forth, zoomed or not", () => {
  for (const v of [view(1200, 600), view(360, 640)]) {
    for (const zoom of [1, 2]) {
      v.view(zoom, TABLE.d_centre);
      const corner = [TABLE.half_width, -TABLE.half_length];
      for (const p of [[0, 0], TABLE.d_centre, corner, [-300, 700]]) {
        close(v.toTable(v.toScreen(p)), p, 1e-6);
      }
    }
  }
});

test("a zoom towards a corner keeps the view on the table, and says when it changed", () => {
  const v = view(1200, 600);
  const corner = [TABLE.half_width, TABLE.half_length];
  assert.equal(v.view(2, corner), true);
  assert.equal(v.view(2, corner), false);
  assert.equal(v.scale, 2 * v.fit);
  // The screen's far corner is still within the drawn table (rail and margin).
  const [x, y] = v.toTable([1200, 600]);
  assert.ok(Math.abs(x) <= v.extentShort + 1e-6 && Math.abs(y) <= v.extentLong + 1e-6);
  assert.ok(v.centre[1] < corner[1]); // pulled back from the corner
  assert.equal(v.view(1, null), true);
  close(v.centre, [0, 0]);
});

test("the screen's offsets follow the table's turn", () => {
  assert.deepEqual(view(1200, 600).screenOffset(3, 4), [4, 3]);
  assert.deepEqual(view(360, 640).screenOffset(3, 4), [3, -4]);
});

test("a frame: the cloth once, then every ball at its place, its radius the server's", () => {
  const v = view(1200, 600);
  const balls = { white: [10, -900], red1: [0, 800], black: TABLE.spots.black };
  let overlays = 0;
  v.draw(balls, { under: () => (overlays += 1), over: () => (overlays += 10) });
  assert.equal(overlays, 11);
  const background = v.background;
  v.draw(balls);
  assert.equal(v.background, background); // drawn once until the size or the view changes
  const arcs = v.canvas.ctx.calls.filter(([name, , , r]) => name === "arc" && r === R);
  for (const p of Object.values(balls)) {
    assert.ok(arcs.some(([, x, y]) => x === p[0] && y === p[1]), `no ball at ${p}`);
  }
});

test("a phone's box draws the rail thin: a ball 5 px in radius on an 844 × 390 phone on its side", () => {
  assert.deepEqual(frameFor(1200, 600), { rail: 125, margin: 14 });
  assert.deepEqual(frameFor(SMALL_BOX - 1, 900), { rail: 24, margin: 4 });
  assert.deepEqual(frameFor(900, SMALL_BOX - 1), { rail: 24, margin: 4 });
  // The canvas a landscape phone leaves the table: the screen's height, a thumb's column off.
  const side = view(712, 382);
  assert.equal(side.rail, 24);
  assert.ok(side.scale * R >= 5, side.scale * R);
  const wide = view(712, 600);
  assert.ok(wide.scale * R < 5, wide.scale * R); // the same width with the full rail: 4.7 px
  // The box grown (the phone turned, a window widened): the full rail again.
  side.canvas.rect = { left: 0, top: 0, width: 1200, height: 600 };
  assert.equal(side.resize(), true);
  assert.equal(side.rail, 125);
});
