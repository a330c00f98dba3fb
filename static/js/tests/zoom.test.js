// The table's zoom: the shot framed, a pinch and the wheel about the point under them.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MAX_ZOOM, frameShot, keepUnder, pinchOf, pinchZoom, zoomAbout } from "../zoom.js";

/** A table view as table.js keeps it, with its mapping (upright: x right, y up). */
function tableView({ upright = true, zoom = 1, focus = [0, 0] } = {}) {
  const v = { upright, zoom, fit: 0.16, cssWidth: 380, cssHeight: 620, centre: focus };
  v.scale = v.fit * zoom;
  v.toTable = ([sx, sy]) => {
    const [cx, cy] = v.centre;
    return upright
      ? [cx + (sx - v.cssWidth / 2) / v.scale, cy - (sy - v.cssHeight / 2) / v.scale]
      : [cx + (sy - v.cssHeight / 2) / v.scale, cy + (sx - v.cssWidth / 2) / v.scale];
  };
  v.toScreen = ([x, y]) => {
    const [cx, cy] = v.centre;
    return upright
      ? [v.cssWidth / 2 + (x - cx) * v.scale, v.cssHeight / 2 - (y - cy) * v.scale]
      : [v.cssWidth / 2 + (y - cy) * v.scale, v.cssHeight / 2 + (x - cx) * v.scale];
  };
  return v;
}

const near = (a, b, eps = 1e-6) => Math.abs(a - b) < eps;

test("the shot is framed: the cue ball and the ball aimed at, with cloth around, centred", () => {
  const view = { width: 380, height: 620, fit: 0.16, upright: true };
  // Close together: zoomed in, as far as the zoom goes at most.
  const close = frameShot([0, 0], [50, 100], view);
  assert.deepEqual(close.focus, [25, 50]);
  assert.ok(close.zoom > 2 && close.zoom <= MAX_ZOOM, String(close.zoom));
  // From baulk to the pack: the length of the table, hardly zoomed.
  const long = frameShot([0, -1100], [0, 1000], view);
  assert.ok(near(long.zoom, 1, 0.2) || long.zoom >= 1, String(long.zoom));
  assert.ok(long.zoom < close.zoom);
  // Nothing aimed at: the cue ball alone.
  assert.deepEqual(frameShot([10, 20], null, view).focus, [10, 20]);
});

test("the point under the fingers stays under them", () => {
  for (const upright of [true, false]) {
    const v = tableView({ upright, zoom: 1.5, focus: [100, -200] });
    const p = [300, 400];
    const at = [120, 500];
    const focus = keepUnder(v, 2, p, at);
    const after = tableView({ upright, zoom: 2, focus });
    const back = after.toScreen(p);
    assert.ok(near(back[0], at[0]) && near(back[1], at[1]), `${upright}: ${back}`);
  }
});

test("the wheel zooms about the pointer, back to the whole table below ×1", () => {
  const v = tableView({ zoom: 2, focus: [0, 0] });
  const z = zoomAbout(v, 1.5, [100, 100]);
  assert.ok(near(z.zoom, 3));
  const after = tableView({ zoom: 3, focus: z.focus });
  const under = v.toTable([100, 100]);
  const back = after.toScreen(under);
  assert.ok(near(back[0], 100) && near(back[1], 100));
  assert.equal(zoomAbout(v, 0.4, [0, 0]), null);
  assert.equal(zoomAbout(tableView({ zoom: 3 }), 10, [0, 0]).zoom, MAX_ZOOM);
});

test("a pinch: fingers apart zoom in, the table following their midpoint", () => {
  const v = tableView({ zoom: 1 });
  const start = pinchOf([100, 300], [200, 300]);
  const begun = { pinch: start, view: { ...v, under: v.toTable(start.mid) } };
  const now = pinchOf([60, 340], [260, 340]); // twice as far apart, 40 px lower
  const z = pinchZoom(begun, now);
  assert.ok(near(z.zoom, 2));
  const after = tableView({ zoom: 2, focus: z.focus });
  const back = after.toScreen(begun.view.under);
  assert.ok(near(back[0], 160) && near(back[1], 340), String(back));
  // Fingers together: the whole table again.
  assert.equal(pinchZoom(begun, pinchOf([140, 300], [160, 300])), null);
});
