// The match's table on its canvas: the balls where the view shows them (the frame just ended
// held a moment, the cue ball from hand where this player puts it or the striker's aim says),
// the zoom following the cue ball, and over and under the balls the aim, the D, a decision's
// marks and a practice table's hint. It reads the view's state (view.js) and draws when the
// view says the canvas needs it (`view.dirty`) or the canvas changed size.

import { decisionMarks } from "./decision.js";
import { hintShown } from "./hint.js";

export class Scene {
  /** `table`: the page constants' table (its D, where a zoom looks from hand). */
  constructor({ view, tableView, painter, settings, table }) {
    this.view = view; // the match view (view.js)
    this.tableView = tableView; // the canvas (table.js)
    this.painter = painter; // the aim, the D, the marks and the hint (aiming.js)
    this.settings = settings; // the zoom (settings.js)
    this.table = table;
  }

  draw() {
    const { view } = this;
    const snap = view.shown;
    const zoom = this.settings.get("zoom") ? 2 : 1;
    // Zoomed, the view follows the cue ball at rest; from hand it looks at the D (not at the
    // ball being dragged, which would move the table under the finger).
    const focus = snap && snap.frame.in_hand ? this.table.d_centre : view.cuePosition();
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
        if (!snap || moving || view.hold) return;
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
          if (cue) this.painter.drawAim(ctx, v, cue, view.aim, snap.frame.balls, { mine: true });
          return;
        }
        const remote = view.remoteAim;
        if (remote && remote.seat === snap.scoreboard.to_act && remote.seat !== view.client.seat) {
          const cue = snap.frame.in_hand ? remote.cue_ball : snap.frame.balls.white;
          if (cue) this.painter.drawAim(ctx, v, cue, remote, snap.frame.balls, { mine: false });
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
