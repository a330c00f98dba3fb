// What the table shows, and when: events leave the queue in order; a stroke is animated from
// its trajectories before its snapshot is shown; while catching up only the last stroke is
// animated. Pure: the clock comes in as `now` (ms), so tests/playback.test.js steps it.

import { Motion } from "./trajectory.js";

export class Playback {
  /** `rate`: how many seconds of a stroke play per second (1 = real time). */
  constructor(rate) {
    this.rate = rate;
    this.shown = null; // the snapshot on screen
    this.balls = {}; // where the balls are drawn now
    this.anim = null; // the stroke moving: {motion, start, before, event}
  }

  /** A whole new picture (a welcome's snapshot): nothing moving survives it. */
  reset(snapshot) {
    this.anim = null;
    this._show(snapshot);
  }

  /** Move on to `now`, taking events from `queue`; `show(event, before, final)` is called for
   * each event whose snapshot is now on screen, in order: `before` the snapshot it replaced,
   * `final` where the balls were when the event was done, before its snapshot (which shows
   * the next rack when the event ended a frame). Returns the stroke whose animation starts
   * now, if any. */
  advance(now, queue, show) {
    if (this.anim) {
      const t = ((now - this.anim.start) / 1000) * this.rate;
      if (t < this.anim.motion.end) {
        this.balls = this.anim.motion.positionsAt(t, this.anim.before);
        return null;
      }
      const { event, motion, before } = this.anim;
      this.anim = null;
      const final = motion.positionsAt(motion.end, before);
      show(event, this._show(event.snapshot), final);
    }
    while (queue.length) {
      const event = queue.shift();
      if (event.kind === "stroke" && event.shot && queue.length === 0) {
        const motion = new Motion(event.shot);
        if (motion.end > 0) {
          const before = { ...this.balls };
          // From hand, the cue ball starts where the striker placed it.
          const cue = event.request && event.request.cue_ball;
          if (cue) before.white = cue;
          this.anim = { motion, start: now, before, event };
          this.balls = motion.positionsAt(0, before);
          return this.anim;
        }
      }
      const shot = event.shot;
      const final = shot && shot.positions ? { ...shot.positions } : { ...this.balls };
      show(event, this._show(event.snapshot), final);
    }
    return null;
  }

  /** Put `snapshot` on screen; returns the one it replaces. */
  _show(snapshot) {
    const before = this.shown;
    this.shown = snapshot;
    this.balls = { ...snapshot.frame.balls };
    return before;
  }
}
