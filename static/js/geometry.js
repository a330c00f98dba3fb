// The table's geometry for the page, from the server's figures only (game/protocol/constants.py
// builds them from rules/table.py): where the cue ball may be placed from hand, where the cue
// ball would go first, and where the cushion faces stop at the jaws. Pure: no DOM.
//
// Table coordinates are millimetres with the origin on the centre spot, x to the right as
// seen from the baulk end, y towards the top cushion.

// Tolerances of rules/table.in_d and rules/geometry.occupied: a point on the line or the arc
// is in the D, and a ball just touching another is refused (tests/test_js_constants.py holds
// this check equal to the rule).
const D_EPS = 1e-9;
const TOUCH_EPS = 1e-7;

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
   * (`cue_ball_outside_d`, or `cue_ball_overlaps` with the ball in the way), or null. */
  placementRefusal(p, balls) {
    if (!this.inD(p)) return { code: "cue_ball_outside_d" };
    for (const [id, q] of Object.entries(balls)) {
      if (id === "white") continue;
      if (Math.hypot(p[0] - q[0], p[1] - q[1]) - 2 * this.R < TOUCH_EPS) {
        return { code: "cue_ball_overlaps", ball: id };
      }
    }
    return null;
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
