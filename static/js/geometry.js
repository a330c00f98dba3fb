// The table's geometry for the page, from the server's figures only (game/protocol/constants.py
// builds them from rules/table.py): where the cue ball may be placed from hand, where the cue
// ball would go first, and where the cushion faces stop at the jaws. Pure: no DOM.
//
// Table coordinates are millimetres with the origin on the centre spot, x to the right as
// seen from the baulk end, y towards the top cushion.

// Tolerances of rules.table.in_d and rules.geometry.occupied: a point on the line or the arc
// is in the D, and a ball just touching another is refused (tests/test_js_constants.py holds
// this check equal to the rule).
const D_EPS = 1e-9;
const TOUCH_EPS = 1e-7;
// Where the default aim may send the cue ball's centre past a ball's, in ball radii: full on
// first, then ever thinner either side (2 would be a touch).
// The break-off's default aim: the cue ball's path passes this many ball diameters outside the
// centre of the end red of the back row (thin, off the top and side cushions and back to
// baulk, as the computer's break-off is: docs/opponent.md, "The break-off").
const BREAK_OFF_THIN = 0.8;
const CONTACTS = [0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1, -1, 1.25, -1.25, 1.5, -1.5,
  1.75, -1.75, 1.9, -1.9];

export class Geometry {
  /** `table`: the `table` object of the page constants. */
  constructor(table) {
    this.table = table;
    this.R = table.ball_radius;
  }

  /** The line and the arc belong to the D. */
  inD([x, y]) {
    const { baulk_y: baulk, d_centre: [cx, cy], d_radius: radius } = this.table;
    return y <= baulk + D_EPS && Math.hypot(x - cx, y - cy) <= radius + D_EPS;
  }

  /** The D and a ball's width around it: a click there while placing is answered on the
   * table (a marker where the ball would go) rather than with "place it in the D". */
  nearD([x, y]) {
    const { baulk_y: baulk, d_centre: [cx, cy], d_radius: radius } = this.table;
    return y <= baulk + this.R && Math.hypot(x - cx, y - cy) <= radius + 2 * this.R;
  }

  /** Why the cue ball cannot be placed at `p` from hand, as the server's refusal code
   * (`cue_ball_outside_d`, or `cue_ball_overlaps` with the ball in the way), or null. A point
   * outside the D that would also touch a ball names that ball too, so the page can say
   * both ("outside the D, against the brown"), as a player clicking by the brown means. */
  placementRefusal(p, balls) {
    const touched = this.touching(p, balls);
    if (!this.inD(p)) {
      return touched ? { code: "cue_ball_outside_d", ball: touched } : { code: "cue_ball_outside_d" };
    }
    return touched ? { code: "cue_ball_overlaps", ball: touched } : null;
  }

  /** The first ball (not the cue ball) a ball at `p` would touch or overlap, or null. */
  touching(p, balls) {
    for (const [id, q] of Object.entries(balls)) {
      if (id === "white") continue;
      if (Math.hypot(p[0] - q[0], p[1] - q[1]) - 2 * this.R < TOUCH_EPS) return id;
    }
    return null;
  }

  /** An angle from `cue` at which the cue ball meets ball `id` before any other ball or a
   * cushion: full on if that line is clear, else the fullest clear contact either side (a
   * cut), or null if no straight line reaches it. */
  clearAngle(cue, id, balls) {
    const b = balls[id];
    const dx = b[0] - cue[0];
    const dy = b[1] - cue[1];
    const dist = Math.hypot(dx, dy);
    if (!(dist > 0)) return null;
    const centre = Math.atan2(dy, dx);
    // Offsets of the cue ball's path from the ball's centre, fullest first (2R: a touch).
    for (const k of CONTACTS) {
      const off = k * this.R;
      if (Math.abs(off) >= dist) continue;
      const angle = centre + Math.asin(off / dist);
      if (this.predict(cue, angle, balls).target === id) return angle;
    }
    return null;
  }

  /** The break-off's default aim from `cue`: thin on the outside of the end red of the back
   * row (`on`: the server's balls on, the reds), the end on the cue ball's side of the table.
   * {angle, target}, or null if that line does not meet that red first. */
  breakOffAim(cue, on, balls) {
    const reds = on.filter((id) => balls[id]);
    if (!reds.length) return null;
    const back = Math.max(...reds.map((id) => balls[id][1]));
    const row = reds.filter((id) => Math.abs(balls[id][1] - back) < 1);
    const side = cue[0] >= 0 ? 1 : -1;
    const end = row.reduce((a, b) => (balls[b][0] * side > balls[a][0] * side ? b : a));
    const p = balls[end];
    const d = Math.hypot(p[0] - cue[0], p[1] - cue[1]);
    const off = BREAK_OFF_THIN * 2 * this.R;
    if (!(d > off)) return null;
    // Outside: the path passes the red on the cushion's side of it.
    const outward = Math.sign(p[0]) || side;
    const angle = Math.atan2(p[1] - cue[1], p[0] - cue[0]) - outward * Math.asin(off / d);
    return this.predict(cue, angle, balls).target === end ? { angle, target: end } : null;
  }

  /** The default aim from `cue`: at the nearest ball on that can be hit (`on`: the server's
   * `turn.balls_on`), full on where the line is clear. {angle, target}, or null if no ball
   * on can be reached in a straight line (snookered). */
  aimAt(cue, on, balls) {
    const near = on
      .filter((id) => balls[id])
      .sort((a, b) => Math.hypot(balls[a][0] - cue[0], balls[a][1] - cue[1]) -
        Math.hypot(balls[b][0] - cue[0], balls[b][1] - cue[1]));
    for (const id of near) {
      const angle = this.clearAngle(cue, id, balls);
      if (angle !== null) return { angle, target: id };
    }
    return null;
  }

  /** Where to put the cue ball from hand when asked to choose (keyboard, touch): a point in
   * the D, clear of every ball, from which a ball on can be hit full on if any can, else hit
   * at all, else any free point. */
  placeFor(on, balls) {
    const { d_centre: [cx, cy], d_radius: radius } = this.table;
    const points = [];
    for (const r of [0.5, 0.75, 1]) {
      for (let k = 0; k <= 8; k++) {
        const a = Math.PI + (Math.PI * k) / 8; // the baulk side of the D
        points.push([cx + radius * r * Math.cos(a), cy + radius * r * Math.sin(a)]);
      }
    }
    points.sort((p, q) => Math.abs(p[0] - cx) - Math.abs(q[0] - cx));
    const free = points.filter((p) => !this.placementRefusal(p, balls));
    const aims = free.map((p) => ({ p, aim: this.aimAt(p, on, balls) })).filter((x) => x.aim);
    const full = aims.find(({ p, aim }) => {
      const b = balls[aim.target];
      return Math.abs(aim.angle - Math.atan2(b[1] - p[1], b[0] - p[0])) < 1e-9;
    });
    if (full) return full.p;
    return aims.length ? aims[0].p : free[0] || null;
  }

  /** How far a ball centre travels from `p` along (dx, dy) before it meets a cushion. */
  toCushion(p, dx, dy) {
    const limX = this.table.half_width - this.R;
    const limY = this.table.half_length - this.R;
    let wall = Infinity;
    if (dx > 1e-12) wall = Math.min(wall, (limX - p[0]) / dx);
    if (dx < -1e-12) wall = Math.min(wall, (-limX - p[0]) / dx);
    if (dy > 1e-12) wall = Math.min(wall, (limY - p[1]) / dy);
    if (dy < -1e-12) wall = Math.min(wall, (-limY - p[1]) / dy);
    return Math.max(0, wall);
  }

  /** The first ball (or cushion) the cue ball meets going from `cue` along `angle`: for the
   * aim line only, the server's physics decides what happens. */
  predict(cue, angle, balls) {
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    const R = this.R;
    let best = Infinity;
    let target = null;
    for (const [id, b] of Object.entries(balls)) {
      if (id === "white") continue;
      const ox = b[0] - cue[0];
      const oy = b[1] - cue[1];
      const along = ox * dx + oy * dy;
      if (along <= 0) continue;
      const perp2 = ox * ox + oy * oy - along * along;
      const reach2 = 4 * R * R - perp2;
      if (reach2 < 0) continue;
      const s = along - Math.sqrt(reach2);
      if (s >= -1e-6 && s < best) {
        best = Math.max(0, s);
        target = id;
      }
    }
    const wall = this.toCushion(cue, dx, dy);
    if (wall < best) {
      target = null;
      best = Math.max(0, wall);
    }
    const ghost = [cue[0] + dx * best, cue[1] + dy * best];
    if (!target) return { ghost, target: null };
    const b = balls[target];
    const nx = b[0] - ghost[0];
    const ny = b[1] - ghost[1];
    const n = Math.hypot(nx, ny) || 1;
    return { ghost, target, objectDir: [nx / n, ny / n], objectAt: b };
  }

  /** The six cushion noses, each from the jaw where its face starts to the jaw where it
   * stops: [{a, b, outward, pockets: [kind at a, kind at b]}], `a` before `b` along the face.
   * A knuckle touches its face where the face stops, so that point is the knuckle's centre
   * brought back onto the bed. */
  cushions() {
    const { half_width: hw, half_length: hl } = this.table;
    const faces = new Map(); // "x+1" is the face x = +half_width; "y-1" the face y = -half_length
    for (const pocket of this.table.pockets) {
      for (const { centre: [x, y] } of pocket.jaws) {
        const side = Math.abs(x) > hw;
        const key = side ? `x${Math.sign(x)}` : `y${Math.sign(y)}`;
        const end = side ? [Math.sign(x) * hw, y] : [x, Math.sign(y) * hl];
        if (!faces.has(key)) faces.set(key, []);
        faces.get(key).push({ end, kind: pocketKind(pocket) });
      }
    }
    const noses = [];
    for (const [key, ends] of faces) {
      const axis = key[0] === "x" ? 1 : 0; // the coordinate that runs along the face
      const sign = Number(key.slice(1));
      const outward = axis === 1 ? [sign, 0] : [0, sign];
      ends.sort((p, q) => p.end[axis] - q.end[axis]);
      // Along a face the jaws alternate: a cushion stops, a pocket, the next one starts.
      for (let i = 0; i + 1 < ends.length; i += 2) {
        noses.push({
          a: ends[i].end, b: ends[i + 1].end, outward, axis,
          pockets: [ends[i].kind, ends[i + 1].kind],
        });
      }
    }
    return noses;
  }
}

/** "corner" or "middle", from the pocket's name in rules/table.py. */
export function pocketKind(pocket) {
  return pocket.name.startsWith("middle") ? "middle" : "corner";
}
