// What the player's controls do, whichever control asks (input.js binds them): strike,
// answer a decision, concede or claim (asked first), place the cue ball from hand where the
// referee allows; and the aim sent as it moves (AimSender). Given the page's elements, the
// view, the client, the aim, the table's geometry and the stroke's limits; time through a
// clock (static/js/tests/input.test.js drives both on fakes).

import { t } from "./i18n.js";
import { refusalText } from "./story.js";

const AIM_EVERY = 120; // ms between aim messages (the server relays at most 10 a second)
const AIM_SETTLE = 400; // ms after the last change, the final aim is sent again

/** The browser's clock (AimSender's by default). */
export const BROWSER_CLOCK = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
};

/** The aim as the opponent and the spectators see it move: at most one `aim` message every
 * AIM_EVERY ms, and the final aim once more a little later (the server drops aim messages
 * that come too fast, and the last one must get through). */
export class AimSender {
  constructor({ view, conn, aim, clock = BROWSER_CLOCK }) {
    this.view = view;
    this.conn = conn;
    this.aim = aim;
    this.clock = clock;
    this.lastSent = -Infinity;
    this.timer = null;
    this.settle = null;
  }

  /** The aim moved: the view shows it, and the socket sends it if it is ours to play. */
  changed() {
    const { view, clock } = this;
    view.aimMoved();
    if (!view.ready()) return;
    const wait = AIM_EVERY - (clock.now() - this.lastSent);
    if (wait <= 0) this.send();
    else if (!this.timer) this.timer = clock.setTimeout(() => this.send(), wait);
    clock.clearTimeout(this.settle);
    this.settle = clock.setTimeout(() => this.send(), AIM_SETTLE);
  }

  send() {
    const { view, aim, clock } = this;
    clock.clearTimeout(this.timer);
    this.timer = null;
    const placing = view.shown.frame.in_hand;
    if (!view.ready() || (placing && !aim.cueBall)) return;
    this.lastSent = clock.now();
    this.conn.send({ type: "aim", ...aim.message(placing) });
  }
}

/** What the binders share. `changed()`: the aim moved (AimSender.changed). */
export class Controls {
  constructor({ panels, view, client, aim, geometry, stroke, changed }) {
    this.panels = panels;
    this.el = panels.el;
    this.view = view;
    this.client = client;
    this.aim = aim;
    this.geometry = geometry; // the table's (geometry.js)
    this.stroke = stroke; // the page constants' stroke limits
    this.changed = changed;
  }

  /** Whether the cue ball is in hand in the position shown. */
  placing() {
    return this.view.shown.frame.in_hand;
  }

  /** Why the cue ball may not go at `p` from hand (geometry.js), or null. */
  refusal(p) {
    return this.geometry.placementRefusal(p, this.view.shown.frame.balls);
  }

  refused(why, ms) {
    this.panels.notice(t("place.refused", { why: refusalText(why) }), ms ? { ms } : undefined);
  }

  /** Take a hint's stroke (hint.js) as the aim: its direction, power, spin and, from hand, its
   * cue ball's place. The player still strikes. False if it cannot be taken now. */
  takeHint(hint) {
    const { view, aim } = this;
    if (!view.ready() || !hint) return false;
    const { angle, speed, side, height, cue_ball: cueBall } = hint.aim;
    if (this.placing() && cueBall) {
      if (this.refusal(cueBall)) return false;
      aim.cueBall = cueBall;
    }
    Object.assign(aim, { angle, speed, side, height });
    this.changed();
    view.refresh();
    return true;
  }

  /** Play the stroke aimed. */
  strike() {
    const { view, client, aim, panels } = this;
    if (!view.ready()) return;
    if (this.placing() && !aim.cueBall) {
      panels.notice(t("place.first"));
      return;
    }
    client.request({
      type: "stroke",
      version: client.version,
      ...aim.message(this.placing()),
      nominated: view.nominated(),
    });
    view.refresh();
  }

  /** Answer the decision asked. */
  choose(option) {
    const { view, client } = this;
    if (!view.shown || client.pending) return;
    this.el("decision-panel").hidden = true;
    client.request({ type: "choose", version: client.version, option });
    view.refresh();
  }

  /** Ask first; then send `concede` or `claim` if the frame asked about is still in play. */
  async settle(type, scope) {
    const { view, client, panels } = this;
    if (!view.canAct()) return;
    const n = view.shown.scoreboard.frame_number;
    const other = client.seat === "A" ? "B" : "A";
    const name = client.players[other];
    // Conceding the frame that gives the other the match ends the match: no next frame; a
    // claim against a player who is here is for stalling (rules/presence.py).
    const { frames } = view.shown.scoreboard;
    const last = type === "concede" && scope === "frame" && Boolean(frames)
      && frames[other] + 1 >= view.shown.frames_to_win;
    const seen = client.presence && client.presence.players && client.presence.players[other];
    const here = type === "claim" && Boolean(seen && seen.online);
    const said = here ? "stalling" : `text${last ? "_last" : ""}`;
    const ask = {
      title: t(`confirm.${type}_${scope}`, { n }),
      text: t(`confirm.${type}_${scope}.${said}`, { n, name }),
      yes: t(`confirm.${type}_${scope}.yes`),
    };
    if (!(await panels.confirm(ask))) return;
    if (!view.canAct() || view.shown.scoreboard.frame_number !== n) {
      panels.notice(t("notice.changed"), { ms: 6000 });
      return;
    }
    client.request({ type, scope });
    view.refresh();
  }

  /** Put the cue ball from hand at `p`, if the referee would allow it there. */
  place(p) {
    const { aim, view, panels } = this;
    const why = this.refusal(p);
    aim.hover = { point: p, refusal: why };
    if (why) {
      this.refused(why);
      view.dirty = true;
      return;
    }
    panels.notice("");
    const fresh = !aim.cueBall;
    aim.cueBall = p;
    if (fresh) view.aimAtBallOn();
    view.refresh();
    this.changed();
  }
}
