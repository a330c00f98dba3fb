// A stroke's motion from the server's closed-form trajectory segments (docs/protocol.md).
//
// Each ball that moved has rows, one per segment, valid from its t0 until the next row's t0:
//   p(t) = p0 + v·(t − t0) + ½·a·(t − t0)².
// Motion codes: 0 sliding, 1 rolling, 2 spinning in place, 3 at rest, 4 pocketed (gone).
//
// Two row layouts exist:
// - full: [t0, motion, x0, y0, vx, vy, ax, ay, wx, wy, wz, dwx, dwy, dwz], trailing zeros
//   dropped;
// - compact (rules.physics ShotResult.to_json, recognised by `shot.constants`):
//   sliding [t0, 0, x0, y0, vx, vy, wx, wy, wz], rolling [t0, 1, x0, y0, vx, vy, wz],
//   spinning [t0, 2, x0, y0, wz], rest/pocketed [t0, 3|4, x0, y0], trailing zeros dropped;
//   the acceleration follows from the constants: sliding a = −slide_decel·û with û the unit
//   slip (vx − R·wy, vy + R·wx), rolling a = −roll_decel·v̂.

export const SLIDING = 0;
export const ROLLING = 1;
export const POCKETED = 4;

function decodeRow(row, constants) {
  const v = (i) => (row.length > i ? Number(row[i]) : 0);
  const seg = { t0: v(0), motion: v(1), x0: v(2), y0: v(3), vx: 0, vy: 0, ax: 0, ay: 0 };
  if (!constants) {
    seg.vx = v(4);
    seg.vy = v(5);
    seg.ax = v(6);
    seg.ay = v(7);
    return seg;
  }
  if (seg.motion === SLIDING) {
    seg.vx = v(4);
    seg.vy = v(5);
    const R = constants.R;
    const ux = seg.vx - R * v(7);
    const uy = seg.vy + R * v(6);
    const u = Math.hypot(ux, uy);
    if (u > 0) {
      seg.ax = (-constants.slide_decel * ux) / u;
      seg.ay = (-constants.slide_decel * uy) / u;
    }
  } else if (seg.motion === ROLLING) {
    seg.vx = v(4);
    seg.vy = v(5);
    const speed = Math.hypot(seg.vx, seg.vy);
    if (speed > 0) {
      seg.ax = (-constants.roll_decel * seg.vx) / speed;
      seg.ay = (-constants.roll_decel * seg.vy) / speed;
    }
  }
  return seg;
}

/** A stroke's motion: `positionsAt(t)` and the time the last ball stops moving. */
export class Motion {
  constructor(shot) {
    const constants = shot && shot.constants ? shot.constants : null;
    this.balls = {};
    this.end = 0;
    const rows = (shot && shot.trajectories) || {};
    for (const [id, list] of Object.entries(rows)) {
      const segs = list.map((row) => decodeRow(row, constants));
      segs.sort((a, b) => a.t0 - b.t0);
      for (let i = 0; i < segs.length; i++) {
        segs[i].t1 = i + 1 < segs.length ? segs[i + 1].t0 : Infinity;
      }
      this.balls[id] = segs;
      // The ball stops translating at the start of its last run of non-moving segments.
      let still = 0;
      for (const s of segs) if (s.motion === SLIDING || s.motion === ROLLING) still = s.t1;
      if (Number.isFinite(still)) this.end = Math.max(this.end, still);
    }
    if (!(this.end > 0)) this.end = 0;
  }

  /** Where a moving ball is at time t (null: pocketed, undefined: this ball did not move). */
  position(id, t) {
    const segs = this.balls[id];
    if (!segs) return undefined;
    let seg = segs[0];
    for (const s of segs) {
      if (s.t0 <= t) seg = s;
      else break;
    }
    if (seg.motion === POCKETED) return null;
    const tau = Math.max(0, Math.min(t, seg.t1) - seg.t0);
    return [
      seg.x0 + (seg.vx + 0.5 * seg.ax * tau) * tau,
      seg.y0 + (seg.vy + 0.5 * seg.ay * tau) * tau,
    ];
  }

  /** A moving ball's velocity [vx, vy] (mm/s) just before time t; [0, 0] if it is still,
   * gone or did not move. */
  velocity(id, t) {
    const segs = this.balls[id];
    if (!segs) return [0, 0];
    let seg = null;
    for (const s of segs) {
      if (s.t0 < t) seg = s;
      else break;
    }
    if (!seg || (seg.motion !== SLIDING && seg.motion !== ROLLING)) return [0, 0];
    const tau = Math.max(0, Math.min(t, seg.t1) - seg.t0);
    return [seg.vx + seg.ax * tau, seg.vy + seg.ay * tau];
  }

  /** The largest gap (mm) between where a segment ends and where the next one starts: a
   * check of the decoding (positions are continuous through collisions). */
  continuityError() {
    let worst = 0;
    for (const segs of Object.values(this.balls)) {
      for (let i = 0; i + 1 < segs.length; i++) {
        const s = segs[i];
        const n = segs[i + 1];
        const tau = n.t0 - s.t0;
        const x = s.x0 + (s.vx + 0.5 * s.ax * tau) * tau;
        const y = s.y0 + (s.vy + 0.5 * s.ay * tau) * tau;
        worst = Math.max(worst, Math.hypot(x - n.x0, y - n.y0));
      }
    }
    return worst;
  }

  /** Every ball at time t: the moving ones from their segments, the rest from `before`. */
  positionsAt(t, before) {
    const out = {};
    for (const [id, p] of Object.entries(before)) out[id] = p;
    for (const id of Object.keys(this.balls)) {
      const p = this.position(id, t);
      if (p === null) delete out[id];
      else out[id] = p;
    }
    return out;
  }
}
