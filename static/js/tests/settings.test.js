// A player's settings: off by default, kept in storage, a broken or refused storage harmless.

import assert from "node:assert/strict";
import { test } from "node:test";

import { DEFAULTS, Settings } from "../settings.js";

const storage = () => {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v), items };
};

test("sound is on and keeping the stroke off until chosen, and the choice is kept", () => {
  const s = storage();
  const first = new Settings(s);
  assert.deepEqual(first.values, { ...DEFAULTS });
  assert.equal(first.get("sound"), true);
  first.set("sound", false);
  first.set("keepStroke", true);
  const again = new Settings(s);
  assert.equal(again.get("sound"), false);
  assert.equal(again.get("keepStroke"), true);
  assert.equal(again.get("zoom"), false);
});

test("bad or refused storage falls back to the defaults", () => {
  const broken = { getItem: () => "{not json", setItem: () => { throw new Error("full"); } };
  const s = new Settings(broken);
  assert.equal(s.get("sound"), true);
  s.set("sound", false); // refused: kept for the page
  assert.equal(s.get("sound"), false);
  assert.equal(new Settings(null).get("keepStroke"), false);
});
