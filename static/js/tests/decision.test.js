// The decision's options answer the arrow keys as a list does.

import assert from "node:assert/strict";
import { test } from "node:test";

import { stepAmong } from "../decision.js";

test("↓ and → go to the next option, ↑ and ← back, round the ends; Home and End", () => {
  assert.equal(stepAmong(3, 0, "ArrowDown"), 1);
  assert.equal(stepAmong(3, 2, "ArrowRight"), 0);
  assert.equal(stepAmong(3, 0, "ArrowUp"), 2);
  assert.equal(stepAmong(3, 1, "ArrowLeft"), 0);
  assert.equal(stepAmong(3, 1, "Home"), 0);
  assert.equal(stepAmong(3, 0, "End"), 2);
  assert.equal(stepAmong(3, -1, "ArrowDown"), 1); // from the box itself: as from the first
});

test("other keys, and no options, move nothing", () => {
  assert.equal(stepAmong(3, 0, "Enter"), null);
  assert.equal(stepAmong(3, 0, "Tab"), null);
  assert.equal(stepAmong(0, -1, "ArrowDown"), null);
});
