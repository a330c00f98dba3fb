// The opponent field's names (names.js): a whole answer answers longer typings without asking
// again, a late answer never covers a newer one, a refusal changes nothing.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fold, known, offerNames } from "../names.js";

test("a whole answer answers every longer typing; a partial one only itself", () => {
  const cache = new Map([
    ["al", { names: ["Alfred", "alice", "Алиса"].slice(0, 2), whole: true }],
    ["z", { names: ["zed00", "zed01"], whole: false }],
  ]);
  assert.deepEqual(known(cache, "ALI"), ["alice"]);
  assert.deepEqual(known(cache, " al "), ["Alfred", "alice"]);
  assert.deepEqual(known(cache, "alx"), []);
  assert.deepEqual(known(cache, "z"), ["zed00", "zed01"]);
  assert.equal(known(cache, "ze"), null); // more than were sent may begin so: ask
  assert.equal(known(cache, "b"), null);
  assert.deepEqual(known(cache, "   "), []);
  assert.equal(fold("АЛИСА"), "алиса");
});

function fakes() {
  const handlers = [];
  const input = { value: "", addEventListener: (type, fn) => handlers.push([type, fn]) };
  const list = { shown: [], replaceChildren: (...o) => { list.shown = o; } };
  return { input, list, handlers };
}

test("the list is filled from the server's answer, asked once for a name typed on", async () => {
  const { input, list, handlers } = fakes();
  const asked = [];
  const fetch = async (url) => {
    asked.push(url);
    return { ok: true, json: async () => ({ names: ["alice", "alina"], whole: true }) };
  };
  const update = offerNames(input, list, { url: "/member-names/", fetch, option: (n) => n });
  assert.equal(handlers[0][0], "input");
  input.value = "al";
  await update();
  assert.deepEqual(list.shown, ["alice", "alina"]);
  input.value = "alic";
  await update();
  assert.deepEqual(list.shown, ["alice"]);
  assert.deepEqual(asked, ["/member-names/?q=al"]);
  input.value = "Ал и";
  await update();
  assert.deepEqual(asked.at(-1), "/member-names/?q=%D0%90%D0%BB%20%D0%B8");
});

test("a late answer is not shown over a newer one; a refusal leaves the list", async () => {
  const { input, list } = fakes();
  const waiting = [];
  const fetch = (url) => new Promise((resolve) => waiting.push([url, resolve]));
  const answer = (names) => ({ ok: true, json: async () => ({ names, whole: false }) });
  const update = offerNames(input, list, { url: "/n/", fetch, option: (n) => n });
  input.value = "a";
  const first = update();
  input.value = "b";
  const second = update();
  waiting[1][1](answer(["bob"]));
  await second;
  waiting[0][1](answer(["alice"]));
  await first;
  assert.deepEqual(list.shown, ["bob"]);
  input.value = "c";
  const refused = update();
  waiting[2][1]({ ok: false, json: async () => ({ names: [] }) });
  await refused;
  assert.deepEqual(list.shown, ["bob"]);
});
