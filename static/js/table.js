// The table: geometry (RULES.md §1, rules/table.py) and drawing on a high-DPI canvas.
//
// Table coordinates are millimetres with the origin on the centre spot, x to the right as
// seen from the baulk end, y towards the top cushion. The table is drawn horizontally: the
// baulk end on the left of the screen, the top cushion on the right, so table +y is screen
// right and table +x is screen down (a quarter turn, not a mirror).

export const HALF_WIDTH = 889.0;
export const HALF_LENGTH = 1784.5;
export const R = 26.25;
export const BAULK_Y = -1084.5;
export const D_RADIUS = 292.0;
export const SPOTS = {
  yellow: [292.0, BAULK_Y],
  green: [-292.0, BAULK_Y],
  brown: [0.0, BAULK_Y],
  blue: [0.0, 0.0],
  pink: [0.0, 892.25],
  black: [0.0, 1460.5],
};
export const VALUES = { yellow: 2, green: 3, brown: 4, blue: 5, pink: 6, black: 7 };
export const COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"];

// Pockets, as rules/table.py builds them (WPBSA templates).
const CORNER_MOUTH = 86.0;
const MIDDLE_MOUTH = 100.0;
const CORNER_KNUCKLE = 12.0;
const MIDDLE_KNUCKLE = 18.0;

function corner(sx, sy) {
  const cut = CORNER_MOUTH / Math.SQRT2;
  const cx = sx * HALF_WIDTH;
  const cy = sy * HALF_LENGTH;
  const sideEnd = [cx, cy - sy * cut];
  const endEnd = [cx - sx * cut, cy];
  const r = CORNER_KNUCKLE;
  return {
    kind: "corner",
    corner: [cx, cy],
    mouth: [(sideEnd[0] + endEnd[0]) / 2, (sideEnd[1] + endEnd[1]) / 2],
    inward: [sx / Math.SQRT2, sy / Math.SQRT2],
    jaws: [
      { centre: [sideEnd[0] + sx * r, sideEnd[1]], radius: r },
      { centre: [endEnd[0], endEnd[1] + sy * r], radius: r },
    ],
  };
}

function middle(sx) {
  const half = MIDDLE_MOUTH / 2;
  const x = sx * HALF_WIDTH;
  const r = MIDDLE_KNUCKLE;
  return {
    kind: "middle",
    mouth: [x, 0],
    inward: [sx, 0],
    jaws: [
      { centre: [x + sx * r, -half], radius: r },
      { centre: [x + sx * r, half], radius: r },
    ],
  };
}

export const POCKETS = [
  corner(-1, -1), corner(1, -1), middle(-1), middle(1), corner(-1, 1), corner(1, 1),
];

export const BALL_COLOURS = {
  white: ["#fbfaf3", "#c9c6b6"],
  red: ["#d7192a", "#6e0710"],
  yellow: ["#ffd83a", "#a4830a"],
  green: ["#169a4a", "#05421d"],
  brown: ["#8a5326", "#3b200b"],
  blue: ["#2a6fd6", "#0c2d66"],
  pink: ["#ff9fc6", "#b85880"],
  black: ["#3a3a3a", "#050505"],
};

export function ballColour(id) {
  return BALL_COLOURS[id.startsWith("red") ? "red" : id] || BALL_COLOURS.white;
}

export function inD([x, y]) {
  return y <= BAULK_Y + 1e-9 && Math.hypot(x, y - BAULK_Y) <= D_RADIUS + 1e-9;
}

/** Where the cue ball may be placed from hand: in the D and clear of every ball. */
export function placementProblem(p, balls) {
  if (!inD(p)) return "outside the D";
  for (const [id, q] of Object.entries(balls)) {
    if (id === "white") continue;
    if (Math.hypot(p[0] - q[0], p[1] - q[1]) < 2 * R - 1e-6) return `touches ${id}`;
  }
  return null;
}

// Drawing sizes (mm) around the playing area.
const CUSHION = 48; // rubber cushion, nose to the rail
const RAIL = 125; // the wooden rail outside the cushion
const MARGIN = 14; // a little air around the frame
const EXTENT_LONG = HALF_LENGTH + CUSHION + RAIL + MARGIN;
const EXTENT_SHORT = HALF_WIDTH + CUSHION + RAIL + MARGIN;

export class TableView {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.scale = 1; // CSS pixels per mm
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.dpr = 1;
    this.background = null;
  }

  /** Fit the table into the canvas's CSS box; returns true if anything changed. */
  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width));
    const h = Math.max(1, Math.round(rect.height));
    if (w === this.cssWidth && h === this.cssHeight && dpr === this.dpr) return false;
    this.cssWidth = w;
    this.cssHeight = h;
    this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.scale = Math.min(w / (2 * EXTENT_LONG), h / (2 * EXTENT_SHORT));
    this.background = null;
    return true;
  }

  /** Table (mm) to canvas CSS pixels. */
  toScreen([x, y]) {
    return [this.cssWidth / 2 + y * this.scale, this.cssHeight / 2 + x * this.scale];
  }

  /** Canvas CSS pixels to table (mm). */
  toTable([sx, sy]) {
    return [(sy - this.cssHeight / 2) / this.scale, (sx - this.cssWidth / 2) / this.scale];
  }

  /** Table angle (0 = +x) to a screen angle (canvas, y down) and back. */
  static screenAngle(angle) {
    return Math.atan2(Math.cos(angle), Math.sin(angle));
  }

  // Every drawing call below works in table millimetres: this transform maps them.
  _tableTransform(ctx) {
    const s = this.scale * this.dpr;
    // screen = (W/2 + y s, H/2 + x s): a = 0, b = s, c = s, d = 0.
    ctx.setTransform(0, s, s, 0, (this.cssWidth / 2) * this.dpr, (this.cssHeight / 2) * this.dpr);
  }

  _drawBackground() {
    const off = document.createElement("canvas");
    off.width = this.canvas.width;
    off.height = this.canvas.height;
    const ctx = off.getContext("2d");
    this._tableTransform(ctx);
    const HW = HALF_WIDTH;
    const HL = HALF_LENGTH;
    const outerW = HW + CUSHION + RAIL;
    const outerL = HL + CUSHION + RAIL;

    // Wooden rail, with a soft shadow under the whole table.
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.45)";
    ctx.shadowBlur = 18 * this.dpr;
    roundRect(ctx, -outerW, -outerL, 2 * outerW, 2 * outerL, 70);
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
    ctx.lineWidth = 6;
    roundRect(ctx, -outerW + 10, -outerL + 10, 2 * outerW - 20, 2 * outerL - 20, 60);
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
      const depth = p.kind === "corner" ? 34 : 40;
      const radius = p.kind === "corner" ? 56 : 50;
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
    for (const poly of cushionPolygons()) {
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
    for (const [a, b] of noseLines()) {
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
    ctx.arc(0, BAULK_Y, D_RADIUS, 0, Math.PI, true);
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
    for (const p of Object.values(balls)) {
      ctx.beginPath();
      ctx.arc(p[0] + 5, p[1] + 7, R, 0, 2 * Math.PI);
      ctx.fill();
    }
    for (const [id, p] of Object.entries(balls)) drawBall(ctx, id, p);
    if (overlay && overlay.over) overlay.over(ctx, this);
  }
}

export function drawBall(ctx, id, [x, y], alpha = 1) {
  const [light, dark] = ballColour(id);
  ctx.save();
  ctx.globalAlpha = alpha;
  // Light comes from the screen's top left: table (-x, -y) is screen (up, left).
  const g = ctx.createRadialGradient(x - R * 0.4, y - R * 0.4, R * 0.1, x, y, R);
  g.addColorStop(0, "#ffffff");
  g.addColorStop(0.18, light);
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

// The six cushion noses, each from jaw tangent point to jaw tangent point.
function noseLines() {
  const cut = CORNER_MOUTH / Math.SQRT2;
  const HW = HALF_WIDTH;
  const HL = HALF_LENGTH;
  const half = MIDDLE_MOUTH / 2;
  const lines = [];
  for (const sx of [-1, 1]) {
    lines.push([[sx * HW, -HL + cut], [sx * HW, -half]]);
    lines.push([[sx * HW, half], [sx * HW, HL - cut]]);
  }
  for (const sy of [-1, 1]) lines.push([[-HW + cut, sy * HL], [HW - cut, sy * HL]]);
  return lines;
}

// Each cushion as a polygon: the nose, then back into the rail at the pocket throats.
function cushionPolygons() {
  const cut = CORNER_MOUTH / Math.SQRT2;
  const HW = HALF_WIDTH;
  const HL = HALF_LENGTH;
  const half = MIDDLE_MOUTH / 2;
  const C = CUSHION;
  const polys = [];
  for (const sx of [-1, 1]) {
    const x0 = sx * HW;
    const x1 = sx * (HW + C);
    // Lower side cushion: corner throat at 45°, middle throat flaring outwards.
    polys.push([[x0, -HL + cut], [x1, -HL + cut - C], [x1, -half - 14], [x0, -half]]);
    polys.push([[x0, half], [x1, half + 14], [x1, HL - cut + C], [x0, HL - cut]]);
  }
  for (const sy of [-1, 1]) {
    const y0 = sy * HL;
    const y1 = sy * (HL + C);
    polys.push([[-HW + cut, y0], [-HW + cut - C, y1], [HW - cut + C, y1], [HW - cut, y0]]);
  }
  return polys;
}
