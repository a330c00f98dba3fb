// The coach's analysis on the replay page (analysis.js): the server's answer checked, marks
// found by their event's version, the players' marks counted, the words, the requests.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  chanceLine, chancePoints, fetchAnalysis, markText, parseAnalysis, pending, refusalKey,
  statusText, summary,
} from "../analysis.js";

const STROKE = {
  index: 0, seat: "A", lost: 9.24, best_value: 12, played_value: 2.76, mark: "blunder",
  reason: "easy_pot", best_kind: "pot", played_option: "",
  best: { angle: 1.5, speed: 2, side: 0, height: 0.2, nominated: null, cue_ball: [150, -1150] },
  best_leave: [10, 20], chance: 0.6, accuracy: 12.5,
};
const CHOICE = {
  index: 3, seat: "B", lost: 0.5, best_value: 3, played_value: 2.5, mark: null, reason: null,
  best_kind: "play", played_option: "put_back", best: null, best_leave: null,
};

test("an answer's strokes are kept by their event's version, checked", () => {
  const a = parseAnalysis({ status: "running", done: 2, total: 5, strokes: [STROKE, CHOICE, { index: "x" }] });
  assert.equal(a.status, "running");
  assert.equal(a.done, 2);
  assert.equal(a.total, 5);
  assert.deepEqual([...a.byVersion.keys()], [2, 5]); // the commands follow the first event
  const s = a.byVersion.get(2);
  assert.equal(s.mark, "blunder");
  assert.equal(s.reason, "easy_pot");
  assert.deepEqual(s.aim.cue_ball, [150, -1150]);
  assert.deepEqual(s.leave, [10, 20]);
  assert.equal(a.byVersion.get(5).aim, null); // a choice has no stroke to draw
  assert.equal(parseAnalysis({ status: "teapot" }).status, "none");
  assert.equal(parseAnalysis(null).byVersion.size, 0);
  // A mark the page does not know is no mark.
  assert.equal(parseAnalysis({ strokes: [{ ...STROKE, mark: "bad" }] }).byVersion.get(2).mark, null);
});

test("the page asks again while the analysis is queued or running", () => {
  assert.equal(pending(parseAnalysis({ status: "queued" })), true);
  assert.equal(pending(parseAnalysis({ status: "running" })), true);
  assert.equal(pending(parseAnalysis({ status: "done" })), false);
  assert.equal(pending(parseAnalysis({ status: "none" })), false);
});

test("each player's marks and points lost", () => {
  const a = parseAnalysis({
    status: "done", accuracy: { A: 61.44, B: null },
    strokes: [STROKE, CHOICE, { ...STROKE, index: 4, lost: 2.1, mark: "inaccuracy" }],
  });
  assert.deepEqual(summary(a), {
    A: { inaccuracy: 1, mistake: 0, blunder: 1, lost: 11.3, accuracy: "61" },
    B: { inaccuracy: 0, mistake: 0, blunder: 0, lost: 0.5, accuracy: "–" },
  });
});

test("the graph follows A's chance through the frame", () => {
  const a = parseAnalysis({
    strokes: [{ ...CHOICE, chance: 0.25 }, STROKE, { ...STROKE, index: 1, seat: "B", chance: 0.7 }],
  });
  // In the frame's order; B's chance turned into A's.
  const line = chanceLine(a);
  assert.deepEqual(line.map(([i]) => i), [0, 1, 2]);
  assert.equal(line[0][1], 0.6);
  assert.ok(Math.abs(line[1][1] - 0.3) < 1e-9);
  assert.equal(line[2][1], 0.75); // B's choice: 1 − 0.25
  assert.equal(chancePoints(line, 100, 40), "0.0,16.0 50.0,28.0 100.0,10.0");
});

test("the status and a mark in words", () => {
  assert.equal(statusText(parseAnalysis({ status: "running", done: 12, total: 48 })), "12 of 48 strokes analysed…");
  assert.equal(statusText(parseAnalysis({ status: "none" })), "");
  const a = parseAnalysis({ status: "done", strokes: [STROKE] });
  assert.equal(markText(a.byVersion.get(2)), "Blunder: an easy pot not taken (points lost: 9.2).");
  assert.equal(markText(parseAnalysis({ strokes: [CHOICE] }).byVersion.get(5)), "");
  assert.equal(refusalKey("match_live"), "coach.refused.match_live");
  assert.equal(refusalKey("teapot"), "coach.refused.failed");
});

test("asking is a POST with the CSRF token, reading a GET; a refusal gives its code", async () => {
  const sent = [];
  const reply = (status, body) => async (url, init) => {
    sent.push({ url, init });
    return { ok: status < 400, json: async () => body };
  };
  const asked = await fetchAnalysis("/computer/analysis/3/1/", "tok", reply(202, { status: "queued" }));
  assert.equal(asked.analysis.status, "queued");
  assert.equal(sent[0].init.method, "POST");
  assert.equal(sent[0].init.headers["X-CSRFToken"], "tok");
  const read = await fetchAnalysis("/computer/analysis/3/1/", null, reply(200, { status: "done" }));
  assert.equal(read.analysis.status, "done");
  assert.equal(sent[1].init.method, undefined);
  const refused = await fetchAnalysis("/x/", "tok", reply(403, { code: "not_a_player" }));
  assert.deepEqual(refused, { code: "not_a_player" });
  const broken = await fetchAnalysis("/x/", "tok", async () => { throw new Error("down"); });
  assert.deepEqual(broken, { code: "failed" });
});
