// The fine-aim strip against a long pot's window: the finest angle a touch user can set is a
// tenth of the window of a 1 m + 1 m straight pot into a corner pocket.

import assert from "node:assert/strict";
import { test } from "node:test";

import { VERNIER, vernierTurn } from "../vernier.js";
import { CONSTANTS } from "./fixture.js";

const R = CONSTANTS.table.ball_radius;
const corner = CONSTANTS.table.pockets.find((p) => p.name === "top_left");

/** The cue angles (degrees) that pot a straight ball `toPocket` mm from a corner pocket with
 * the cue ball `behind` mm behind it: the object ball's centre must pass within
 * (opening / 2 − R) of the pocket's centre line, and a cue turned by δ moves the contact by
 * behind·δ, which sends the object ball off by asin(behind·δ / 2R). */
function potWindow(toPocket, behind) {
  const objectHalf = Math.atan((corner.opening / 2 - R) / toPocket);
  const cueHalf = (2 * R * Math.sin(objectHalf)) / behind;
  return (2 * cueHalf * 180) / Math.PI;
}

test("a 1 m + 1 m pot's window is about 0.1°", () => {
  const w = potWindow(1000, 1000);
  assert.ok(w > 0.09 && w < 0.12, String(w));
});

test("a pixel's slide on the strip turns the cue by a tenth of that window or less", () => {
  const finest = Math.abs(vernierTurn(1));
  assert.equal(finest, VERNIER);
  assert.ok(finest <= potWindow(1000, 1000) / 10);
  // The turn buttons' finest step (0.1°) is as wide as the whole window; the strip's is not.
  assert.ok(0.1 >= potWindow(1000, 1000) * 0.9);
});

test("sliding right turns the cue clockwise, as the right-hand buttons do; slides add up", () => {
  assert.ok(vernierTurn(1) < 0 && vernierTurn(-1) > 0);
  let turned = 0;
  for (let i = 0; i < 100; i += 1) turned += vernierTurn(1);
  assert.ok(Math.abs(turned + 1) < 1e-9); // 100 px: 1°
});
