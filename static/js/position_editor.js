// The position editor's state (templates/club/position_editor.html, docs/coach.md "The
// position editor"): which balls are on the table and where, the one selected, and the moves
// a member makes (a drag, the arrow keys, adding and removing a ball), each kept on the bed
// inside the cushions. Pure: the page (position_page.js) draws it and sends `payload()`; the
// server's referee (rules.setup.check) is the judge of what it may be, this only helps.
//
// The figures are the page constants' table (constants.js): the cushions' half sizes, a
// ball's radius, the colours' spots and the balls' values.

export const WHITE = "white";
// The arrow keys move the selected ball this far (mm), Shift the larger.
export const STEP_MM = 1;
export const SHIFT_STEP_MM = 10;

export class PositionEditor {
  /** `table`: the page constants' table; `balls`: {id: [x, y]} (mm) to start from. */
  constructor(table, balls = {}) {
    this.table = table;
    this.R = table.ball_radius;
    // Every ball a table holds, in the order a list shows them: the cue ball, the reds, the
    // colours in their order of value.
    this.ids = [WHITE, ...Object.keys(table.values).filter((id) => id.startsWith("red")),
      ...table.colours];
    this.balls = {};
    this.selected = null;
    this.load(balls);
  }

  /** Start again from `balls` ({id: [x, y]}); balls no table holds are left out. */
  load(balls) {
    this.balls = {};
    for (const id of this.ids) {
      if (Object.hasOwn(balls, id)) this.balls[id] = this.clamp(balls[id]);
    }
    this.selected = this.onTable()[0] || null;
  }

  /** The balls on the table, in the list's order. */
  onTable() {
    return this.ids.filter((id) => Object.hasOwn(this.balls, id));
  }

  /** The balls a member may add, in the list's order. */
  missing() {
    return this.ids.filter((id) => !Object.hasOwn(this.balls, id));
  }

  select(id) {
    if (Object.hasOwn(this.balls, id)) this.selected = id;
    return this.selected;
  }

  /** `p` kept where a ball's centre may rest: inside the cushions' faces. */
  clamp([x, y]) {
    const maxX = this.table.half_width - this.R;
    const maxY = this.table.half_length - this.R;
    const keep = (v, m) => (Number.isFinite(v) ? Math.max(-m, Math.min(m, v)) : 0);
    return [keep(x, maxX), keep(y, maxY)];
  }

  /** Where a ball dropped at `p` lands: a colour near its own spot (within a ball's
   * radius) on the spot, so that a colour is put back exactly; anything else at `p`. */
  snap(id, p) {
    const spot = this.table.spots[id];
    if (spot && Math.hypot(p[0] - spot[0], p[1] - spot[1]) <= this.R) return [spot[0], spot[1]];
    return p;
  }

  /** Put `id` at `p` (a drop: clamped, then snapped); returns where it went. */
  place(id, p, { snap = true } = {}) {
    if (!this.ids.includes(id)) return null;
    const at = this.clamp(p);
    this.balls[id] = snap ? this.clamp(this.snap(id, at)) : at;
    this.selected = id;
    return this.balls[id];
  }

  /** Move the selected ball by (dx, dy) mm (the keys: no snapping, so that a press always
   * moves it); returns where it went, or null with nothing selected. */
  nudge(dx, dy) {
    const id = this.selected;
    if (!id || !Object.hasOwn(this.balls, id)) return null;
    const [x, y] = this.balls[id];
    return this.place(id, [x + dx, y + dy], { snap: false });
  }

  /** Put a ball that is off the table on it: a colour on its spot if that is free, any ball
   * else at the first free place from the middle of the table outwards. */
  add(id) {
    if (!this.ids.includes(id) || Object.hasOwn(this.balls, id)) return null;
    const spot = this.table.spots[id];
    const at = spot && this.free(spot) ? spot : this.freePlace();
    if (!at) return null;
    return this.place(id, at, { snap: false });
  }

  /** Take `id` (the selected ball by default) off the table; the next one is selected. */
  remove(id = this.selected) {
    if (!id || !Object.hasOwn(this.balls, id)) return false;
    const order = this.onTable();
    delete this.balls[id];
    const left = this.onTable();
    this.selected = left[Math.min(order.indexOf(id), left.length - 1)] || null;
    return true;
  }

  /** True if a ball at `p` would touch no ball on the table (but `except`). */
  free(p, except = null) {
    const d = 2 * this.R;
    return Object.entries(this.balls).every(
      ([id, q]) => id === except || Math.hypot(p[0] - q[0], p[1] - q[1]) >= d,
    );
  }

  /** A free place on the bed: along the table's long axis from the middle, then across. */
  freePlace() {
    const d = 2 * this.R;
    const rows = Math.floor((this.table.half_length - this.R) / d);
    const cols = Math.floor((this.table.half_width - this.R) / d);
    for (let i = 0; i <= rows; i++) {
      for (const y of i === 0 ? [0] : [i * d, -i * d]) {
        for (let j = 0; j <= cols; j++) {
          for (const x of j === 0 ? [0] : [j * d, -j * d]) {
            if (this.free([x, y])) return [x, y];
          }
        }
      }
    }
    return null;
  }

  /** The ball under `p` (mm), the nearest if two, or null. `reach`: how far from a centre
   * counts (a finger is wider than a small ball on a phone). */
  hit(p, reach = this.R) {
    let best = null;
    let bestD = Infinity;
    for (const [id, q] of Object.entries(this.balls)) {
      const dist = Math.hypot(p[0] - q[0], p[1] - q[1]);
      if (dist <= Math.max(reach, this.R) && dist < bestD) [best, bestD] = [id, dist];
    }
    return best;
  }

  /** The pairs of balls that overlap (the referee refuses them: `balls_overlap`). */
  overlaps() {
    const ids = this.onTable();
    const pairs = [];
    for (let i = 0; i < ids.length; i++) {
      for (const b of ids.slice(i + 1)) {
        if (overlap(this, ids[i], b)) pairs.push([ids[i], b]);
      }
    }
    return pairs;
  }

  /** What the server keeps (club/positions.py `parse`): the balls and the referee's facts.
   * `facts`: {on, striker, scores: [a, b], in_hand}; in hand, the cue ball is not sent. */
  payload({ on = "red", striker = "A", scores = [0, 0], in_hand = false } = {}) {
    const balls = {};
    for (const id of this.onTable()) {
      if (!(in_hand && id === WHITE)) balls[id] = [...this.balls[id]];
    }
    return { balls, on, striker, in_hand, scores: { A: scores[0], B: scores[1] } };
  }
}

function overlap(editor, a, b) {
  const [p, q] = [editor.balls[a], editor.balls[b]];
  // A hair under a diameter, as the referee's own test: touching balls do not overlap.
  return Math.hypot(p[0] - q[0], p[1] - q[1]) < 2 * editor.R - 1e-6;
}

/** The balls of a frame state's JSON ({balls: {id: [x, y]}}), or none. */
export function ballsOf(state) {
  return state && typeof state.balls === "object" && state.balls ? state.balls : {};
}
