// The aim guide: where the stroke the striker has set up sends the cue ball and the first
// ball it meets, in the physics' own closed forms (rules/physics: the strike with its squirt,
// the slide and roll on the cloth, the ball-ball impact with its speed-dependent friction, the
// cushion impact of Mathavan et al. stepped as rules/physics/cushion.py steps it). Every
// figure comes from the server (`physics` of the page constants). Pure: no DOM.
// tests/physics/test_guide.py plays strokes aimed on this guide and holds it to the server's
// physics within 0.3°, squirt and throw included, and its banks within a few millimetres.
//
// The full guide (`predict(..., { full: true })`) goes on past the first cushion: the cue
// ball's rebound off it to the first ball it then meets (or where it stops, the next cushion
// or a pocket), and the object ball's line to the pocket, the cushion or the ball it meets.
// What it leaves out: a knuckle or a pocket's jaws (a line that reaches a pocket's mouth
// stops there), a second cushion, and the engine's "resting contact" at a cushion (an
// approach under 1 cm/s, which no guide line reaches).
//
// Table millimetres and seconds; speeds mm/s; spins rad/s (ωz > 0 anticlockwise from above).

import { Geometry } from "./geometry.js";

const MM_PER_M = 1000;

export class Guide {
  /** `table` and `physics`: those objects of the page constants. */
  constructor(table, physics) {
    this.table = table;
    this.p = physics;
    this.R = table.ball_radius;
    this.geometry = new Geometry(table);
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
   *  cuePath, objectPath, bank, rebound, objectEnd, end}; target null if the cue ball meets no
   * ball (ghost is then where it meets the cushion, a pocket's mouth or stops: `end` says
   * which). `full`: the cue ball goes on off the first cushion (`bank`: where it meets it,
   * `rebound`: its path from there to the ghost) and the object ball's path runs on to the
   * pocket, the cushion or a ball (`objectEnd`); else the object ball's path is 600 mm. */
  predict(cue, aim, balls, { full = false } = {}) {
    const s = this.launch(aim.angle, aim.speed, aim.side, aim.height);
    const [dx, dy] = s.dir;
    let best = Infinity;
    let target = null;
    for (const [id, b] of Object.entries(balls)) {
      if (id === "white") continue;
      const dist = this._lineToBall(cue, dx, dy, b);
      if (dist < best) {
        best = dist;
        target = id;
      }
    }
    const wall = this.geometry.toCushion(cue, dx, dy);
    const stop = this._stopping(s);
    if (wall < best || stop < best) {
      const reach = Math.min(wall, stop);
      const at = [cue[0] + dx * reach, cue[1] + dy * reach];
      const end = stop <= wall ? "stop" : this._face(at) ? "cushion" : "pocket";
      const out = { dir: s.dir, ghost: at, target: null, end, bank: null, rebound: null };
      if (!full || end !== "cushion") return out;
      // Off the cushion: the state the cue ball reaches it in, the impact, then its path.
      const state = this.along(s, wall);
      const n = this._face(at).normal;
      const after = this.cushionImpact(state.v, state.w, n);
      const run = this.follow(at, after.v, after.w, balls, ["white"]);
      out.bank = at;
      out.rebound = run.points;
      out.ghost = run.at;
      out.end = run.end;
      if (run.end !== "ball") return out;
      return { ...out, ...this._contact(run.at, run.v, run.w, run.ball, balls, full) };
    }
    const ghost = [cue[0] + dx * best, cue[1] + dy * best];
    const at = this.along(s, best);
    return {
      dir: s.dir, ghost, end: "ball", bank: null, rebound: null,
      ...this._contact(ghost, at.v, at.w, target, balls, full),
    };
  }

  /** The contact of the cue ball (at `ghost`, velocity v, spin w) with ball `target`. */
  _contact(ghost, v, w, target, balls, full) {
    const objectAt = balls[target];
    const [a, b] = this.impact(ghost, v, w, objectAt);
    const ob = Math.hypot(b.v[0], b.v[1]) || 1;
    const out = {
      ghost,
      target,
      objectAt,
      objectDir: [b.v[0] / ob, b.v[1] / ob],
      cueAfter: a,
      objectAfter: b,
      cuePath: this.path(ghost, a.v, a.w, 600),
      objectPath: this.path(objectAt, b.v, b.w, 600),
      objectEnd: null,
    };
    if (full) {
      const run = this.follow(objectAt, b.v, b.w, balls, ["white", target]);
      out.objectPath = run.points;
      out.objectEnd = run.end;
    }
    return out;
  }

  /** How far the cue ball's centre runs from `p` along (dx, dy) before it touches the ball
   * centred at `b`, or Infinity. */
  _lineToBall(p, dx, dy, b) {
    const R = this.R;
    const ox = b[0] - p[0];
    const oy = b[1] - p[1];
    const along = ox * dx + oy * dy;
    if (along <= 0) return Infinity;
    const reach2 = 4 * R * R - (ox * ox + oy * oy - along * along);
    if (reach2 < 0) return Infinity;
    const dist = along - Math.sqrt(reach2);
    return dist >= -1e-6 ? Math.max(0, dist) : Infinity;
  }

  /** The cushion face a ball centred at `p` (a ball's radius from a face line) touches, as
   * the physics' rails (between the knuckles' centres): {normal}, or null in a pocket's
   * mouth. */
  _face(p) {
    const eps = 1e-6;
    const limX = this.table.half_width - this.R;
    const limY = this.table.half_length - this.R;
    for (const nose of this.noses()) {
      const [ox, oy] = nose.outward;
      const depth = ox ? ox * p[0] - limX : oy * p[1] - limY;
      const along = p[nose.axis];
      if (depth >= -eps && along >= nose.a[nose.axis] - eps && along <= nose.b[nose.axis] + eps) {
        return { normal: nose.outward };
      }
    }
    return null;
  }

  noses() {
    if (!this._noses) this._noses = this.geometry.cushions();
    return this._noses;
  }

  /** The cushion impact (rules/physics/cushion.py, Mathavan et al. 2010) of a ball with
   * velocity v and spin w on a face whose unit normal `n` points into the cushion: {v, w}
   * just after, as the engine's collide_cushion. */
  cushionImpact(v, w, n) {
    const [nx, ny] = n;
    const vn0 = v[0] * nx + v[1] * ny;
    if (!(vn0 > 0)) return { v: [...v], w: [...w] };
    const vt0 = v[1] * nx - v[0] * ny; // along t = ẑ × n
    const a0 = w[0] * nx + w[1] * ny;
    const b0 = w[1] * nx - w[0] * ny;
    const out = cushionImpact(this.p.cushion, this.R, vn0, vt0, a0, b0, w[2]);
    const [vn, vt, a, b] = out;
    return {
      v: [vn * nx - vt * ny, vn * ny + vt * nx],
      w: [a * nx - b * ny, a * ny + b * nx, out[4]],
    };
  }

  /** The motion of a ball from p with velocity v and spin w, as the engine's segments: a
   * slide while its contact with the cloth slips, a roll, rest. Each phase
   * {t0, t1, p, v, acc, w, dw}: its start, end, and state at the start with its rates. */
  phases(p, v, w) {
    const { slide_decel: fs, roll_decel: fr } = this.p;
    const R = this.R;
    const out = [];
    let t0 = 0;
    let pos = [p[0], p[1]];
    let vel = [v[0], v[1]];
    let spin = [w[0], w[1]];
    const ux = vel[0] - R * spin[1];
    const uy = vel[1] + R * spin[0];
    const u = Math.hypot(ux, uy);
    if (u > 1e-6) {
      const kx = ux / u;
      const ky = uy / u;
      const k = (5 * fs) / (2 * R);
      const t1 = (2 * u) / (7 * fs);
      const acc = [-fs * kx, -fs * ky];
      out.push({ t0, t1, p: pos, v: vel, acc, w: spin, dw: [-k * ky, k * kx], slide: true });
      pos = [pos[0] + vel[0] * t1 + 0.5 * acc[0] * t1 * t1,
        pos[1] + vel[1] * t1 + 0.5 * acc[1] * t1 * t1];
      vel = [vel[0] + acc[0] * t1, vel[1] + acc[1] * t1];
      t0 = t1;
    }
    const speed = Math.hypot(vel[0], vel[1]);
    if (speed > 1e-6) {
      const acc = [(-fr * vel[0]) / speed, (-fr * vel[1]) / speed];
      out.push({ t0, t1: t0 + speed / fr, p: pos, v: vel, acc, w: [-vel[1] / R, vel[0] / R],
        dw: [-acc[1] / R, acc[0] / R] });
    }
    return { list: out, wz: w[2] };
  }

  /** The state at time t of a motion (phases()): {p, v, w}. */
  stateAt(motion, t) {
    const ph = motion.list.find((x) => t <= x.t1) || motion.list[motion.list.length - 1];
    const tau = Math.min(t, ph.t1) - ph.t0;
    return {
      p: [ph.p[0] + ph.v[0] * tau + 0.5 * ph.acc[0] * tau * tau,
        ph.p[1] + ph.v[1] * tau + 0.5 * ph.acc[1] * tau * tau],
      v: [ph.v[0] + ph.acc[0] * tau, ph.v[1] + ph.acc[1] * tau],
      w: [ph.w[0] + ph.dw[0] * tau, ph.w[1] + ph.dw[1] * tau,
        spinDown(motion.wz, this.p.spin_decel, t)],
    };
  }

  /** Follow a ball from p (velocity v, spin w) over the cloth to its first event: a ball
   * (not one of `skip`), a cushion, a pocket's mouth, or rest. {end: "ball" | "cushion" |
   * "pocket" | "stop", at, v, w, ball, points}: `points` its path drawn to `at`. */
  follow(p, v, w, balls, skip) {
    const motion = this.phases(p, v, w);
    const points = [[p[0], p[1]]];
    const R = this.R;
    const limX = this.table.half_width - this.R;
    const limY = this.table.half_length - this.R;
    const others = Object.entries(balls).filter(([id]) => !skip.includes(id));
    const done = (end, t, ball = null) => {
      const s = this.stateAt(motion, t);
      points.push(s.p);
      return { end, at: s.p, v: s.v, w: s.w, ball, points };
    };
    for (const ph of motion.list) {
      // The first crossing of a cushion line in this phase (a quadratic in τ).
      let tWall = Infinity;
      for (const [axis, lim] of [[0, limX], [0, -limX], [1, limY], [1, -limY]]) {
        const sign = Math.sign(lim);
        const d0 = sign * ph.p[axis] - Math.abs(lim);
        const tau = firstCrossing(0.5 * sign * ph.acc[axis], sign * ph.v[axis], d0,
          ph.t1 - ph.t0);
        tWall = Math.min(tWall, ph.t0 + tau);
      }
      // The first contact with a ball: on chords of the phase's path, refined on the path.
      const steps = ph.slide ? 48 : 1; // a roll is straight
      const tEnd = Math.min(ph.t1, tWall);
      let prev = this.stateAt(motion, ph.t0).p;
      for (let i = 1; i <= steps; i++) {
        const t = ph.t0 + ((tEnd - ph.t0) * i) / steps;
        const q = this.stateAt(motion, t).p;
        let hit = null;
        const len = Math.hypot(q[0] - prev[0], q[1] - prev[1]);
        if (len > 1e-9) {
          for (const [id, b] of others) {
            const d = this._lineToBall(prev, (q[0] - prev[0]) / len, (q[1] - prev[1]) / len, b);
            if (d <= len && (!hit || d < hit.d)) hit = { id, d };
          }
        }
        if (hit) {
          const tHit = this._touch(motion, ph.t0 + ((tEnd - ph.t0) * (i - 1)) / steps, t,
            balls[hit.id]);
          return done("ball", tHit, hit.id);
        }
        points.push(q);
        prev = q;
      }
      if (tWall <= ph.t1) {
        const s = this.stateAt(motion, tWall);
        return done(this._face(s.p) ? "cushion" : "pocket", tWall);
      }
    }
    const last = motion.list.length ? motion.list[motion.list.length - 1].t1 : 0;
    return done("stop", last);
  }

  /** The time in [lo, hi] at which a ball on `motion` first touches the ball at `b`
   * (at lo it is clear, by hi within touch): by bisection on the path itself. */
  _touch(motion, lo, hi, b) {
    const gap = (t) => {
      const { p } = this.stateAt(motion, t);
      return Math.hypot(p[0] - b[0], p[1] - b[1]) - 2 * this.R;
    };
    // A chord that grazes the ball may have both ends clear: start from its closest point.
    if (gap(hi) > 0) {
      let best = hi;
      for (let i = 0; i <= 16; i++) {
        const t = lo + ((hi - lo) * i) / 16;
        if (gap(t) < gap(best)) best = t;
      }
      hi = best;
      if (gap(hi) > 0) return hi;
    }
    for (let i = 0; i < 60; i++) {
      const m = 0.5 * (lo + hi);
      if (gap(m) > 0) lo = m;
      else hi = m;
    }
    return hi;
  }

  /** How far the cue ball struck at `speed` (m/s) with the tip at `height` would run on an
   * open cloth, nothing in its way, before it stops (mm): power in a player's terms (power.js). */
  reach(speed, height = 0) {
    return this._stopping(this.launch(0, speed, 0, height));
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

/** The first τ in [0, h] at which a τ² + b τ + c, negative at 0, reaches 0; Infinity if none
 * (a ball's centre reaching a cushion line: c the distance short of it, negative). */
function firstCrossing(a, b, c, h) {
  if (c >= 0) return b > 0 || (b === 0 && a > 0) ? 0 : Infinity;
  let roots;
  if (Math.abs(a) < 1e-12) roots = b > 0 ? [-c / b] : [];
  else {
    const disc = b * b - 4 * a * c;
    if (disc < 0) return Infinity;
    const q = -0.5 * (b + Math.sign(b || 1) * Math.sqrt(disc));
    roots = [q / a, q !== 0 ? c / q : Infinity];
  }
  const ok = roots.filter((r) => r >= 0 && r <= h);
  return ok.length ? Math.min(...ok) : Infinity;
}

/** The cushion impact of rules/physics/cushion.py, step for step: the ball's centre velocity
 * (vn into the cushion, vt along t = ẑ × n) and spin (a about n, b about t, w about z) after
 * it. `c`: the page constants' `physics.cushion`. */
export function cushionImpact(c, R, vn0, vt0, a0, b0, w0) {
  const S = c.sin_theta;
  const C = Math.sqrt(1 - S * S);
  const K = 2.5 / R;
  const muW = c.friction;
  const muS = c.bed_friction;
  const steps = c.steps;
  const hard = c.hard_speed * MM_PER_M;
  const e = vn0 <= hard ? c.restitution : c.restitution * Math.sqrt(Math.sqrt(hard / vn0));
  const step = ([vn, vt, a, b, w], h) => {
    const q1 = S * vn + R * b;
    const q2 = vt + R * (w * C - a * S);
    const p1 = vn - R * b;
    const p2 = vt + R * a;
    const q = Math.sqrt(q1 * q1 + q2 * q2);
    let fi1 = 0;
    let fi2 = 0;
    if (q > 0) {
      let f = muW * h;
      if (3.5 * f > q) f = q / 3.5;
      fi1 = (f * q1) / q;
      fi2 = (f * q2) / q;
    }
    const hc = S * h - C * fi1;
    let fc1 = 0;
    let fc2 = 0;
    const p = Math.sqrt(p1 * p1 + p2 * p2);
    if (hc > 0 && p > 0) {
      let f = muS * hc;
      if (3.5 * f > p) f = p / 3.5;
      fc1 = (f * p1) / p;
      fc2 = (f * p2) / p;
    }
    return [
      vn - C * h - S * fi1 - fc1,
      vt - fi2 - fc2,
      a + K * (S * fi2 - fc2),
      b + K * (fc1 - fi1),
      w - K * C * fi2,
    ];
  };
  let x = [vn0, vt0, a0, b0, w0];
  const h = vn0 / (C * steps);
  let work = 0;
  for (let i = 0; i < 4 * steps; i++) {
    let nxt = step(x, h);
    if (nxt[0] <= 0) {
      const frac = x[0] / (x[0] - nxt[0]);
      nxt = step(x, h * frac);
      work += C * h * frac * 0.5 * (x[0] + nxt[0]);
      x = nxt;
      break;
    }
    work += C * h * 0.5 * (x[0] + nxt[0]);
    x = nxt;
  }
  const target = e * e * work;
  let done = 0;
  for (let i = 0; i < 4 * steps; i++) {
    if (done >= target) break;
    let nxt = step(x, h);
    const dw = -C * h * 0.5 * (x[0] + nxt[0]);
    if (done + dw >= target) {
      const g = (x[0] - nxt[0]) / h;
      const rest = (target - done) / C;
      const v0 = -x[0];
      const part = g > 0 ? (2 * rest) / (v0 + Math.sqrt(v0 * v0 + 2 * g * rest)) : h;
      nxt = step(x, Math.min(part, h));
      x = nxt;
      break;
    }
    done += dw;
    x = nxt;
  }
  return x;
}
