// The match's table on its canvas: the balls where the view shows them (the frame just ended
// held a moment, the cue ball from hand where this player puts it or the striker's aim says),
// the zoom following the cue ball, and over and under the balls the aim, the D, a decision's
// marks and a practice table's hint. It reads the view's state (view.js) and draws when the
// view says the canvas needs it (`view.dirty`) or the canvas changed size.

import { turnRules } from "./aids.js";
import { decisionMarks } from "./decision.js";
import { hintShown } from "./hint.js";
import { frameShot } from "./zoom.js";

export class Scene {
  /** `table`: the page constants' table (its D, where a zoom looks from hand). */
  constructor({ view, tableView, painter, settings, table }) {
    this.view = view; // the match view (view.js)
    this.tableView = tableView; // the canvas (table.js)
    this.painter = painter; // the aim, the D, the marks and the hint (aiming.js)
    this.settings = settings; // the zoom button's (settings.js)
    this.table = table;
    this.manual = null; // {zoom, focus}: a pinch's or the wheel's, until the zoom button
    this.framed = null; // the shot framed, and what it was framed for
    // The last stroke's cue as drawn (the page's test hook): {version, frames, most and least
    // pull (mm), whether the cue ball stayed put while the tip had not reached it}.
    this.swung = null;
  }

  /** Note the swinging cue drawn (`swing`: view.swingingCue()). */
  noteSwing(swing) {
    const { anim } = this.view.playback;
    const version = anim.event.version;
    if (!this.swung || this.swung.version !== version) {
      this.swung = { version, frames: 0, most: swing.pull, least: swing.pull, stillBefore: true };
    }
    const s = this.swung;
    s.frames += 1;
    s.most = Math.max(s.most, swing.pull);
    s.least = Math.min(s.least, swing.pull);
    const white = this.view.playback.balls.white;
    const moved = white && Math.hypot(white[0] - swing.cue[0], white[1] - swing.cue[1]) > 0.5;
    if (swing.pull > 0 && moved) {
      s.stillBefore = false;
    }
  }

  /** The zoom and focus to show: a pinch's or the wheel's; else, with the zoom button on, the
   * shot framed (the cue ball and the ball aimed at, chosen when the cue ball comes to rest;
   * from hand, the D, not the ball being dragged, which would move the table under the
   * finger); else the whole table. */
  zoom() {
    const { view, tableView } = this;
    if (this.manual) return this.manual;
    if (!this.settings.get("zoom")) return { zoom: 1, focus: null };
    const snap = view.shown;
    if (snap && snap.frame.in_hand) return { zoom: 2, focus: this.table.d_centre };
    const cue = view.cuePosition();
    if (!cue) return { zoom: 2, focus: null };
    const key = [snap.version, cue[0], cue[1], tableView.cssWidth, tableView.cssHeight].join();
    if (!this.framed || this.framed.key !== key) {
      const { cssWidth: width, cssHeight: height, fit, upright } = tableView;
      const aimedAt = view.target(); // the ball the cue is aimed at, if it meets one
      const to = aimedAt ? snap.frame.balls[aimedAt] : null;
      this.framed = { key, ...frameShot(cue, to, { width, height, fit, upright }) };
    }
    return this.framed;
  }

  draw() {
    const { view } = this;
    const { zoom, focus } = this.zoom();
    // While a stroke is played the view stays where it is.
    if (this.tableView.view(zoom, view.playback.anim ? this.tableView.focus : focus)) {
      view.dirty = true;
    }
    if (this.tableView.resize()) view.dirty = true;
    if (!view.dirty) return;
    view.dirty = false;
    this.tableView.draw(this.balls(), this.overlay());
  }

  overlay() {
    const { view } = this;
    const snap = view.shown;
    const moving = Boolean(view.playback.anim);
    const marks = view.hold || moving ? null : decisionMarks(snap, view.decision.focus);
    return {
      under: (ctx, v) => {
        if (marks) this.painter.drawMarks(ctx, v, marks, snap.frame.balls, "under");
        else if (snap && snap.frame.in_hand && !moving && snap.status === "live" &&
            !snap.frame.pending && !view.hold) {
          this.painter.drawD(ctx);
        }
      },
      over: (ctx, v) => {
        if (moving) {
          // The stroke's cue swinging back and through the ball (cueswing.js).
          const swing = view.swingingCue();
          if (swing) {
            this.painter.drawCue(ctx, swing.cue, swing, swing.pull);
            this.noteSwing(swing);
          }
          return;
        }
        if (!snap || view.hold) return;
        if (view.client.pending && view.canStrike() && view.cuePosition()) {
          // Struck, the answer on its way: the cue stays at the address until the swing.
          this.painter.drawCue(ctx, view.cuePosition(), view.aim);
          return;
        }
        // A practice table's hint, under the member's own aim (hint.js).
        if (hintShown(view.proHint, snap)) {
          this.painter.drawHint(ctx, v, view.proHint, snap.frame.balls);
        }
        if (marks) {
          this.painter.drawMarks(ctx, v, marks, snap.frame.balls, "over");
          return;
        }
        if (view.ready()) {
          const cue = view.cuePosition();
          if (snap.frame.in_hand) this.painter.drawPlacement(ctx, v, view.aim.hover);
          if (cue) {
            // A nomination applies only when the server offers one (controlspanel.js).
            const nominated = snap.turn.nominate.length ? view.nominated() : null;
            this.painter.drawAim(ctx, v, cue, view.aim, snap.frame.balls,
              { mine: true, rules: turnRules(snap, nominated) });
          }
          return;
        }
        const remote = view.remoteAim;
        if (remote && remote.seat === snap.scoreboard.to_act && remote.seat !== view.client.seat) {
          const cue = snap.frame.in_hand ? remote.cue_ball : snap.frame.balls.white;
          if (cue) {
            this.painter.drawAim(ctx, v, cue, remote, snap.frame.balls,
              { mine: false, rules: turnRules(snap) });
          }
        }
      },
    };
  }

  /** The balls drawn, the white last (on top of a ball it is placed against). */
  balls() {
    const { view } = this;
    if (view.hold) return { ...view.hold.balls };
    const balls = { ...view.playback.balls };
    const snap = view.shown;
    const remote = view.remoteAim;
    if (!view.playback.anim && snap && snap.frame.in_hand) {
      delete balls.white;
      if (view.ready() && view.aim.cueBall) balls.white = view.aim.cueBall;
      else if (remote && remote.cue_ball && remote.seat !== view.client.seat) {
        balls.white = remote.cue_ball;
      }
    }
    // Draw the white last so it sits on top of a ball it might be placed against.
    const ordered = {};
    for (const id of Object.keys(balls).sort((a, b) => (a === "white") - (b === "white"))) {
      ordered[id] = balls[id];
    }
    return ordered;
  }
}
