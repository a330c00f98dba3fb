// What the player does: the aim (table, keys, buttons, fields, spin), placing from hand, the
// stroke, decisions, concessions and claims, the settings. Every control works from the
// keyboard and by touch: the table by drag, arrow keys or the turn buttons (coarse and fine
// steps), the cue ball from hand by a tap in the D or the "place" button (then Alt+arrows
// move it), the power by its slider or its − and + buttons, the spin by a tap on the cue
// ball or arrow keys on it. Requests go through the client (client.js); what they change on
// screen is the view's (view.js).

import { normaliseAngle } from "./aiming.js";
import { CONSTANTS, GEOMETRY } from "./constants.js";
import { t } from "./i18n.js";
import { refusalText } from "./story.js";
import { vernierTurn } from "./vernier.js";

const AIM_EVERY = 120; // ms between aim messages (the server relays at most 10 a second)
const AIM_SETTLE = 400; // ms after the last change, the final aim is sent again
const { min_speed: MIN_SPEED, max_speed: MAX_SPEED } = CONSTANTS.stroke;
const GRAB = 2.5 * GEOMETRY.R; // how near the cue ball a press picks it up to move it
const POWER_STEP = 0.1; // m/s, the − and + buttons (the slider's own step)
const TIP_STEP = 0.05; // ball radii, an arrow key on the spin control
const NUDGE = 5; // mm, Alt+arrow on the table moves the cue ball from hand

/** The player's words for a refused request: the catalogue's, by its code. */
export function errorText(code) {
  const key = `error.${code}`;
  const text = t(key);
  return text === key ? t("error.other", { code }) : text;
}

export function bindInput({ panels, view, client, conn, aim, canvas, tableView, settings, sounds }) {
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
      panels.notice(t("place.first"));
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
    el("decision-panel").hidden = true;
    client.request({ type: "choose", version: client.version, option });
    view.refresh();
  }

  /** Ask first; then send `concede` or `claim` if the frame asked about is still in play. */
  async function settle(type, scope) {
    if (!view.canAct()) return;
    const n = view.shown.scoreboard.frame_number;
    const name = client.players[client.seat === "A" ? "B" : "A"];
    const ask = {
      title: t(`confirm.${type}_${scope}`, { n }),
      text: t(`confirm.${type}_${scope}.text`, { n, name }),
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
  function place(p) {
    const why = refusal(p);
    aim.hover = { point: p, refusal: why };
    if (why) {
      panels.notice(t("place.refused", { why: refusalText(why) }));
      view.dirty = true;
      return;
    }
    panels.notice("");
    const fresh = !aim.cueBall;
    aim.cueBall = p;
    if (fresh) view.aimAtBallOn();
    view.refresh();
    aimChanged();
  }

  // --- the controls --------------------------------------------------------------------------
  const power = el("power");
  const angleInput = el("aim-angle");
  const spin = el("spin");
  const setPower = (speed) => {
    // To the slider's step (a tenth of a metre a second), within the protocol's limits.
    aim.speed = Number(Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed)).toFixed(1));
    aimChanged();
  };
  power.addEventListener("input", () => setPower(Number(power.value)));
  el("power-down").addEventListener("click", () => setPower(aim.speed - POWER_STEP));
  el("power-up").addEventListener("click", () => setPower(aim.speed + POWER_STEP));
  angleInput.addEventListener("change", () => {
    const deg = Number(angleInput.value);
    if (Number.isFinite(deg)) aim.angle = normaliseAngle((deg * Math.PI) / 180);
    aimChanged();
  });
  for (const button of el("controls").querySelectorAll("[data-turn]")) {
    button.addEventListener("click", () => {
      if (!view.ready() || !view.cuePosition()) return;
      aim.turn(Number(button.dataset.turn));
      aimChanged();
    });
  }
  // The fine-aim strip: the cue turns by a small fraction of the finger's travel (aiming.js).
  const fine = el("aim-fine");
  let fineFrom = null; // the pointer's x at the last turn, while a finger slides on the strip
  let fineShift = 0; // px the strip's marks have moved, so they follow the finger
  const fineTurn = (degrees, dx) => {
    aim.turn(degrees);
    fineShift += dx;
    fine.style.backgroundPositionX = `${fineShift}px`;
    aimChanged();
  };
  fine.addEventListener("pointerdown", (e) => {
    if (!view.canStrike() || !view.cuePosition()) return;
    fineFrom = e.clientX;
    fine.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  fine.addEventListener("pointermove", (e) => {
    if (fineFrom === null) return;
    const dx = e.clientX - fineFrom;
    if (!dx) return;
    fineFrom = e.clientX;
    fineTurn(vernierTurn(dx), dx);
  });
  const endFine = () => {
    fineFrom = null;
  };
  fine.addEventListener("pointerup", endFine);
  fine.addEventListener("pointercancel", endFine);
  fine.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    e.stopPropagation(); // not the table's own arrow keys (0.5°)
    if (!view.canStrike() || !view.cuePosition()) return;
    const dx = e.key === "ArrowRight" ? 1 : -1;
    fineTurn(vernierTurn(dx), dx * 10);
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
  spin.addEventListener("keydown", (e) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (e.key === "Home" || e.key === "Escape") {
      aim.setSpin(0, 0);
    } else if (moves[e.key]) {
      if (!view.canStrike()) return;
      const [ds, dh] = moves[e.key];
      aim.setSpin(aim.side + ds * TIP_STEP, aim.height + dh * TIP_STEP);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    aimChanged();
  });
  el("spin-reset").addEventListener("click", () => {
    aim.setSpin(0, 0);
    aimChanged();
  });
  el("place-cue").addEventListener("click", () => {
    if (!view.ready() || !placing()) return;
    const spot = GEOMETRY.placeFor(view.shown.turn.balls_on, view.shown.frame.balls);
    if (spot) place(spot);
    canvas.focus({ preventScroll: true });
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
  el("rack-now").addEventListener("click", () => view.endHold());

  // --- settings ------------------------------------------------------------------------------
  const sound = el("table-sound");
  const keep = el("keep-stroke");
  const zoom = el("zoom");
  sound.checked = settings.get("sound");
  keep.checked = settings.get("keepStroke");
  zoom.setAttribute("aria-pressed", String(settings.get("zoom")));
  sound.addEventListener("change", () => {
    settings.set("sound", sound.checked);
    sounds.enable(sound.checked);
  });
  keep.addEventListener("change", () => settings.set("keepStroke", keep.checked));
  zoom.addEventListener("click", () => {
    settings.set("zoom", !settings.get("zoom"));
    zoom.setAttribute("aria-pressed", String(settings.get("zoom")));
    view.dirty = true;
  });
  // Audio may start only after a gesture: a saved "on" takes effect at the first one.
  const wake = () => {
    if (settings.get("sound")) sounds.enable(true);
  };
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });

  // --- the table: pointer and keyboard -------------------------------------------------------
  function tablePoint(e) {
    const rect = canvas.getBoundingClientRect();
    return tableView.toTable([e.clientX - rect.left, e.clientY - rect.top]);
  }

  canvas.addEventListener("pointerdown", (e) => {
    if (!view.ready()) return;
    const p = tablePoint(e);
    canvas.focus({ preventScroll: true });
    const cue = view.cuePosition();
    if (placing() && !cue) {
      // Ball in hand: a click in the D places the cue ball.
      if (GEOMETRY.nearD(p)) place(p);
      else panels.notice(t("place.first"));
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
    if (dragging === "cue" && aim.hover && aim.hover.refusal) {
      panels.notice(t("place.refused", { why: refusalText(aim.hover.refusal) }), { ms: 4000 });
    }
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

  /** Alt+arrows move the cue ball from hand about the D (keyboard placement). */
  function nudge(e) {
    const cue = aim.cueBall;
    if (!cue || !placing()) return false;
    const [right, down] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1],
      ArrowDown: [0, 1] }[e.key];
    const [dx, dy] = tableView.screenOffset(right * NUDGE, down * NUDGE);
    const p = [cue[0] + dx, cue[1] + dy];
    const why = refusal(p);
    if (why) panels.notice(t("place.refused", { why: refusalText(why) }), { ms: 3000 });
    else aim.cueBall = p;
    aimChanged();
    return true;
  }

  // The confirm dialog holds the focus: Tab and Shift+Tab go round its buttons.
  el("confirm-dialog").addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const buttons = [el("confirm-no"), el("confirm-yes")];
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[(at + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length];
    next.focus();
    e.preventDefault();
  });

  // Focus follows the play: when the control that had it goes (a decision's option once
  // chosen, the strike button while the stroke is played, a closed dialog's button), it moves
  // to the next useful control instead of falling to the page (view.js, keepFocus).
  panels.root.addEventListener("focusin", (e) => {
    view.lastFocus = e.target;
  });

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !el("confirm-dialog").hidden) {
      panels.closeConfirm(false);
      return;
    }
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA", "BUTTON"].includes(tag) && e.target !== canvas) return;
    if (e.target === spin) return;
    if (!view.ready()) return;
    const arrows = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
    if (e.altKey && arrows.includes(e.key) && e.target === canvas) {
      if (nudge(e)) e.preventDefault();
      return;
    }
    if (placing() && !aim.cueBall && e.target === canvas && (e.key === "Enter" || e.key === " ")) {
      el("place-cue").click();
      e.preventDefault();
      return;
    }
    if (!view.cuePosition()) return;
    if (e.key === "Enter" && e.target === canvas && !e.repeat) {
      // The strike key: Enter on the table plays the stroke aimed.
      if (view.canStrike()) strike();
      e.preventDefault();
      return;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      // ← turns the cue anticlockwise on the screen (which is anticlockwise on the table too).
      aim.rotate(e.key === "ArrowLeft" ? 1 : -1, e.shiftKey);
      aimChanged();
      e.preventDefault();
    }
  });
}
