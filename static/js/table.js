// The table drawn on a high-DPI canvas, to the server's figures (the page constants' `table`,
// passed in: constants.js reads them on the page, the tests from their fixture).
//
// Table coordinates (geometry.js) are millimetres. In a box wider than tall the table lies
// across the screen: the baulk end on the left, the top cushion on the right, so table +y is
// screen right and table +x is screen down (a quarter turn, not a mirror). In a box taller
// than wide (a phone held upright) it stands up: the baulk end at the bottom, table +x
// screen right and +y screen up, as a player at the baulk end sees it. A zoom (×2 on small
// screens) looks at a focus point (the cue ball), the view kept on the table.

import { Geometry, pocketKind } from "./geometry.js";

const BALL_COLOURS = {
  white: ["#fbfaf3", "#c9c6b6"],
  red: ["#d7192a", "#6e0710"],
  yellow: ["#ffd83a", "#a4830a"],
  green: ["#169a4a", "#05421d"],
  brown: ["#8a5326", "#3b200b"],
  blue: ["#2a6fd6", "#0c2d66"],
  pink: ["#ff9fc6", "#b85880"],
  black: ["#3a3a3a", "#050505"],
};

function ballColour(id) {
  return BALL_COLOURS[id.startsWith("red") ? "red" : id] || BALL_COLOURS.white;
}

// Drawing sizes (mm) around the playing area.
const CUSHION = 48; // rubber cushion, nose to the rail
const MIDDLE_FLARE = 14; // how much a middle pocket's throat widens behind the cushion nose
const RAIL = 125; // the wooden rail outside the cushion
const MARGIN = 14; // a little air around the frame
// On a phone's box (either side under SMALL_BOX px) the rail is drawn thin and the air goes,
// so the cloth and the balls get the screen: on an 844 × 390 phone on its side a ball is 5 px
// in radius at the whole table (3.8 with the full rail), 4 px on a 390 × 844 one upright.
export const SMALL_BOX = 520;
const THIN_RAIL = 24;
const THIN_MARGIN = 4;

/** The rail and the air drawn around the cushions (mm) in a canvas box `width` × `height`
 * CSS px. Pure. */
export function frameFor(width, height) {
  return Math.min(width, height) < SMALL_BOX
    ? { rail: THIN_RAIL, margin: THIN_MARGIN }
    : { rail: RAIL, margin: MARGIN };
}

export class TableView {
  /** `table`: the page constants' table. `offscreen()` makes the canvas the cloth, cushions
   * and markings are drawn on once (a page's canvas by default). */
  constructor(canvas, table, { offscreen = () => document.createElement("canvas") } = {}) {
    this.canvas = canvas;
    this.table = table;
    this.R = table.ball_radius;
    this.geometry = new Geometry(table);
    this.offscreen = offscreen;
    this._frame(frameFor(Infinity, Infinity));
    this.ctx = canvas.getContext("2d");
    this.scale = 1; // CSS pixels per mm
    this.fit = 1; // the scale at which the whole table fits
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.dpr = 1;
    this.upright = false; // the table stands up (a box taller than wide)
    this.zoom = 1;
    this.focus = null; // the table point the zoom looks at
    this.centre = [0, 0]; // the table point at the middle of the canvas
    this.background = null;
  }

  /** The rail drawn, and half the drawn table, rail and air included, along it and across it
   * (mm). */
  _frame({ rail, margin }) {
    this.rail = rail;
    this.extentLong = this.table.half_length + CUSHION + rail + margin;
    this.extentShort = this.table.half_width + CUSHION + rail + margin;
  }

  /** Fit the table into the canvas's CSS box; returns true if anything changed. */
  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = globalThis.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width));
    const h = Math.max(1, Math.round(rect.height));
    if (w === this.cssWidth && h === this.cssHeight && dpr === this.dpr) return false;
    this.cssWidth = w;
    this.cssHeight = h;
    this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.upright = h > w;
    this._frame(frameFor(w, h));
    this.fit = this.upright
      ? Math.min(w / (2 * this.extentShort), h / (2 * this.extentLong))
      : Math.min(w / (2 * this.extentLong), h / (2 * this.extentShort));
    this._place();
    return true;
  }

  /** Zoom (1: the whole table) towards `focus` (table mm); true if the view changed. */
  view(zoom, focus) {
    const same = (p, q) => (p === q) || (p && q && p[0] === q[0] && p[1] === q[1]);
    if (zoom === this.zoom && (zoom === 1 || same(focus, this.focus))) return false;
    this.zoom = zoom;
    this.focus = focus ? [focus[0], focus[1]] : null;
    this._place();
    return true;
  }

  /** The scale and the centre of the view, kept on the table. */
  _place() {
    this.scale = this.fit * this.zoom;
    let [cx, cy] = this.focus && this.zoom > 1 ? this.focus : [0, 0];
    // Half the view in table mm, across the table (x) and along it (y).
    const halfX = (this.upright ? this.cssWidth : this.cssHeight) / (2 * this.scale);
    const halfY = (this.upright ? this.cssHeight : this.cssWidth) / (2 * this.scale);
    const keep = (v, half, extent) => (half >= extent ? 0 : Math.max(half - extent, Math.min(extent - half, v)));
    cx = keep(cx, halfX, this.extentShort);
    cy = keep(cy, halfY, this.extentLong);
    this.centre = [cx, cy];
    this.background = null;
  }

  /** Table (mm) to canvas CSS pixels. */
  toScreen([x, y]) {
    const [cx, cy] = this.centre;
    const s = this.scale;
    if (this.upright) return [this.cssWidth / 2 + (x - cx) * s, this.cssHeight / 2 - (y - cy) * s];
    return [this.cssWidth / 2 + (y - cy) * s, this.cssHeight / 2 + (x - cx) * s];
  }

  /** Canvas CSS pixels to table (mm). */
  toTable([sx, sy]) {
    const [cx, cy] = this.centre;
    const s = this.scale;
    if (this.upright) return [cx + (sx - this.cssWidth / 2) / s, cy - (sy - this.cssHeight / 2) / s];
    return [cx + (sy - this.cssHeight / 2) / s, cy + (sx - this.cssWidth / 2) / s];
  }

  /** Where, in table mm, the screen's "down and to the right" lies by (right, down) CSS px:
   * the light and the shadows keep to the screen whichever way the table lies. */
  screenOffset(right, down) {
    return this.upright ? [right, -down] : [down, right];
  }

  // Every drawing call below works in table millimetres: this transform maps them.
  _tableTransform(ctx) {
    const s = this.scale * this.dpr;
    const [x0, y0] = this.toScreen([0, 0]).map((v) => v * this.dpr);
    if (this.upright) {
      // screen = (W/2 + (x − cx) s, H/2 − (y − cy) s): a = s, b = 0, c = 0, d = −s.
      ctx.setTransform(s, 0, 0, -s, x0, y0);
    } else {
      // screen = (W/2 + (y − cy) s, H/2 + (x − cx) s): a = 0, b = s, c = s, d = 0.
      ctx.setTransform(0, s, s, 0, x0, y0);
    }
  }

  _drawBackground() {
    const off = this.offscreen();
    off.width = this.canvas.width;
    off.height = this.canvas.height;
    const ctx = off.getContext("2d");
    this._tableTransform(ctx);
    const { half_width: HW, half_length: HL, baulk_y: BAULK_Y, d_centre: D_CENTRE,
      d_radius: D_RADIUS, spots: SPOTS, pockets: POCKETS } = this.table;
    const rail = this.rail;
    const outerW = HW + CUSHION + rail;
    const outerL = HL + CUSHION + rail;

    // Wooden rail, with a soft shadow under the whole table.
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.45)";
    ctx.shadowBlur = 18 * this.dpr;
    roundRect(ctx, -outerW, -outerL, 2 * outerW, 2 * outerL, Math.min(70, rail));
    const wood = ctx.createLinearGradient(-outerW, 0, outerW, 0);
    wood.addColorStop(0, "#4a2a14");
    wood.addColorStop(0.08, "#6b3d1e");
    wood.addColorStop(0.5, "#7a4724");
    wood.addColorStop(0.92, "#6b3d1e");
    wood.addColorStop(1, "#4a2a14");
    ctx.fillStyle = wood;
    ctx.fill();
    ctx.restore();
    // A thin inner bevel of the rail.
    ctx.strokeStyle = "rgba(255,220,170,0.18)";
    ctx.lineWidth = Math.min(6, rail / 4);
    const bevel = Math.min(10, rail / 3);
    roundRect(ctx, -outerW + bevel, -outerL + bevel, 2 * outerW - 2 * bevel, 2 * outerL - 2 * bevel,
      Math.min(60, rail));
    ctx.stroke();

    // Diamond-like sights on the rail are not used in snooker: leave the wood plain.

    // Cloth (baize), including under the cushions.
    const clothW = HW + CUSHION;
    const clothL = HL + CUSHION;
    const baize = ctx.createRadialGradient(0, 0, 100, 0, 0, HL * 1.1);
    baize.addColorStop(0, "#1c8a3c");
    baize.addColorStop(1, "#0f6a2b");
    ctx.fillStyle = baize;
    ctx.fillRect(-clothW, -clothL, 2 * clothW, 2 * clothL);

    // Pocket holes: black, behind the cushion ends.
    for (const p of POCKETS) {
      const corner = pocketKind(p) === "corner";
      const depth = corner ? 34 : 40;
      const radius = corner ? 56 : 50;
      const cx = p.mouth[0] + p.inward[0] * depth;
      const cy = p.mouth[1] + p.inward[1] * depth;
      // Leather/metal pocket surround on the rail.
      ctx.beginPath();
      ctx.arc(cx, cy, radius + 22, 0, 2 * Math.PI);
      ctx.fillStyle = "#2a1a10";
      ctx.fill();
      ctx.beginPath();
      ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
      const hole = ctx.createRadialGradient(cx, cy, radius * 0.2, cx, cy, radius);
      hole.addColorStop(0, "#000");
      hole.addColorStop(1, "#151515");
      ctx.fillStyle = hole;
      ctx.fill();
    }

    // Cushions: six rubber strips whose noses stop at the jaws.
    ctx.fillStyle = "#0c5a23";
    ctx.strokeStyle = "rgba(0,0,0,0.35)";
    ctx.lineWidth = 2;
    const noses = this.geometry.cushions();
    for (const poly of noses.map(cushionPolygon)) {
      ctx.beginPath();
      poly.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
    for (const p of POCKETS) {
      for (const j of p.jaws) {
        ctx.beginPath();
        ctx.arc(j.centre[0], j.centre[1], j.radius, 0, 2 * Math.PI);
        ctx.fillStyle = "#0c5a23";
        ctx.fill();
      }
    }
    // The cushion nose line, a touch lighter.
    ctx.strokeStyle = "rgba(140,220,150,0.35)";
    ctx.lineWidth = 3;
    for (const { a, b } of noses) {
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
      ctx.stroke();
    }

    // Markings: baulk line, D, spots.
    ctx.strokeStyle = "rgba(240,240,230,0.75)";
    ctx.lineWidth = Math.max(2.5, 1 / this.scale);
    ctx.beginPath();
    ctx.moveTo(-HW, BAULK_Y);
    ctx.lineTo(HW, BAULK_Y);
    ctx.stroke();
    ctx.beginPath();
    // The D: the semicircle on the baulk side (y below the baulk line).
    ctx.arc(D_CENTRE[0], D_CENTRE[1], D_RADIUS, 0, Math.PI, true);
    ctx.stroke();
    ctx.fillStyle = "rgba(240,240,230,0.85)";
    for (const [x, y] of Object.values(SPOTS)) {
      ctx.beginPath();
      ctx.arc(x, y, Math.max(4, 1.2 / this.scale), 0, 2 * Math.PI);
      ctx.fill();
    }
    this.background = off;
  }

  /** Draw a frame: `balls` {id: [x, y]}, `overlay(ctx, view)` draws aim lines etc. */
  draw(balls, overlay) {
    const ctx = this.ctx;
    if (!this.background) this._drawBackground();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(this.background, 0, 0);
    this._tableTransform(ctx);
    if (overlay && overlay.under) overlay.under(ctx, this);
    // Shadows first so that no ball's shadow lies over a neighbour.
    ctx.fillStyle = "rgba(0,0,0,0.28)";
    const [sx, sy] = this.screenOffset(7, 5);
    const R = this.R;
    for (const p of Object.values(balls)) {
      ctx.beginPath();
      ctx.arc(p[0] + sx, p[1] + sy, R, 0, 2 * Math.PI);
      ctx.fill();
    }
    const light = this.screenOffset(-0.4 * R, -0.4 * R);
    for (const [id, p] of Object.entries(balls)) drawBall(ctx, id, p, R, 1, light);
    if (overlay && overlay.over) overlay.over(ctx, this);
  }
}

/** A ball of radius R at (x, y); `light` is where its highlight sits from its centre, in table
 * mm (the screen's top left: TableView.screenOffset). */
export function drawBall(ctx, id, [x, y], R, alpha = 1, light = [-0.4 * R, -0.4 * R]) {
  const [lit, dark] = ballColour(id);
  ctx.save();
  ctx.globalAlpha = alpha;
  const g = ctx.createRadialGradient(x + light[0], y + light[1], R * 0.1, x, y, R);
  g.addColorStop(0, "#ffffff");
  g.addColorStop(0.18, lit);
  g.addColorStop(1, dark);
  ctx.beginPath();
  ctx.arc(x, y, R, 0, 2 * Math.PI);
  ctx.fillStyle = g;
  ctx.fill();
  ctx.restore();
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** A cushion seen from above: its nose, then back into the rail at each pocket's throat. */
function cushionPolygon({ a, b, outward, axis, pockets }) {
  const back = (p, towardPocket, kind) => {
    const q = [p[0] + outward[0] * CUSHION, p[1] + outward[1] * CUSHION];
    // Corner throats run into the pocket at 45°; middle throats flare away from it.
    q[axis] += towardPocket * (kind === "corner" ? CUSHION : -MIDDLE_FLARE);
    return q;
  };
  return [a, back(a, -1, pockets[0]), back(b, 1, pockets[1]), b];
}
