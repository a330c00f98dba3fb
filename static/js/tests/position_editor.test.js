// The position editor's state (position_editor.js): balls kept inside the cushions, colours
// snapped to their spots, the keys' moves, adding and removing, and what is sent to save.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PositionEditor, SHIFT_STEP_MM, STEP_MM, WHITE, ballsOf } from "../position_editor.js";
import { CONSTANTS } from "./fixture.js";

const TABLE = CONSTANTS.table;
const R = TABLE.ball_radius;

test("every ball a table holds, listed cue ball, reds, colours", () => {
  const editor = new PositionEditor(TABLE);
  assert.equal(editor.ids[0], WHITE);
  assert.equal(editor.ids.filter((id) => id.startsWith("red")).length, 15);
  assert.deepEqual(editor.ids.slice(-TABLE.colours.length), TABLE.colours);
  assert.deepEqual(editor.onTable(), []);
  assert.equal(editor.missing().length, editor.ids.length);
});

test("a drop is kept inside the cushions' faces", () => {
  const editor = new PositionEditor(TABLE);
  const at = editor.place(WHITE, [TABLE.half_width * 2, -TABLE.half_length * 2]);
  assert.deepEqual(at, [TABLE.half_width - R, -(TABLE.half_length - R)]);
  assert.deepEqual(editor.place("red3", [Number.NaN, 0]), [0, 0]);
});

test("a colour dropped near its spot lands on it; elsewhere where it was dropped", () => {
  const editor = new PositionEditor(TABLE);
  const spot = TABLE.spots.black;
  assert.deepEqual(editor.place("black", [spot[0] + R / 2, spot[1] - R / 3]), spot);
  assert.deepEqual(editor.place("black", [spot[0] + 3 * R, spot[1]]), [spot[0] + 3 * R, spot[1]]);
  assert.deepEqual(editor.place("red1", [1.234, -5.678]), [1.234, -5.678]);
  // A red has no spot: near the black's spot it stays where it was put.
  assert.deepEqual(editor.place("red2", [spot[0] + 1, spot[1]]), [spot[0] + 1, spot[1]]);
});

test("the keys move the selected ball a millimetre, or ten, and not past a cushion", () => {
  const editor = new PositionEditor(TABLE, { white: [0, 0], pink: TABLE.spots.pink });
  assert.equal(editor.selected, WHITE);
  assert.deepEqual(editor.nudge(STEP_MM, 0), [1, 0]);
  assert.deepEqual(editor.nudge(0, -SHIFT_STEP_MM), [1, -10]);
  editor.select("pink");
  const [x, y] = TABLE.spots.pink;
  // No snap back to the spot: a press always moves.
  assert.deepEqual(editor.nudge(STEP_MM, 0), [x + 1, y]);
  editor.place("pink", [TABLE.half_width - R, y]);
  assert.deepEqual(editor.nudge(SHIFT_STEP_MM, 0), [TABLE.half_width - R, y]);
  assert.equal(new PositionEditor(TABLE).nudge(1, 1), null);
});

test("an added colour goes on its spot, or somewhere free; removed, the next is selected", () => {
  const editor = new PositionEditor(TABLE);
  assert.deepEqual(editor.add("blue"), TABLE.spots.blue);
  const white = editor.add(WHITE);
  assert.ok(editor.free(white, WHITE));
  assert.equal(editor.overlaps().length, 0);
  assert.equal(editor.add(WHITE), null, "a ball is on the table once");
  assert.equal(editor.add("red16"), null, "a ball no table holds");
  editor.place("red1", TABLE.spots.blue);
  editor.select("blue");
  assert.deepEqual(editor.overlaps(), [["red1", "blue"]]);
  assert.ok(editor.remove());
  assert.equal(editor.selected, "red1", "the next on the list");
  assert.deepEqual(editor.onTable(), [WHITE, "red1"]);
  assert.ok(editor.missing().includes("blue"));
  assert.equal(editor.remove("blue"), false);
});

test("touching balls do not overlap; the ball under a point is found", () => {
  const editor = new PositionEditor(TABLE, { red1: [0, 0], red2: [2 * R, 0] });
  assert.deepEqual(editor.overlaps(), []);
  assert.equal(editor.hit([2 * R - R / 2, 0]), "red2");
  assert.equal(editor.hit([R / 3, 0]), "red1");
  assert.equal(editor.hit([0, 3 * R]), null);
  assert.equal(editor.hit([0, 3 * R], 4 * R), "red1", "a finger's reach");
});

test("the payload: the balls and the referee's facts; in hand, no cue ball", () => {
  const editor = new PositionEditor(TABLE, ballsOf({ balls: { white: [0, -1100], red1: [0, 900], red99: [0, 0] } }));
  assert.deepEqual(editor.onTable(), [WHITE, "red1"]);
  assert.deepEqual(editor.payload({ on: "red", striker: "B", scores: [12, 3], in_hand: false }), {
    balls: { white: [0, -1100], red1: [0, 900] }, on: "red", striker: "B", in_hand: false,
    scores: { A: 12, B: 3 },
  });
  assert.deepEqual(Object.keys(editor.payload({ in_hand: true }).balls), ["red1"]);
  assert.deepEqual(ballsOf(null), {});
});
