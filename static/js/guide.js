// The aim guide: where the stroke the striker has set up sends the cue ball and the first
// ball it meets, in the physics' own closed forms (rules/physics: the strike with its squirt,
// the slide and roll on the cloth, the ball-ball impact with its speed-dependent friction).
// Every figure comes from the server (`physics` of the page constants). Pure: no DOM.
// tests/physics/test_guide.py plays strokes aimed on this guide and holds it to the server's
// physics within 0.3°, squirt and throw included.
//
// Table millimetres and seconds; speeds mm/s; spins rad/s (ωz > 0 anticlockwise from above).

const MM_PER_M = 1000;

export class Guide {
  /** `table` and `physics`: those objects of the page constants. */
  constructor(table, physics) {
    this.table = table;
    this.p = physics;
    this.R = table.ball_radius;
  }

  /** How far side turns the cue ball off the cue's line (radians, anticlockwise positive). */
  squirt(side) {
    const c2 = 1 - side * side;
    return Math.atan2(2.5 * side * Math.sqrt(c2), 1 + this.p.squirt_mass_ratio + 2.5 * c2);
  }

  /** Ball-ball friction at a slip speed of the contact points (mm/s). */
  friction(slip) {
    const [a, b, c] = this.p.ball_friction;
    return a + b * Math.exp((-c * slip) / MM_PER_M);
  }

  /** The cue ball just after the strike: {v: [vx, vy], w: [wx, wy, wz], dir: [dx, dy]}. */
  launch(angle, speed, side, height) {
    const v = speed * MM_PER_M;
    const a = angle + this.squirt(side);
    const dx = Math.cos(a);
    const dy = Math.sin(a);
    const k = (2.5 * v) / this.R;
    return { v: [v * dx, v * dy], w: [-k * height * dy, k * height * dx, k * side], dir: [dx, dy] };
  }

  /** The state of a ball launched as `s` (launch()) after it has run `dist` mm along its
   * straight line, or null if it stops first: {v, w, t}. */
  along(s, dist) {
    const { slide_decel: fs, roll_decel: fr } = this.p;
    const R = this.R;
    const [dx, dy] = s.dir;
    const v0 = Math.hypot(s.v[0], s.v[1]);
    // Slip of the contact with the cloth, along the direction of travel (top or back spin).
    const u0 = (s.v[0] - R * s.w[1]) * dx + (s.v[1] + R * s.w[0]) * dy;
    const sigma = Math.sign(u0);
    const tSlide = Math.abs(u0) > 0 ? (2 * Math.abs(u0)) / (7 * fs) : 0;
    const sSlide = v0 * tSlide - 0.5 * sigma * fs * tSlide * tSlide;
    let t;
    let v;
    let wAlong; // R·(spin about ẑ×dir), the rolling part
    if (dist <= sSlide) {
      t = firstRoot(0.5 * sigma * fs, -v0, dist);
      v = v0 - sigma * fs * t;
      const k = (5 * fs) / (2 * R);
      // dω = (5 fs / 2R)(ẑ × û), û = σ·dir: along ẑ×dir by σ·k per second.
      wAlong = R * (this._spinAlong(s) + sigma * k * t);
    } else {
      const v1 = v0 - sigma * fs * tSlide;
      const left = dist - sSlide;
      if (v1 * v1 < 2 * fr * left) return null;
      const tau = firstRoot(0.5 * fr, -v1, left);
      t = tSlide + tau;
      v = v1 - fr * tau;
      wAlong = v;
    }
    const wz = spinDown(s.w[2], this.p.spin_decel, t);
    const wa = wAlong / R; // ω = wa·(ẑ × dir) + wz ẑ
    return { v: [v * dx, v * dy], w: [-wa * dy, wa * dx, wz], t };
  }

  _spinAlong(s) {
    const [dx, dy] = s.dir;
    return -s.w[0] * dy + s.w[1] * dx;
  }

  /** The impact of a ball (centre p1, velocity v1, spin w1) on a resting ball at p2: both
   * states just after, as the engine's collide_balls. */
  impact(p1, v1, w1, p2) {
    const R = this.R;
    const e = this.p.ball_restitution;
    let nx = p2[0] - p1[0];
    let ny = p2[1] - p1[1];
    const d = Math.hypot(nx, ny);
    nx /= d;
    ny /= d;
    const ux = v1[0] - R * w1[2] * ny;
    const uy = v1[1] + R * w1[2] * nx;
    const uz = R * (w1[0] * ny - w1[1] * nx);
    const un = ux * nx + uy * ny;
    const jn = un > 0 ? 0.5 * (1 + e) * un : 0;
    const a = { v: [v1[0] - jn * nx, v1[1] - jn * ny], w: [...w1] };
    const b = { v: [jn * nx, jn * ny], w: [0, 0, 0] };
    const tx = ux - un * nx;
    const ty = uy - un * ny;
    const slip = Math.hypot(tx, ty, uz);
    if (slip > 0 && jn > 0) {
      const jt = Math.min(this.friction(slip) * jn, slip / 7);
      const sx = tx / slip;
      const sy = ty / slip;
      const sz = uz / slip;
      a.v[0] -= jt * sx;
      a.v[1] -= jt * sy;
      b.v[0] += jt * sx;
      b.v[1] += jt * sy;
      const k = (-2.5 * jt) / R;
      const dw = [k * ny * sz, -k * nx * sz, k * (nx * sy - ny * sx)];
      for (let i = 0; i < 3; i++) {
        a.w[i] += dw[i];
        b.w[i] += dw[i];
      }
    }
    return [a, b];
  }

  /** Points of a ball's path on the cloth from p with velocity v and spin w, until it has
   * covered `length` mm or stops: the slide's parabola, then the straight roll. */
  path(p, v, w, length, steps = 24) {
    const { slide_decel: fs, roll_decel: fr } = this.p;
    const R = this.R;
    const ux = v[0] - R * w[1];
    const uy = v[1] + R * w[0];
    const u = Math.hypot(ux, uy);
    const points = [[p[0], p[1]]];
    let at = [p[0], p[1]];
    let vel = [v[0], v[1]];
    let left = length;
    if (u > 1e-6) {
      const ax = (-fs * ux) / u;
      const ay = (-fs * uy) / u;
      const tEnd = (2 * u) / (7 * fs);
      let prev = at;
      for (let i = 1; i <= steps && left > 0; i++) {
        const t = (tEnd * i) / steps;
        const q = [p[0] + v[0] * t + 0.5 * ax * t * t, p[1] + v[1] * t + 0.5 * ay * t * t];
        left -= Math.hypot(q[0] - prev[0], q[1] - prev[1]);
        points.push(q);
        prev = q;
      }
      at = prev;
      vel = [v[0] + ax * tEnd, v[1] + ay * tEnd];
    }
    const speed = Math.hypot(vel[0], vel[1]);
    if (left > 0 && speed > 1e-6) {
      const run = Math.min(left, (speed * speed) / (2 * fr));
      points.push([at[0] + (vel[0] / speed) * run, at[1] + (vel[1] / speed) * run]);
    }
    return points;
  }

  /** What the stroke does up to and just after the first contact:
   * {dir, ghost, target, cueAt, objectAt, objectDir, cueAfter: {v, w}, objectAfter: {v, w},
   *  cuePath, objectPath}; target null if the cue ball meets no ball before a cushion or
   * stops first (ghost is then where it meets the cushion or stops). */
  predict(cue, aim, balls) {
    const s = this.launch(aim.angle, aim.speed, aim.side, aim.height);
    const [dx, dy] = s.dir;
    const R = this.R;
    let best = Infinity;
    let target = null;
    for (const [id, b] of Object.entries(balls)) {
      if (id === "white") continue;
      const ox = b[0] - cue[0];
      const oy = b[1] - cue[1];
      const along = ox * dx + oy * dy;
      if (along <= 0) continue;
      const reach2 = 4 * R * R - (ox * ox + oy * oy - along * along);
      if (reach2 < 0) continue;
      const dist = along - Math.sqrt(reach2);
      if (dist >= -1e-6 && dist < best) {
        best = Math.max(0, dist);
        target = id;
      }
    }
    const wall = this._toCushion(cue, dx, dy);
    const stop = this._stopping(s);
    if (wall < best || stop < best) {
      const reach = Math.min(wall, stop);
      return { dir: s.dir, ghost: [cue[0] + dx * reach, cue[1] + dy * reach], target: null };
    }
    const ghost = [cue[0] + dx * best, cue[1] + dy * best];
    const at = this.along(s, best);
    const objectAt = balls[target];
    const [a, b] = this.impact(ghost, at.v, at.w, objectAt);
    const ob = Math.hypot(b.v[0], b.v[1]) || 1;
    return {
      dir: s.dir,
      ghost,
      target,
      objectAt,
      objectDir: [b.v[0] / ob, b.v[1] / ob],
      cueAfter: a,
      objectAfter: b,
      cuePath: this.path(ghost, a.v, a.w, 600),
      objectPath: this.path(objectAt, b.v, b.w, 600),
    };
  }

  /** How far a ball launched as `s` runs before it stops (mm). */
  _stopping(s) {
    const { slide_decel: fs, roll_decel: fr } = this.p;
    const [dx, dy] = s.dir;
    const v0 = Math.hypot(s.v[0], s.v[1]);
    const u0 = (s.v[0] - this.R * s.w[1]) * dx + (s.v[1] + this.R * s.w[0]) * dy;
    const sigma = Math.sign(u0);
    const tSlide = (2 * Math.abs(u0)) / (7 * fs);
    const v1 = v0 - sigma * fs * tSlide;
    if (v1 <= 0) return v0 * tSlide - 0.5 * sigma * fs * tSlide * tSlide;
    return v0 * tSlide - 0.5 * sigma * fs * tSlide * tSlide + (v1 * v1) / (2 * fr);
  }

  _toCushion(p, dx, dy) {
    const limX = this.table.half_width - this.R;
    const limY = this.table.half_length - this.R;
    let wall = Infinity;
    if (dx > 1e-12) wall = Math.min(wall, (limX - p[0]) / dx);
    if (dx < -1e-12) wall = Math.min(wall, (-limX - p[0]) / dx);
    if (dy > 1e-12) wall = Math.min(wall, (limY - p[1]) / dy);
    if (dy < -1e-12) wall = Math.min(wall, (-limY - p[1]) / dy);
    return Math.max(0, wall);
  }
}

/** The smallest root t >= 0 of a t² + b t + c = 0 (b < 0 < c: a ball reaching a distance). */
function firstRoot(a, b, c) {
  if (a === 0) return -c / b;
  const disc = Math.max(0, b * b - 4 * a * c);
  const q = -0.5 * (b - Math.sqrt(disc));
  const r1 = q / a;
  const r2 = c / q;
  return Math.min(...[r1, r2].filter((r) => r >= 0));
}

/** A vertical spin after t seconds of the cloth's friction (never reversed). */
function spinDown(wz, decel, t) {
  if (wz > 0) return Math.max(0, wz - decel * t);
  if (wz < 0) return Math.min(0, wz + decel * t);
  return 0;
}
