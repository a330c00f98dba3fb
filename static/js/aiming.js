// Aiming: the striker's cue (angle, power, spin) and how it is drawn: the cue, the aim guide
// (guide.js: the cue ball's line with its squirt, the first contact, the object ball's line
// with its throw and the cue ball's curve after it, as the server's physics will play them;
// tests/physics/test_guide.py holds it to the physics; with the match's full guide, the cue
// ball's rebound off the first cushion and the object ball's line to the pocket or the
// cushion; a ghost ball whose first contact would be a foul, by what the server says is on,
// crossed in red with the reason beside it: aids.js), the cue ball from hand, the tip
// offset on the spin control. The figures are the page constants', passed in (the stroke's
// limits to Aim, the guide with its table to AimPainter): the tests build both from their
// fixture.

import { firstContactFoul, foulWords } from "./aids.js";
import { addressPull } from "./cueswing.js";
import { hintCue } from "./hint.js";
import { drawBall } from "./table.js";

const STEP = Math.PI / 360; // 0.5°
const FINE_STEP = Math.PI / 3600; // 0.05°
// The stroke a turn starts with: a medium pace, the tip on the cue ball's centre.
export const NEUTRAL_SPEED = 3;

export function normaliseAngle(a) {
  let x = a % (2 * Math.PI);
  if (x > Math.PI) x -= 2 * Math.PI;
  if (x <= -Math.PI) x += 2 * Math.PI;
  return x;
}

/** The aim of one player: what the `aim` and `stroke` messages carry. */
export class Aim {
  /** `stroke`: the page constants' stroke limits (its `miscue_limit`). */
  constructor(stroke) {
    this.miscue = stroke.miscue_limit;
    this.angle = Math.PI / 2; // towards the top cushion
    this.speed = NEUTRAL_SPEED;
    this.side = 0;
    this.height = 0;
    this.cueBall = null; // where the cue ball is placed from hand (null: not placed)
    this.hover = null; // the pointer in the D while placing, with its validity
  }

  rotate(direction, fine) {
    this.angle = normaliseAngle(this.angle + direction * (fine ? FINE_STEP : STEP));
  }

  /** Turn the cue by `degrees` (positive: anticlockwise, on the table as on the screen). */
  turn(degrees) {
    this.angle = normaliseAngle(this.angle + (degrees * Math.PI) / 180);
  }

  /** After a stroke: the power and the spin back to neutral (the aim stays). */
  resetStroke() {
    this.speed = NEUTRAL_SPEED;
    this.side = 0;
    this.height = 0;
  }

  setSpin(side, height) {
    const limit = this.miscue;
    const n = Math.hypot(side, height);
    const k = n > limit ? limit / n : 1;
    const to = (round) => {
      this.side = round(side * k * 1000) / 1000;
      this.height = round(height * k * 1000) / 1000;
    };
    to(Math.round);
    // Rounding may carry the tip just past the limit (which the server refuses): then the
    // thousandths are cut towards the centre instead.
    if (Math.hypot(this.side, this.height) > limit) to(Math.trunc);
  }

  message(inHand) {
    return {
      angle: this.angle,
      speed: this.speed,
      side: this.side,
      height: this.height,
      cue_ball: inHand && this.cueBall ? [this.cueBall[0], this.cueBall[1]] : null,
    };
  }
}

/** The aim drawn on the table and on the spin control, from the aim guide (guide.js, which
 * holds the table's figures) and the stroke's limits (its `miscue_limit`). */
export class AimPainter {
  /** `guide`: "full" (the match's guide reaches the cushions) or "short" (aids.js). */
  constructor(guide, stroke, { guide: kind = "full" } = {}) {
    this.guide = guide;
    this.R = guide.R;
    this.miscue = stroke.miscue_limit;
    this.full = kind !== "short";
    this.last = null; // what the last aim drawn showed (the page's test hook reads it)
  }

  /** Draw the cue, the aim guide and the ghost ball (table mm). `rules`: what the server says
   * of the turn (aids.js turnRules), for a foul's ghost; null draws none. */
  drawAim(ctx, view, cue, aim, balls, { mine, rules = null }) {
    const { R } = this;
    const pred = this.guide.predict(cue, aim, balls, { full: this.full });
    const foul = firstContactFoul(pred.target, rules);
    const px = 1 / view.scale; // one CSS pixel in mm
    const [dx, dy] = pred.dir;
    ctx.save();
    ctx.lineCap = "round";
    // The cue ball's line (squirted off the cue by side) to the ghost ball, or to the first
    // cushion and on along its rebound.
    ctx.setLineDash([8 * px, 6 * px]);
    ctx.strokeStyle = mine ? "rgba(255,255,255,0.8)" : "rgba(255,255,200,0.65)";
    ctx.lineWidth = 1.5 * px;
    ctx.beginPath();
    ctx.moveTo(cue[0] + dx * R, cue[1] + dy * R);
    const corner = pred.bank || pred.ghost;
    ctx.lineTo(corner[0], corner[1]);
    if (pred.rebound) for (const [x, y] of pred.rebound) ctx.lineTo(x, y);
    ctx.stroke();
    ctx.setLineDash([]);
    // The ghost ball: crossed in red when the contact would be a foul.
    ctx.beginPath();
    ctx.arc(pred.ghost[0], pred.ghost[1], R, 0, 2 * Math.PI);
    ctx.strokeStyle = foul ? "#ff4b4b" : "rgba(255,255,255,0.85)";
    ctx.lineWidth = (foul ? 2.5 : 1.5) * px;
    ctx.stroke();
    const words = foul ? foulWords(foul, rules) : null;
    if (foul) {
      const k = R * 0.7;
      ctx.beginPath();
      ctx.moveTo(pred.ghost[0] - k, pred.ghost[1] - k);
      ctx.lineTo(pred.ghost[0] + k, pred.ghost[1] + k);
      ctx.moveTo(pred.ghost[0] - k, pred.ghost[1] + k);
      ctx.lineTo(pred.ghost[0] + k, pred.ghost[1] - k);
      ctx.stroke();
    }
    if (pred.target) {
      // The object ball's line after contact, throw included: in the full guide its path to
      // the pocket, the cushion or the ball it meets; else a short stretch of it.
      const start = pred.objectAt;
      ctx.strokeStyle = "rgba(255,235,120,0.9)";
      ctx.lineWidth = 2 * px;
      if (this.full) {
        const [ox, oy] = pred.objectDir;
        ctx.beginPath();
        ctx.moveTo(start[0] + ox * R, start[1] + oy * R);
        for (const [x, y] of pred.objectPath.slice(1)) ctx.lineTo(x, y);
        ctx.stroke();
      } else {
        const [ox, oy] = pred.objectDir;
        const reach = Math.min(R + 420, this.guide.geometry.toCushion(start, ox, oy));
        if (reach > R) {
          ctx.beginPath();
          ctx.moveTo(start[0] + ox * R, start[1] + oy * R);
          ctx.lineTo(start[0] + ox * reach, start[1] + oy * reach);
          ctx.stroke();
        }
      }
      // The cue ball's path just after the contact: its slide's curve, then its roll.
      ctx.strokeStyle = "rgba(255,255,255,0.35)";
      ctx.beginPath();
      pred.cuePath.slice(0, 1 + Math.ceil(pred.cuePath.length * 0.6)).forEach(([x, y], i) =>
        i ? ctx.lineTo(x, y) : ctx.moveTo(x, y));
      ctx.stroke();
    }
    this.drawCue(ctx, cue, aim);
    ctx.restore();
    if (words) this.drawLabel(ctx, view, pred.ghost, words);
    this.last = {
      mine, target: pred.target, end: pred.end, bank: pred.bank,
      rebound: pred.rebound ? pred.rebound.length : 0, objectEnd: pred.objectEnd || null,
      foul: foul ? { ...foul, words } : null,
    };
    return pred;
  }

  /** Words by a point of the table (a foul's ghost), upright on the screen however the table
   * lies: white on red, under the point (over it at the canvas's foot), inside the canvas. */
  drawLabel(ctx, view, at, words) {
    if (!view.toScreen) return; // a bare view (the unit tests' canvas) has no screen
    const dpr = view.dpr || 1;
    const [x, y] = view.toScreen(at);
    const gap = this.R * view.scale + 6;
    ctx.save();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = "600 12px system-ui, sans-serif";
    const w = ctx.measureText(words).width + 12;
    const h = 20;
    // Under the ghost, clear of the object ball's line, which leaves it the other way.
    const width = view.cssWidth || w;
    const left = Math.max(0, Math.min(width - w, x - w / 2));
    const height = view.cssHeight || y + gap + h;
    const top = y + gap + h <= height ? y + gap : Math.max(0, y - gap - h);
    ctx.fillStyle = "rgba(150,16,16,0.92)";
    ctx.fillRect(left, top, w, h);
    ctx.fillStyle = "#fff";
    ctx.textBaseline = "middle";
    ctx.fillText(words, left + 6, top + h / 2);
    ctx.restore();
  }

  /** The cue behind the cue ball at `cue`, along `aim.angle`, its tip `pull` mm behind the
   * ball's surface (by default where it stands at the address, drawn back with the power). */
  drawCue(ctx, cue, aim, pull = addressPull(aim.speed)) {
    const { R } = this;
    const dx = Math.cos(aim.angle);
    const dy = Math.sin(aim.angle);
    const length = 1450;
    const tip = [cue[0] - dx * (R + pull), cue[1] - dy * (R + pull)];
    const nx = -dy;
    const ny = dx;
    const at = (s, w) => [
      [tip[0] - dx * s + nx * w, tip[1] - dy * s + ny * w],
      [tip[0] - dx * s - nx * w, tip[1] - dy * s - ny * w],
    ];
    const piece = (s0, w0, s1, w1, fill) => {
      const [a, b] = at(s0, w0);
      const [c, d] = at(s1, w1);
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(c[0], c[1]);
      ctx.lineTo(d[0], d[1]);
      ctx.lineTo(b[0], b[1]);
      ctx.closePath();
      ctx.fillStyle = fill;
      ctx.fill();
    };
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.4)";
    ctx.shadowBlur = 6;
    ctx.shadowOffsetX = 4;
    ctx.shadowOffsetY = 4;
    piece(0, 5, length, 14.5, "#d9b77e");
    ctx.restore();
    piece(0, 5, 8, 5.05, "#3b6fb0"); // chalked tip
    piece(8, 5.05, 28, 5.3, "#f3efe2"); // ferrule
    piece(length * 0.62, 11.4, length, 14.5, "#2a1810"); // ebony butt
    piece(length * 0.6, 11.2, length * 0.62, 11.4, "#c9a24f");
  }

  /** The cue ball from hand: a ghost white where it would go, green if allowed, red if not. */
  drawPlacement(ctx, view, hover) {
    if (!hover) return;
    const { R } = this;
    const px = 1 / view.scale;
    drawBall(ctx, "white", hover.point, R, 0.55);
    ctx.beginPath();
    ctx.arc(hover.point[0], hover.point[1], R + 4 * px, 0, 2 * Math.PI);
    ctx.strokeStyle = hover.refusal ? "#ff4b4b" : "#5dff8a";
    ctx.lineWidth = 2.5 * px;
    ctx.stroke();
  }

  /** Highlight the D while the cue ball is in hand. */
  drawD(ctx, fill = "rgba(255,255,255,0.09)") {
    const { d_centre: D_CENTRE, d_radius: D_RADIUS } = this.guide.table;
    ctx.save();
    ctx.beginPath();
    const [cx, cy] = D_CENTRE;
    ctx.moveTo(cx + D_RADIUS, cy);
    ctx.arc(cx, cy, D_RADIUS, 0, Math.PI, true);
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.restore();
  }

  /** What a decision depends on, marked on the table (decision.js, `decisionMarks`): the D for
   * a stroke from hand (under the balls); where the cue ball lies now, ringed; and where
   * `replace` would put each ball that moved, a pale ball joined to where it lies now, the cue
   * ball's spot ringed brightly (over the balls). */
  drawMarks(ctx, view, marks, balls, layer) {
    const { R } = this;
    const { d_centre: D_CENTRE, d_radius: D_RADIUS } = this.guide.table;
    const px = 1 / view.scale;
    if (layer === "under") {
      if (!marks.d) return;
      this.drawD(ctx, "rgba(255,236,130,0.22)");
      ctx.save();
      ctx.beginPath();
      const [cx, cy] = D_CENTRE;
      ctx.arc(cx, cy, D_RADIUS, 0, Math.PI, true);
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.strokeStyle = "rgba(255,236,130,0.9)";
      ctx.lineWidth = 2.5 * px;
      ctx.stroke();
      ctx.restore();
      return;
    }
    ctx.save();
    const ring = (p, colour, width) => {
      ctx.beginPath();
      ctx.arc(p[0], p[1], R + 5 * px, 0, 2 * Math.PI);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width * px;
      ctx.stroke();
    };
    if (marks.restore) {
      for (const [id, back] of Object.entries(marks.restore.balls)) {
        const now = balls[id];
        if (now && Math.hypot(now[0] - back[0], now[1] - back[1]) < 1) continue;
        if (now) {
          ctx.setLineDash([5 * px, 4 * px]);
          ctx.strokeStyle = "rgba(255,255,255,0.7)";
          ctx.lineWidth = 1.5 * px;
          ctx.beginPath();
          ctx.moveTo(now[0], now[1]);
          ctx.lineTo(back[0], back[1]);
          ctx.stroke();
          ctx.setLineDash([]);
        }
        drawBall(ctx, id, back, R, 0.5);
        ring(back, id === "white" ? "#ffe45c" : "rgba(255,255,255,0.8)", id === "white" ? 3 : 1.5);
      }
    }
    if (marks.cue) ring(marks.cue, "#5dd2ff", 3);
    ctx.restore();
  }

  /** The tip offset on the spin control: the cue ball, the miscue limit, where the tip is. */
  drawSpin(canvas, aim) {
    const dpr = globalThis.devicePixelRatio || 1;
    const size = Math.round(canvas.getBoundingClientRect().width) || 84;
    if (canvas.width !== size * dpr) {
      canvas.width = size * dpr;
      canvas.height = size * dpr;
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    const c = size / 2;
    const r = size / 2 - 4;
    const g = ctx.createRadialGradient(c - 10, c - 12, 4, c, c, r);
    g.addColorStop(0, "#ffffff");
    g.addColorStop(1, "#cfcbbb");
    ctx.beginPath();
    ctx.arc(c, c, r, 0, 2 * Math.PI);
    ctx.fillStyle = g;
    ctx.fill();
    ctx.strokeStyle = "#888";
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(c, c, r * this.miscue, 0, 2 * Math.PI);
    ctx.setLineDash([3, 3]);
    ctx.strokeStyle = "#b33";
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(c + aim.side * r, c - aim.height * r, 5, 0, 2 * Math.PI);
    ctx.fillStyle = "#1f5fbf";
    ctx.fill();
  }

  /** Draw a practice table's hint (hint.js): the stroke's aim line (the guide a player's aim
   * gets) and the cue ball's planned stop, a dashed ring with a cross. */
  drawHint(ctx, view, hint, balls) {
    const cue = hintCue(hint, balls);
    if (!cue) return;
    const { R } = this;
    const px = 1 / view.scale;
    this.drawAim(ctx, view, cue, hint.aim, balls, { mine: false });
    if (!hint.leave) return;
    const [x, y] = hint.leave;
    ctx.save();
    ctx.setLineDash([4 * px, 4 * px]);
    ctx.strokeStyle = "rgba(120,230,255,0.9)";
    ctx.lineWidth = 2.5 * px;
    ctx.beginPath();
    ctx.arc(x, y, R, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x - R * 0.6, y);
    ctx.lineTo(x + R * 0.6, y);
    ctx.moveTo(x, y - R * 0.6);
    ctx.lineTo(x, y + R * 0.6);
    ctx.stroke();
    ctx.restore();
  }
}
