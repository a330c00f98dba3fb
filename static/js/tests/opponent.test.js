// The striker's relayed aim and the computer's "thinking" (opponent.js): kept for the position
// they were made at, drawn once that position is on screen and nothing moves; and the skip
// that ends a stroke's playback at once (playback.js), which brings such an aim on screen.

import assert from "node:assert/strict";
import { test } from "node:test";

import { computerLevel, shownName } from "../clubtext.js";
import { playerName, setLanguage } from "../i18n.js";
import { forShown, held, stale, thinkingShown } from "../opponent.js";
import { Playback } from "../playback.js";

const at = (version, toAct = "B") => ({
  version, frame: { balls: { white: [0, 0] } }, scoreboard: { to_act: toAct },
});
// The white rolls 1000 mm along x in 2 s.
const SHOT = { trajectories: { white: [[0, 1, 0, 0, 1000, 0, -500, 0], [2, 3, 1000, 0]] } };
const stroke = (version) => ({ version, kind: "stroke", request: {}, shot: SHOT, snapshot: at(version) });
const AIM = { type: "aim", seat: "B", angle: 1, speed: 3, side: 0, height: 0, cue_ball: null };

test("an aim is held for its own version, or for the last event received", () => {
  assert.equal(held({ ...AIM, version: 7 }, 9).version, 7);
  assert.equal(held(AIM, 9).version, 9);
  assert.equal(stale(held(AIM, 4), at(5)), true);
  assert.equal(stale(held(AIM, 5), at(5)), false);
  assert.equal(stale(held(AIM, 6), at(5)), false); // for a position still being played back
});

test("the computer's aim that comes during the playback is drawn once the table is still", () => {
  const playback = new Playback(1);
  playback.reset(at(4, "A"));
  const queue = [stroke(5)];
  const shown = [];
  playback.advance(0, queue, (event) => shown.push(event.version));
  // The server's clock says the table is still 75 ms before ours: its aim for version 5.
  const aim = held({ ...AIM, version: 5 }, 5);
  playback.advance(1925, queue, () => {});
  assert.equal(forShown(aim, playback.shown, Boolean(playback.anim)), null); // still rolling
  assert.equal(stale(aim, playback.shown), false); // ... and kept
  playback.advance(2001, queue, (event) => shown.push(event.version));
  assert.deepEqual(shown, [5]);
  assert.equal(stale(aim, playback.shown), false);
  assert.equal(forShown(aim, playback.shown, Boolean(playback.anim)), aim);
  // The next position drops it.
  playback.reset(at(6, "A"));
  assert.equal(stale(aim, playback.shown), true);
  assert.equal(forShown(aim, playback.shown, false), null);
});

test("skip ends the stroke moving at once: its final position and snapshot are shown", () => {
  const playback = new Playback(1);
  playback.reset(at(4, "A"));
  const queue = [stroke(5)];
  const shown = [];
  assert.equal(playback.skip(), false); // nothing moving
  playback.advance(0, queue, (event) => shown.push(event.version));
  playback.advance(100, queue, () => {});
  assert.ok(playback.balls.white[0] > 0 && playback.balls.white[0] < 1000);
  assert.equal(playback.skip(), true);
  playback.advance(101, queue, (event, before, final) => shown.push([event.version, final.white]));
  assert.deepEqual(shown, [[5, [1000, 0]]]);
  assert.equal(playback.anim, null);
  assert.equal(playback.shown.version, 5);
});

test("thinking shows while the computer is to act at the position shown, until its aim comes", () => {
  const thinking = { type: "thinking", seat: "B", version: 5 };
  assert.equal(thinkingShown(thinking, null, at(5), false), thinking);
  assert.equal(thinkingShown(thinking, null, at(5), true), null); // the balls still roll
  assert.equal(thinkingShown(thinking, null, at(4), false), null);
  assert.equal(thinkingShown(thinking, null, at(5, "A"), false), null);
  assert.equal(thinkingShown(thinking, { ...AIM, version: 5 }, at(5), false), null);
  assert.equal(thinkingShown(thinking, { ...AIM, version: 4 }, at(5), false), thinking);
});

test("the computer's users are named by level, in English and Russian", () => {
  assert.equal(computerLevel("computer-pro"), "pro");
  assert.equal(computerLevel("computer-pros"), null);
  assert.equal(computerLevel("alice"), null);
  assert.equal(shownName("computer-club", null, { club: "Computer · Club" }), "Computer · Club");
  setLanguage("en");
  assert.equal(playerName("computer-pro"), "Computer · Pro");
  assert.equal(playerName("ann (guest 2)"), "ann 2 (guest)");
  setLanguage("ru");
  assert.equal(playerName("computer-pro"), "Компьютер · Профи");
  assert.equal(playerName("computer-novice"), "Компьютер · Новичок");
  setLanguage("en");
});
