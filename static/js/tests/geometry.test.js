// The page's geometry from the server's figures. The placement check is also held equal to
// the rule over a grid by tests/test_js_constants.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Geometry, pocketKind } from "../geometry.js";
import { CONSTANTS } from "./fixture.js";

const T = CONSTANTS.table;
const g = new Geometry(T);
const R = T.ball_radius;
const [cx, cy] = T.d_centre;

test("the line and the arc belong to the D", () => {
  assert.ok(g.inD([cx, cy]));
  assert.ok(g.inD([cx + T.d_radius, T.baulk_y]));
  assert.ok(g.inD([cx, cy - T.d_radius]));
  assert.ok(!g.inD([cx, cy - T.d_radius - 0.01]));
  assert.ok(!g.inD([cx, T.baulk_y + 0.01]));
});

test("placement: outside the D, touching a ball, or allowed", () => {
  const balls = { white: [cx, cy - 100], brown: T.spots.brown };
  assert.deepEqual(g.placementRefusal([0, 0], balls), { code: "cue_ball_outside_d" });
  const touching = [cx, cy - 2 * R];
  assert.deepEqual(g.placementRefusal(touching, balls), {
    code: "cue_ball_overlaps", ball: "brown",
  });
  assert.equal(g.placementRefusal([cx, cy - 2 * R - 0.001], balls), null);
  // The cue ball's own position (it is in hand) is no obstacle.
  assert.equal(g.placementRefusal([cx, cy - 100], balls), null);
});

test("near the D: the D and a ball's width around it", () => {
  assert.ok(g.nearD([cx, cy - T.d_radius - R]));
  assert.ok(g.nearD([cx, T.baulk_y + R]));
  assert.ok(!g.nearD([cx, T.baulk_y + R + 0.01]));
  assert.ok(!g.nearD([cx, cy - T.d_radius - 2 * R - 0.01]));
});

test("the aim meets the first ball in its path, else the cushion", () => {
  const cue = [0, -1000];
  const hit = g.predict(cue, Math.PI / 2, { white: cue, blue: [10, 0], pink: [0, 500] });
  assert.equal(hit.target, "blue");
  assert.ok(Math.abs(Math.hypot(hit.ghost[0] - 10, hit.ghost[1]) - 2 * R) < 1e-9);
  const miss = g.predict(cue, 0, { white: cue, blue: [10, 0] });
  assert.equal(miss.target, null);
  assert.deepEqual(miss.ghost, [T.half_width - R, -1000]);
});

test("six cushion noses, each stopping where a knuckle touches its face", () => {
  const noses = g.cushions();
  assert.equal(noses.length, 6);
  const ends = noses.flatMap((n) => [n.a, n.b]);
  for (const pocket of T.pockets) {
    for (const jaw of pocket.jaws) {
      // The face is tangent to the knuckle where the face stops.
      const touching = ends.filter(
        (e) => Math.abs(Math.hypot(e[0] - jaw.centre[0], e[1] - jaw.centre[1]) - jaw.radius) < 1e-9,
      );
      assert.equal(touching.length, 1, JSON.stringify(jaw));
    }
  }
  for (const { a, b, outward } of noses) {
    // On a cushion face, and the mouth between two noses is the pocket's width.
    const across = outward[0] !== 0 ? 0 : 1;
    const face = across === 0 ? T.half_width : T.half_length;
    assert.equal(Math.abs(a[across]), face);
    assert.equal(Math.abs(b[across]), face);
  }
  const middle = T.pockets.find((p) => pocketKind(p) === "middle");
  const right = noses.filter((n) => n.outward[0] === Math.sign(middle.mouth[0]));
  const gap = right.map((n) => [n.a[1], n.b[1]]).sort((p, q) => p[0] - q[0]);
  assert.equal(gap[1][0] - gap[0][1], middle.mouth_width);
});

test("a refused placement outside the D names a ball it would also touch", () => {
  const balls = { brown: T.spots.brown };
  // Just over the baulk line, against the brown: both reasons.
  assert.deepEqual(g.placementRefusal([cx + R, T.baulk_y + 5], balls), {
    code: "cue_ball_outside_d", ball: "brown",
  });
});

test("the default aim: the nearest ball on that a straight line reaches", () => {
  // The cue ball just off the long axis behind the brown: the blue and the pink stand
  // between it and the apex red, the nearest red.
  const cue = [60, -1250];
  const balls = {
    white: cue, brown: T.spots.brown, blue: T.spots.blue, pink: T.spots.pink,
    red1: [0, T.spots.pink[1] + 2 * R + 1], red2: [-R - 0.5, T.spots.pink[1] + 2 * R + 1 + 1.8 * R],
    red3: [R + 0.5, T.spots.pink[1] + 2 * R + 1 + 1.8 * R],
  };
  const on = ["red1", "red2", "red3"];
  const straight = Math.atan2(balls.red1[1] - cue[1], balls.red1[0] - cue[0]);
  assert.equal(g.predict(cue, straight, balls).target, "blue"); // full on red1: blocked
  const aim = g.aimAt(cue, on, balls);
  assert.ok(aim, "some red can be hit");
  assert.equal(g.predict(cue, aim.angle, balls).target, aim.target);
  assert.ok(on.includes(aim.target));
  // Nothing reachable: no aim.
  const walled = { white: [0, 0], red1: [0, 400], blue: [0, 100], green: [-60, 100], yellow: [60, 100] };
  assert.equal(g.clearAngle([0, 0], "red1", { ...walled, pink: [-120, 100], black: [120, 100] }), null);
});

test("placing from hand by keyboard: a free point in the D with a line to a ball on", () => {
  const balls = { brown: T.spots.brown, green: T.spots.green, yellow: T.spots.yellow,
    red1: [0, 900] };
  const p = g.placeFor(["red1"], balls);
  assert.ok(p && g.placementRefusal(p, balls) === null);
  const aim = g.aimAt(p, ["red1"], balls);
  assert.equal(aim.target, "red1");
});

test("the break-off's default aim is thin on the outside of the end red of the back row", () => {
  // The pack as the server racks it (rules/table.py initial_rack), close enough for the aim.
  const balls = { ...T.spots };
  const step = 2 * R + 0.1;
  const apex = T.spots.pink[1] + 2 * R + 1;
  const reds = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col <= row; col++) {
      const id = `red${reds.length + 1}`;
      balls[id] = [(col - row / 2) * step, apex + row * step * Math.sqrt(3) / 2];
      reds.push(id);
    }
  }
  const right = [150, T.baulk_y];
  const aim = g.breakOffAim(right, reds, balls);
  assert.equal(aim.target, "red15"); // the back row's end on the cue ball's side
  const red = balls.red15;
  const full = Math.atan2(red[1] - right[1], red[0] - right[0]);
  assert.ok(aim.angle < full, "outside: the path passes the red on the cushion's side");
  // Thin: the path passes 0.8 of a ball outside the red's centre.
  const d = Math.hypot(red[0] - right[0], red[1] - right[1]);
  assert.ok(Math.abs(Math.sin(full - aim.angle) * d - 0.8 * 2 * R) < 1e-9);
  // From the green's side, the other end, mirrored.
  const left = g.breakOffAim([-150, T.baulk_y], reds, balls);
  assert.equal(left.target, "red11");
  assert.ok(Math.abs(left.angle - (Math.PI - aim.angle)) < 1e-9);
  // Not full into the pack, as the ordinary default aim would be.
  assert.notEqual(g.aimAt(right, reds, balls).angle, aim.angle);
});
