// The aiming aids' verdicts (aids.js): a foul's ghost from what the server says is on, never
// from a rule of the page's own; the match's guide from the page's attribute.

import assert from "node:assert/strict";
import { test } from "node:test";

import { firstContactFoul, foulWords, guideOf, turnRules } from "../aids.js";
import { setLanguage } from "../i18n.js";

const reds = { ballsOn: ["red1", "red7"], freeBall: false, on: "red", nominated: null };

test("a ball on is a fair first contact; any other is a foul", () => {
  assert.equal(firstContactFoul("red7", reds), null);
  assert.deepEqual(firstContactFoul("blue", reds), { ball: "blue" });
  // No contact seen, or nothing told of the turn (a hint, a replay): no verdict.
  assert.equal(firstContactFoul(null, reds), null);
  assert.equal(firstContactFoul("blue", null), null);
});

test("with a free ball any ball may be hit first, unless another is nominated", () => {
  const free = { ...reds, freeBall: true };
  assert.equal(firstContactFoul("blue", free), null);
  assert.equal(firstContactFoul("blue", { ...free, nominated: "blue" }), null);
  assert.equal(firstContactFoul("red1", { ...free, nominated: "blue" }), null);
  assert.deepEqual(firstContactFoul("pink", { ...free, nominated: "blue" }),
    { ball: "pink", nominated: "blue" });
});

test("a colour nominated is the one ball that may be hit first", () => {
  const colours = { ballsOn: ["yellow", "green", "blue", "pink"], freeBall: false, on: "colour" };
  assert.equal(firstContactFoul("pink", { ...colours, nominated: null }), null);
  assert.equal(firstContactFoul("pink", { ...colours, nominated: "pink" }), null);
  assert.deepEqual(firstContactFoul("blue", { ...colours, nominated: "pink" }),
    { ball: "blue", nominated: "pink" });
  assert.deepEqual(firstContactFoul("red1", { ...colours, nominated: null }), { ball: "red1" });
});

test("the reason in words, in English and Russian", () => {
  assert.equal(foulWords({ ball: "blue" }, reds),
    "Foul: the cue ball would hit the blue first (red on)");
  assert.equal(foulWords({ ball: "red3" }, { ...reds, on: "colour" }),
    "Foul: the cue ball would hit a red first (a colour on)");
  assert.equal(foulWords({ ball: "blue", nominated: "pink" }, reds),
    "Foul: the cue ball would hit the blue first, not the pink nominated");
  setLanguage("ru");
  try {
    assert.equal(foulWords({ ball: "blue" }, reds),
      "Нарушение: биток первым коснётся синего (на очереди красный)");
    assert.equal(foulWords({ ball: "blue", nominated: "pink" }, reds),
      "Нарушение: биток первым коснётся синего, а объявлен розовый");
  } finally {
    setLanguage("en");
  }
});

test("the turn's rules come from the snapshot; the guide from the page", () => {
  const snap = { turn: { balls_on: ["red1"] }, frame: { free_ball: true },
    scoreboard: { on: "red" } };
  assert.deepEqual(turnRules(snap, "blue"),
    { ballsOn: ["red1"], freeBall: true, on: "red", nominated: "blue" });
  assert.equal(turnRules(null), null);
  assert.equal(guideOf("short"), "short");
  assert.equal(guideOf("full"), "full");
  assert.equal(guideOf(undefined), "full");
});
