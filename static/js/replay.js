// A frame's replay, stroke by stroke, from what the server stored (members/archive.py): the
// position the frame was racked in, then one step per event (a stroke, a decision, the draw,
// a concession) with its stored trajectories, calls, the position and the score it left.
// Strokes are animated from their trajectories (trajectory.js, as on the live table); nothing
// is simulated again. Pure: time comes in through `tick(now)` (ms), so tests/replay.test.js
// drives it.
//
// `at` is how many steps are done: 0 is the frame as racked, `total` its end. While a step is
// animated `at` stays where the stroke began and moves on when the balls stop. The page counts
// strokes (`played`, `stroke`, `strokes`), which is what a reader counts.

import { Motion } from "./trajectory.js";

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
// While playing, how long each position stays on screen before the next step (ms at speed 1).
export const PAUSE_MS = 700;

export class Replay {
  constructor({ start, steps }, { speed = 1 } = {}) {
    this.start = start;
    this.steps = steps;
    this.speed = speed;
    this.at = 0;
    this.playing = false;
    this.anim = null; // {index, motion, before, t (s into the stroke), moving}
    this.gap = 0; // ms (at speed 1) left before the next step while playing
    this.last = null; // the `now` of the last tick
    this.balls = { ...start.balls };
    this.strokes = [];
    steps.forEach((step, i) => {
      if (step.kind === "stroke") this.strokes.push(i);
    });
  }

  get total() {
    return this.steps.length;
  }

  /** The stored position after `at` steps. */
  position(at) {
    return at === 0 ? this.start.balls : this.steps[at - 1].balls;
  }

  /** The step index at which the `n`th stroke (1-based) is about to be played; 0 for none,
   * the end for a stroke past the last. */
  strokeIndex(n) {
    if (!(n >= 1)) return 0;
    return n <= this.strokes.length ? this.strokes[n - 1] : this.total;
  }

  /** The number (1-based) of the next stroke to be played from `at`, or null at the end. */
  nextStroke(at = this.at) {
    const k = this.strokes.findIndex((i) => i >= at);
    return k === -1 ? null : k + 1;
  }

  /** How many strokes are played or being played: the one moving counts. */
  played() {
    const through = this.anim ? this.anim.index : this.at - 1;
    return this.strokes.filter((i) => i <= through).length;
  }

  // --- what the controls do -------------------------------------------------------------------
  /** Jump to a position, nothing moving; playing stops. */
  seek(at) {
    this.anim = null;
    this.playing = false;
    this.at = Math.max(0, Math.min(this.total, Math.round(Number(at)) || 0));
    this.balls = { ...this.position(this.at) };
  }

  /** The next step: a stroke is animated and then stops. Pressed while a stroke moves, it
   * steps all the same: the moving stroke lands at once and the next step begins. */
  stepForward() {
    this.playing = false;
    if (this.anim) this._finish();
    if (this.at < this.total) this._begin(this.at, true);
  }

  /** Back to the position before the step shown (or the one moving). */
  stepBack() {
    this.playing = false;
    if (this.anim) this.seek(this.anim.index);
    else this.seek(this.at - 1);
  }

  play() {
    if (this.at >= this.total && !this.anim) this.seek(0);
    this.playing = true;
    if (this.anim) this.anim.moving = true;
    else this.gap = 0;
  }

  /** Stop where things are, a moving stroke frozen mid-way. */
  pause() {
    this.playing = false;
    if (this.anim) this.anim.moving = false;
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed) {
    if (speed > 0) this.speed = speed;
  }

  // --- time -------------------------------------------------------------------------------------
  /** Move on to `now` (ms). Returns true if anything on screen changed. */
  tick(now) {
    const dt = this.last === null ? 0 : Math.max(0, now - this.last);
    this.last = now;
    const anim = this.anim;
    if (anim) {
      if (anim.moving) anim.t += (dt / 1000) * this.speed;
      if (anim.t >= anim.motion.end) {
        this._finish();
        this.gap = PAUSE_MS;
      } else {
        this.balls = anim.motion.positionsAt(anim.t, anim.before);
      }
      return true;
    }
    if (!this.playing) return false;
    if (this.at >= this.total) {
      this.playing = false;
      return true;
    }
    this.gap -= dt * this.speed;
    if (this.gap > 0) return false;
    this._begin(this.at, true);
    if (!this.anim) this.gap = PAUSE_MS;
    return true;
  }

  /** Start step `index`: animate its stroke, or show its position at once. */
  _begin(index, moving) {
    const step = this.steps[index];
    const motion = step.shot ? new Motion(step.shot) : null;
    if (!motion || !(motion.end > 0)) {
      this.anim = null;
      this.at = index + 1;
      this.balls = { ...this.position(this.at) };
      return;
    }
    const before = { ...this.position(index) };
    // From hand, the cue ball starts where the striker placed it.
    if (step.cue_ball) before.white = step.cue_ball;
    this.anim = { index, motion, before, t: 0, moving };
    this.at = index;
    this.balls = motion.positionsAt(0, before);
  }

  _finish() {
    const { index } = this.anim;
    this.anim = null;
    this.at = index + 1;
    this.balls = { ...this.position(this.at) };
    if (!this.playing) this.gap = 0;
  }

  // --- what the page shows ----------------------------------------------------------------------
  /** The last step done (null at the start). */
  get done() {
    return this.at > 0 ? this.steps[this.at - 1] : null;
  }

  view() {
    const done = this.done;
    return {
      at: this.at,
      total: this.total,
      playing: this.playing,
      animating: Boolean(this.anim),
      balls: this.balls,
      scores: done ? done.scores : this.start.scores,
      break: done ? done.break : this.start.break,
      calls: done && !this.anim ? done.calls : [],
      version: done ? done.version : null,
      // The step on screen: the one moving, else the next to be played (total at the end).
      step: this.anim ? this.anim.index : this.at,
      // Strokes, not steps (a decision, the draw, a concession are steps too). One number
      // names the stroke on screen everywhere (the page's "Stroke 12 / 47", its address, the
      // log's line): the one moving, else the next to be played; null at the frame's end.
      played: this.played(),
      stroke: this.nextStroke(this.anim ? this.anim.index : this.at),
      strokes: this.strokes.length,
    };
  }
}
