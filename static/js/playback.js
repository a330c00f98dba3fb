// What the table shows, and when: events leave the queue in order; a stroke is animated from
// its trajectories before its snapshot is shown; while catching up only the last stroke is
// animated. A stroke's balls move once the cue has swung to the ball (`lead` seconds of the
// stroke's playback: cueswing.js), the cue drawn meanwhile from `anim.t`. Pure: the clock
// comes in as `now` (ms), so tests/playback.test.js steps it.

import { Motion } from "./trajectory.js";

/** Seconds into a stroke's motion at which each of its balls drops, in order, when the
 * server's ruling gave the striker points and no foul and the frame goes on (the snapshot
 * then is the next rack's); else none. The score may change at each (scoreAfterDrops). */
export function scoringDrops(event) {
  const { ruling, shot } = event;
  if (event.kind !== "stroke" || event.frame_end || !ruling || ruling.foul) return [];
  if (!(ruling.points > 0) || !shot || !shot.events) return [];
  return shot.events
    .filter(([, kind, ball]) => kind === "pocket" && ball !== "white")
    .map(([t]) => t)
    .sort((a, b) => a - b);
}

/** The striker's score and the break once `k` of a fair stroke's `n` balls have dropped:
 * the server's figures after the stroke (its snapshot) less the points of the balls still to
 * drop. Every ball of a fair stroke is worth the same (reds, or one ball), so each drop is
 * the ruling's points over `n`. */
export function scoreAfterDrops(event, k, n) {
  const board = event.snapshot.scoreboard;
  const left = Math.round((event.ruling.points * (n - k)) / n);
  return { seat: event.seat, score: board.scores[event.seat] - left, break: board.break - left };
}

export class Playback {
  /** `rate`: how many seconds of a stroke play per second (1 = real time); `lead`: seconds
   * of a stroke's playback before its balls move (the cue's swing). */
  constructor(rate, lead = 0) {
    this.rate = rate;
    this.lead = lead;
    this.shown = null; // the snapshot on screen
    this.balls = {}; // where the balls are drawn now
    // The stroke moving: {motion, start, before, event, t (s of its playback, the balls
    // moving from `lead`)}.
    this.anim = null;
  }

  /** A whole new picture (a welcome's snapshot): nothing moving survives it. */
  reset(snapshot) {
    this.anim = null;
    this._show(snapshot);
  }

  /** Play the stroke moving to its end at once (the watcher's or the player's "skip"): the
   * next `advance` shows its final position and its snapshot. Returns whether one moved. */
  skip() {
    if (!this.anim) return false;
    this.anim.start = -Infinity;
    return true;
  }

  /** Move on to `now`, taking events from `queue`; `show(event, before, final)` is called for
   * each event whose snapshot is now on screen, in order: `before` the snapshot it replaced,
   * `final` where the balls were when the event was done, before its snapshot (which shows
   * the next rack when the event ended a frame). `scored(event, k, n)`, as the `k`th of a
   * stroke's `n` scoring balls drops while it still moves (scoringDrops). Returns the stroke
   * whose animation starts now, if any. */
  advance(now, queue, show, scored = null) {
    if (this.anim) {
      const t = ((now - this.anim.start) / 1000) * this.rate;
      this.anim.t = t;
      const { drops } = this.anim;
      while (scored && this.anim.dropped < drops.length && t - this.lead >= drops[this.anim.dropped]
          && t - this.lead < this.anim.motion.end) {
        this.anim.dropped += 1;
        scored(this.anim.event, this.anim.dropped, drops.length);
      }
      if (t - this.lead < this.anim.motion.end) {
        this.balls = this.anim.motion.positionsAt(Math.max(0, t - this.lead), this.anim.before);
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
          this.anim = {
            motion, start: now, before, event, t: 0, drops: scoringDrops(event), dropped: 0,
          };
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
