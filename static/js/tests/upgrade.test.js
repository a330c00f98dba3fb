// A page opened before an upgrade reloads itself once when the server speaks a new protocol.

import assert from "node:assert/strict";
import { test } from "node:test";

import { isProtocolRefusal, reloadForNewProtocol } from "../upgrade.js";

function memory() {
  const items = new Map();
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
  };
}

test("the protocol refusal is recognised, nothing else", () => {
  assert.ok(isProtocolRefusal({ type: "error", code: "protocol", message: "reload" }));
  assert.ok(!isProtocolRefusal({ type: "error", code: "rate_limited" }));
  assert.ok(!isProtocolRefusal({ type: "welcome" }));
  assert.ok(!isProtocolRefusal(null));
});

test("reloads once, not in a loop, and again after a while", () => {
  const storage = memory();
  let reloads = 0;
  const reload = () => (reloads += 1);
  assert.equal(reloadForNewProtocol({ storage, reload, now: 1_000_000 }), true);
  // The reloaded page still speaks the old protocol (a stale cache): it stays.
  assert.equal(reloadForNewProtocol({ storage, reload, now: 1_005_000 }), false);
  assert.equal(reloads, 1);
  // A later upgrade, long after: it may reload again.
  assert.equal(reloadForNewProtocol({ storage, reload, now: 1_000_000 + 10 * 60 * 1000 }), true);
  assert.equal(reloads, 2);
});

test("no storage, no reload (it could not be counted)", () => {
  const storage = { getItem: () => { throw new Error("denied"); }, setItem: () => {} };
  let reloads = 0;
  assert.equal(reloadForNewProtocol({ storage, reload: () => { reloads++; } }), false);
  assert.equal(reloads, 0);
});
