// The table on a phone held upright takes what the screen leaves.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tableHeight } from "../phonefit.js";

test("the table's height is the screen less what is above and the controls below", () => {
  // 390 × 844: scoreboard and turn bar 100 px, the stroke's controls 118 px.
  assert.equal(tableHeight({ viewport: 844, above: 100, below: 118 }), 620);
  assert.equal(tableHeight({ viewport: 844, above: 100.6, below: 0 }), 737);
});

test("never less than a table can be aimed on", () => {
  assert.equal(tableHeight({ viewport: 400, above: 100, below: 200 }), 256);
  assert.equal(tableHeight({ viewport: 400, above: 100, below: 200, least: 50 }), 94);
});
