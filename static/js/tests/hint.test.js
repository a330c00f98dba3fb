// The hint at a practice table (hint.js): the server's answer checked, shown only with the
// position it was asked at, refusals worded by code, the request sent with the CSRF token.

import assert from "node:assert/strict";
import { test } from "node:test";

import { askHint, hintCue, hintShown, hintText, parseHint, refusalKey } from "../hint.js";
import { t } from "../i18n.js";
import { powerText } from "../panels.js";
import { spinLabel } from "../story.js";

const ANSWER = {
  version: 7, seat: "A", kind: "pot", leave: [100.5, -300],
  aim: { angle: 1.2, speed: 2.5, side: 0, height: -0.25, nominated: null, cue_ball: null },
};

test("an answer with a finite aim is a hint; anything else is not", () => {
  const hint = parseHint(ANSWER);
  assert.deepEqual(hint.aim, { angle: 1.2, speed: 2.5, side: 0, height: -0.25, cue_ball: null });
  assert.deepEqual(hint.leave, [100.5, -300]);
  assert.equal(parseHint({ ...ANSWER, aim: { ...ANSWER.aim, angle: "1" } }), null);
  assert.equal(parseHint({ ...ANSWER, version: null }), null);
  assert.equal(parseHint({ ...ANSWER, aim: { ...ANSWER.aim, cue_ball: [1] } }), null);
  assert.equal(parseHint({ ...ANSWER, leave: "x" }).leave, null);
  assert.equal(parseHint(null), null);
});

test("a hint is shown only with the live position it was asked at", () => {
  const hint = parseHint(ANSWER);
  assert.equal(hintShown(hint, { status: "live", version: 7 }), true);
  assert.equal(hintShown(hint, { status: "live", version: 8 }), false);
  assert.equal(hintShown(hint, { status: "finished", version: 7 }), false);
  assert.equal(hintShown(null, { status: "live", version: 7 }), false);
});

test("the stroke starts where the cue ball lies, or where the hint places it in hand", () => {
  const hint = parseHint(ANSWER);
  assert.deepEqual(hintCue(hint, { white: [1, 2] }), [1, 2]);
  const inHand = parseHint({ ...ANSWER, aim: { ...ANSWER.aim, cue_ball: [150, -1150] } });
  assert.deepEqual(hintCue(inHand, {}), [150, -1150]);
});

test("refusals the page words itself, and one word for the rest", () => {
  assert.equal(refusalKey("rate_limited"), "advice.rate_limited");
  assert.equal(refusalKey("no_stroke"), "advice.no_stroke");
  // No engine help while it matters: a player of a live match, a live match's position.
  assert.equal(refusalKey("playing"), "advice.playing");
  assert.equal(refusalKey("live_position"), "advice.live_position");
  assert.equal(refusalKey("teapot"), "advice.failed");
});

test("the request is a POST with the CSRF token; a refusal gives its code", async () => {
  const sent = [];
  const reply = (status, body) => async (url, init) => {
    sent.push({ url, init });
    return { ok: status < 400, json: async () => body };
  };
  const ok = await askHint("/computer/hint/3/", "tok", reply(200, ANSWER));
  assert.equal(ok.hint.version, 7);
  assert.equal(sent[0].url, "/computer/hint/3/");
  assert.equal(sent[0].init.method, "POST");
  assert.equal(sent[0].init.headers["X-CSRFToken"], "tok");
  assert.deepEqual(await askHint("/h", "t", reply(429, { code: "rate_limited" })),
    { code: "rate_limited" });
  assert.deepEqual(await askHint("/h", "t", reply(200, { nonsense: 1 })), { code: "failed" });
  const offline = async () => {
    throw new TypeError("network");
  };
  assert.deepEqual(await askHint("/h", "t", offline), { code: "offline" });
});

test("the hint says its stroke's kind, power and spin in the controls' words", () => {
  const hint = parseHint(ANSWER);
  const { speed, side, height } = hint.aim;
  const said = hintText(hint);
  assert.ok(said.startsWith(t("advice.kind.pot")), said);
  assert.ok(said.endsWith(t("advice.stroke", { power: powerText(speed), spin: spinLabel(side, height) })), said);
  assert.match(said, /Power 2\.5 m\/s, screw /);
});
