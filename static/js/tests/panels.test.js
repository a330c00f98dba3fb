// What people read about results: the server names how each frame and the match ended.

import assert from "node:assert/strict";
import { test } from "node:test";

import { frameResult, matchResult } from "../panels.js";

const players = { A: "alice", B: "bob" };
const frame = (termination, winner = "A") => ({
  number: 2, winner, scores: { A: 0, B: 35 }, termination,
});
const finished = (result, frames = { A: 1, B: 0 }) => ({ result, scoreboard: { frames } });

test("a frame: the winner's score first, and how it ended unless by the last ball", () => {
  assert.equal(frameResult(frame("potted_black", "B"), players), "Frame 2 to bob, 35–0");
  assert.equal(frameResult(frame("claimed"), players), "Frame 2 to alice, 0–35 (claimed)");
  assert.equal(frameResult(frame("conceded"), players), "Frame 2 to alice, 0–35 (bob conceded)");
  assert.equal(
    frameResult(frame("three_misses"), players),
    "Frame 2 to alice, 0–35 (bob missed three times)",
  );
  assert.equal(
    frameResult(frame("foul_on_black"), players),
    "Frame 2 to alice, 0–35 (foul on the black)",
  );
});

test("the match: won on frames, conceded or claimed", () => {
  const won = finished({ termination: "frames", winner: "B" }, { A: 1, B: 2 });
  assert.equal(matchResult(won, players), "bob wins the match 2–1");
  const conceded = finished({ termination: "conceded", winner: "A" });
  assert.equal(matchResult(conceded, players), "alice wins the match 1–0 (bob conceded)");
  const claimed = finished({ termination: "claimed", winner: "A" });
  assert.equal(matchResult(claimed, players), "alice wins the match 1–0 (claimed)");
  assert.equal(matchResult(finished(null), players), "The match is over");
});
