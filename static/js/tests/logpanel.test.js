// The log's frame picker (logpanel.js): the frame being played is "(now)" only while the
// match goes on.

import assert from "node:assert/strict";
import { test } from "node:test";

import { t } from "../i18n.js";
import { frameOptions } from "../logpanel.js";

const words = (options) => options.map(({ n, key }) => t(key, { n }));

test("while the match goes on, the frame being played is the one now", () => {
  assert.deepEqual(words(frameOptions(3, false)), ["Frame 3 (now)", "Frame 2", "Frame 1"]);
});

test("once the match has ended, no frame is now", () => {
  assert.deepEqual(words(frameOptions(3, true)), ["Frame 3", "Frame 2", "Frame 1"]);
  assert.deepEqual(words(frameOptions(1, true)), ["Frame 1"]);
});
