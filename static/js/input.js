// What the player does: the aim (table, keys, fields, spin), placing from hand, the stroke,
// decisions, concessions and claims. Requests go through the client (client.js); what they
// change on screen is the view's (view.js).

import { normaliseAngle } from "./aiming.js";
import { CONSTANTS, GEOMETRY } from "./constants.js";

const AIM_EVERY = 120; // ms between aim messages (the server relays at most 10 a second)
const AIM_SETTLE = 400; // ms after the last change, the final aim is sent again
const { min_speed: MIN_SPEED, max_speed: MAX_SPEED } = CONSTANTS.stroke;
const GRAB = 2.5 * GEOMETRY.R; // how near the cue ball a press picks it up to move it

/** The player's words for a placement the referee would refuse. */
function refusalText(refusal) {
  return refusal.code === "cue_ball_outside_d" ? "outside the D" : `touches ${refusal.ball}`;
}

export function bindInput({ panels, view, client, conn, aim, canvas, tableView }) {
  const el = panels.el;
  let lastAimSent = 0;
  let aimTimer = null;
  let aimSettle = null;
  let dragging = false; // "aim", "cue" (moving the cue ball in the D) or false

  const placing = () => view.shown.frame.in_hand;
  const refusal = (p) => GEOMETRY.placementRefusal(p, view.shown.frame.balls);

  function aimChanged() {
    view.aimMoved();
    if (!view.ready()) return;
    // At most one aim message every AIM_EVERY ms, and the final aim once more a little later:
    // the server drops aim messages that come too fast, and the last one must get through.
    const wait = AIM_EVERY - (Date.now() - lastAimSent);
    if (wait <= 0) sendAim();
    else if (!aimTimer) aimTimer = setTimeout(sendAim, wait);
    clearTimeout(aimSettle);
    aimSettle = setTimeout(sendAim, AIM_SETTLE);
  }

  function sendAim() {
    clearTimeout(aimTimer);
    aimTimer = null;
    if (!view.ready() || (placing() && !aim.cueBall)) return;
    lastAimSent = Date.now();
    conn.send({ type: "aim", ...aim.message(placing()) });
  }

  function strike() {
    if (!view.ready()) return;
    if (placing() && !aim.cueBall) {
      panels.notice("Place the cue ball in the D first.");
      return;
    }
    client.request({
      type: "stroke",
      version: client.version,
      ...aim.message(placing()),
      nominated: view.nominated(),
    });
    view.refresh();
  }

  function choose(option) {
    if (!view.shown || client.pending) return;
    el("decision-dialog").hidden = true;
    client.request({ type: "choose", version: client.version, option });
    view.refresh();
  }

  /** Ask first; then send `concede` or `claim` if the frame asked about is still in play. */
  async function settle(type, scope) {
    if (!view.canAct()) return;
    const frameNumber = view.shown.scoreboard.frame_number;
    const other = client.players[client.seat === "A" ? "B" : "A"];
    const what = scope === "match" ? "the match" : `frame ${frameNumber}`;
    const ask =
      type === "concede"
        ? {
            title: `Concede ${what}?`,
            text: `${other} will be awarded ${what}.` +
              (scope === "frame" ? " The next frame is racked at once." : " The match ends."),
            yes: scope === "match" ? "Concede match" : "Concede frame",
          }
        : {
            title: `Claim ${what}?`,
            text: `${other} has left the table and will be recorded as conceding ${what}.`,
            yes: scope === "match" ? "Claim match" : "Claim frame",
          };
    if (!(await panels.confirm(ask))) return;
    if (!view.canAct() || view.shown.scoreboard.frame_number !== frameNumber) {
      panels.notice("The table changed meanwhile: nothing was sent. Look again.", { ms: 6000 });
      return;
    }
    client.request({ type, scope });
    view.refresh();
  }

  /** Put the cue ball from hand at `p`, if the referee would allow it there. */
  function place(p) {
    const why = refusal(p);
    aim.hover = { point: p, refusal: why };
    if (why) {
      panels.notice(`The cue ball cannot go there: ${refusalText(why)}.`);
      view.dirty = true;
      return;
    }
    panels.notice("");
    const fresh = !aim.cueBall;
    aim.cueBall = p;
    if (fresh) view.aimAtNearestBallOn();
    view.refresh();
    aimChanged();
  }

  // --- the controls --------------------------------------------------------------------------
  const power = el("power");
  const angleInput = el("aim-angle");
  const spin = el("spin");
  power.addEventListener("input", () => {
    aim.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, Number(power.value)));
    aimChanged();
  });
  angleInput.addEventListener("change", () => {
    const deg = Number(angleInput.value);
    if (Number.isFinite(deg)) aim.angle = normaliseAngle((deg * Math.PI) / 180);
    aimChanged();
  });
  spin.addEventListener("pointerdown", (e) => {
    if (!view.canStrike()) return;
    const rect = spin.getBoundingClientRect();
    const r = rect.width / 2 - 4;
    const side = (e.clientX - rect.left - rect.width / 2) / r;
    const height = -(e.clientY - rect.top - rect.height / 2) / r;
    aim.setSpin(side, height);
    aimChanged();
  });
  el("spin-reset").addEventListener("click", () => {
    aim.setSpin(0, 0);
    aimChanged();
  });
  el("nominate").addEventListener("change", () => {
    el("nominate").dataset.touched = "1";
  });
  el("strike").addEventListener("click", strike);
  el("concede-frame").addEventListener("click", () => settle("concede", "frame"));
  el("concede-match").addEventListener("click", () => settle("concede", "match"));
  el("claim-frame").addEventListener("click", () => settle("claim", "frame"));
  el("claim-match").addEventListener("click", () => settle("claim", "match"));
  el("decision-options").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-option]");
    if (button) choose(button.dataset.option);
  });

  // --- the table: pointer and keyboard -------------------------------------------------------
  function tablePoint(e) {
    const rect = canvas.getBoundingClientRect();
    return tableView.toTable([e.clientX - rect.left, e.clientY - rect.top]);
  }

  canvas.addEventListener("pointerdown", (e) => {
    if (!view.ready()) return;
    const p = tablePoint(e);
    canvas.focus();
    const cue = view.cuePosition();
    if (placing() && !cue) {
      // Ball in hand: a click in the D places the cue ball.
      if (GEOMETRY.nearD(p)) place(p);
      else panels.notice("Place the cue ball in the D first.");
      return;
    }
    if (!cue) return;
    if (placing() && Math.hypot(p[0] - cue[0], p[1] - cue[1]) < GRAB) {
      dragging = "cue";
      canvas.setPointerCapture(e.pointerId);
      return;
    }
    dragging = "aim";
    canvas.setPointerCapture(e.pointerId);
    aim.angle = Math.atan2(p[1] - cue[1], p[0] - cue[0]);
    aimChanged();
  });

  canvas.addEventListener("pointermove", (e) => {
    if (!view.ready()) return;
    const p = tablePoint(e);
    const cue = view.cuePosition();
    if (dragging === "aim" && cue) {
      aim.angle = Math.atan2(p[1] - cue[1], p[0] - cue[0]);
      aimChanged();
      return;
    }
    if (dragging === "cue") {
      const why = refusal(p);
      if (!why) {
        aim.cueBall = p;
        aimChanged();
      }
      aim.hover = { point: p, refusal: why };
      view.dirty = true;
      return;
    }
    if (placing() && !cue) {
      aim.hover = GEOMETRY.nearD(p) ? { point: p, refusal: refusal(p) } : null;
      view.dirty = true;
    }
  });

  const endDrag = () => {
    dragging = false;
    if (aim.hover && aim.cueBall) {
      aim.hover = null;
      view.dirty = true;
    }
  };
  canvas.addEventListener("pointerup", endDrag);
  canvas.addEventListener("pointercancel", endDrag);
  canvas.addEventListener("pointerleave", () => {
    if (aim.hover && !dragging) {
      aim.hover = null;
      view.dirty = true;
    }
  });

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !el("confirm-dialog").hidden) {
      panels.closeConfirm(false);
      return;
    }
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) && e.target !== power) return;
    if (!view.ready() || !view.cuePosition()) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (e.target === power) return; // the slider uses its own arrows
      // ← turns the cue anticlockwise on the screen (which is anticlockwise on the table too).
      aim.rotate(e.key === "ArrowLeft" ? 1 : -1, e.shiftKey);
      aimChanged();
      e.preventDefault();
    }
  });
}
