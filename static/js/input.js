// What the player does: the aim (table, keys, buttons, fields, spin), placing from hand, the
// stroke, decisions, concessions and claims, the settings. Every control works from the
// keyboard and by touch: the table by drag, arrow keys or the turn buttons (coarse and fine
// steps), the cue ball from hand by a tap in the D or the "place" button (then Alt+arrows
// move it), the power by its slider, its − and + buttons or, by touch, a drag back along the
// cue drawn on the table (powerdrag.js), the spin by a tap on the cue
// ball or arrow keys on it. Requests go through the client (client.js); what they change on
// screen is the view's (view.js).
//
// Each binder below has one job: it listens to its controls and asks the Controls
// (controls.js) for what they do, given the page's elements, the view, the client, the aim,
// the table's geometry and the stroke's limits from the page constants, passed in, so that
// static/js/tests/input.test.js drives them under Node.

import { normaliseAngle } from "./aiming.js";
import { AimSender, BROWSER_CLOCK, Controls } from "./controls.js";
import { t } from "./i18n.js";
import { draggedPower, onCue } from "./powerdrag.js";
import { vernierTurn } from "./vernier.js";
import { pinchOf, pinchZoom, zoomAbout } from "./zoom.js";

const GRAB = 2.5; // ball radii: how near the cue ball a press picks it up to move it
const POWER_STEP = 0.1; // m/s, the − and + buttons (the slider's own step)
const TIP_STEP = 0.05; // ball radii, an arrow key on the spin control
const NUDGE = 5; // mm, Alt+arrow on the table moves the cue ball from hand
const WHEEL = 0.0015; // the zoom's factor is e^(−this × the wheel's deltaY)
const BIG_TURN = 5; // degrees a Page Up or Page Down turns the cue
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/** The power: its slider and its − and + buttons, to the slider's step within the limits. */
export function bindPower(c) {
  const { el, aim, stroke } = c;
  const power = el("power");
  const setPower = (speed) => {
    const { min_speed: least, max_speed: most } = stroke;
    aim.speed = Number(Math.min(most, Math.max(least, speed)).toFixed(1));
    c.changed();
  };
  power.addEventListener("input", () => setPower(Number(power.value)));
  el("power-down").addEventListener("click", () => setPower(aim.speed - POWER_STEP));
  el("power-up").addEventListener("click", () => setPower(aim.speed + POWER_STEP));
}

/** The cue's angle: its field (degrees) and the turn buttons (1° and 0.1°). */
export function bindAngle(c) {
  const { el, aim, view } = c;
  const field = el("aim-angle");
  field.addEventListener("change", () => {
    const deg = Number(field.value);
    if (Number.isFinite(deg)) aim.angle = normaliseAngle((deg * Math.PI) / 180);
    c.changed();
  });
  for (const button of el("controls").querySelectorAll("[data-turn]")) {
    button.addEventListener("click", () => {
      if (!view.ready() || !view.cuePosition()) return;
      aim.turn(Number(button.dataset.turn));
      c.changed();
    });
  }
}

/** The fine-aim strip: the cue turns by a small fraction of the finger's travel (vernier.js),
 * or of an arrow key's step; its marks follow the finger. */
export function bindVernier(c) {
  const { el, aim, view } = c;
  const fine = el("aim-fine");
  let from = null; // the pointer's x at the last turn, while a finger slides on the strip
  let shift = 0; // px the strip's marks have moved
  const turn = (dx, shown) => {
    aim.turn(vernierTurn(dx));
    shift += shown;
    fine.style.backgroundPositionX = `${shift}px`;
    c.changed();
  };
  fine.addEventListener("pointerdown", (e) => {
    if (!view.canStrike() || !view.cuePosition()) return;
    from = e.clientX;
    fine.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  fine.addEventListener("pointermove", (e) => {
    if (from === null) return;
    const dx = e.clientX - from;
    if (!dx) return;
    from = e.clientX;
    turn(dx, dx);
  });
  const end = () => {
    from = null;
  };
  fine.addEventListener("pointerup", end);
  fine.addEventListener("pointercancel", end);
  fine.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    e.stopPropagation(); // not the table's own arrow keys (0.5°)
    if (!view.canStrike() || !view.cuePosition()) return;
    const dx = e.key === "ArrowRight" ? 1 : -1;
    turn(dx, dx * 10);
  });
}

/** The spin: a tap on the cue ball drawn puts the tip there, arrow keys move it, Home,
 * Escape or the reset button centre it (Aim.setSpin keeps it within the miscue limit). */
export function bindSpin(c) {
  const { el, aim, view } = c;
  const spin = el("spin");
  spin.addEventListener("pointerdown", (e) => {
    if (!view.canStrike()) return;
    const rect = spin.getBoundingClientRect();
    const r = rect.width / 2 - 4;
    const side = (e.clientX - rect.left - rect.width / 2) / r;
    const height = -(e.clientY - rect.top - rect.height / 2) / r;
    aim.setSpin(side, height);
    c.changed();
  });
  spin.addEventListener("keydown", (e) => {
    if (e.key === "Home" || e.key === "Escape") {
      aim.setSpin(0, 0);
    } else if (ARROWS[e.key]) {
      if (!view.canStrike()) return;
      const [ds, dh] = ARROWS[e.key];
      aim.setSpin(aim.side + ds * TIP_STEP, aim.height + dh * TIP_STEP);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    c.changed();
  });
  el("spin-reset").addEventListener("click", () => {
    aim.setSpin(0, 0);
    c.changed();
  });
}

/** The buttons that ask something of the server: place (from hand, where the referee
 * allows), strike, concede, claim, a decision's options, the next rack now; and the
 * nomination, which follows the aim until the player picks a ball by hand. */
export function bindButtons(c, canvas) {
  const { el, view, geometry } = c;
  el("place-cue").addEventListener("click", () => {
    if (!view.ready() || !c.placing()) return;
    const spot = geometry.placeFor(view.shown.turn.balls_on, view.shown.frame.balls);
    if (spot) c.place(spot);
    canvas.focus({ preventScroll: true });
  });
  el("nominate").addEventListener("change", () => {
    el("nominate").dataset.touched = "1";
  });
  el("strike").addEventListener("click", () => c.strike());
  el("concede-frame").addEventListener("click", () => c.settle("concede", "frame"));
  el("concede-match").addEventListener("click", () => c.settle("concede", "match"));
  el("claim-frame").addEventListener("click", () => c.settle("claim", "frame"));
  el("claim-match").addEventListener("click", () => c.settle("claim", "match"));
  el("decision-options").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-option]");
    if (button) c.choose(button.dataset.option);
  });
  el("rack-now").addEventListener("click", () => view.endHold());
}

/** The page's settings: sound (the settings' box and the turn bar's speaker, one tap), the
 * kept stroke, the zoom; remembered by the browser. Audio may start only after a gesture: the
 * sound, on by default, takes effect at the first one. */
export function bindSettings({ el, settings, sounds, view, doc }) {
  const sound = el("table-sound");
  const speaker = el("sound-toggle");
  const keep = el("keep-stroke");
  const zoom = el("zoom");
  const showSound = () => {
    sound.checked = settings.get("sound");
    speaker.setAttribute("aria-pressed", String(settings.get("sound")));
  };
  const setSound = (on) => {
    settings.set("sound", on);
    sounds.enable(on);
    showSound();
  };
  showSound();
  keep.checked = settings.get("keepStroke");
  zoom.setAttribute("aria-pressed", String(settings.get("zoom")));
  sound.addEventListener("change", () => setSound(sound.checked));
  speaker.addEventListener("click", () => setSound(!settings.get("sound")));
  keep.addEventListener("change", () => settings.set("keepStroke", keep.checked));
  zoom.addEventListener("click", () => {
    settings.set("zoom", !settings.get("zoom"));
    zoom.setAttribute("aria-pressed", String(settings.get("zoom")));
    view.dirty = true;
  });
  const wake = () => {
    if (settings.get("sound")) sounds.enable(true);
  };
  doc.addEventListener("pointerdown", wake, { once: true });
  doc.addEventListener("keydown", wake, { once: true });
}

/** The table by pointer: a press aims the cue at the point (and a drag keeps aiming); a
 * finger on the cue drawn behind the cue ball pulls it back for power (powerdrag.js); from
 * hand, a press in the D places the cue ball and a drag from it moves it, a marker showing
 * where it would go and whether it may. Two fingers pinch and pan the table, and the wheel
 * zooms it, for anyone at the table (zoom.js; `zoomer.set({zoom, focus} or null)`): a second
 * finger gives back the aim the first one moved. */
export function bindPointer(c, canvas, tableView, zoomer = null) {
  const { aim, view, panels } = c;
  // "aim", "cue" (moving the cue ball in the D), "power" (a finger pulling the cue) or false
  let dragging = false;
  let pull = null; // {from (table mm), speed}: where a finger took the cue, and the power then
  const fingers = new Map(); // pointer id -> where it is (canvas CSS px)
  let pinch = null; // the pinch as it began, while two fingers are down
  let before = null; // the aim's angle when the press began
  const local = (e) => {
    const rect = canvas.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  };
  const tablePoint = (e) => tableView.toTable(local(e));
  const aimAt = (p, cue) => {
    aim.angle = Math.atan2(p[1] - cue[1], p[0] - cue[0]);
    c.changed();
  };
  const twoFingers = () => pinchOf(...[...fingers.values()].slice(0, 2));

  if (zoomer) {
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      zoomer.set(zoomAbout(tableView, Math.exp(-e.deltaY * WHEEL), local(e)));
    }, { passive: false });
  }

  canvas.addEventListener("pointerdown", (e) => {
    fingers.set(e.pointerId, local(e));
    if (zoomer && fingers.size === 2) {
      if (dragging === "aim" && before !== null) {
        aim.angle = before;
        c.changed();
      }
      dragging = false;
      const now = twoFingers();
      pinch = {
        pinch: now,
        view: {
          zoom: tableView.zoom, fit: tableView.fit, cssWidth: tableView.cssWidth,
          cssHeight: tableView.cssHeight, upright: tableView.upright,
          under: tableView.toTable(now.mid),
        },
      };
      return;
    }
    if (fingers.size > 1 || !view.ready()) return;
    before = aim.angle;
    const p = tablePoint(e);
    // The keys act on the table from now; no focus ring for a click (a Tab still shows it).
    canvas.focus({ preventScroll: true, focusVisible: false });
    const cue = view.cuePosition();
    if (c.placing() && !cue) {
      if (c.geometry.nearD(p)) c.place(p);
      else panels.notice(t("place.first"));
      return;
    }
    if (!cue) return;
    const grab = GRAB * c.geometry.R;
    const scale = tableView.scale || 1;
    if (c.placing() && Math.hypot(p[0] - cue[0], p[1] - cue[1]) < grab) dragging = "cue";
    else if (e.pointerType === "touch" && onCue(p, cue, aim.angle, aim.speed, c.geometry.R, scale)) {
      dragging = "power";
      pull = { from: p, speed: aim.speed };
    } else dragging = "aim";
    canvas.setPointerCapture(e.pointerId);
    if (dragging === "aim") aimAt(p, cue);
  });

  canvas.addEventListener("pointermove", (e) => {
    if (fingers.has(e.pointerId)) fingers.set(e.pointerId, local(e));
    if (pinch) {
      if (fingers.size >= 2) zoomer.set(pinchZoom(pinch, twoFingers()));
      return;
    }
    if (!view.ready()) return;
    const p = tablePoint(e);
    const cue = view.cuePosition();
    if (dragging === "aim" && cue) {
      aimAt(p, cue);
    } else if (dragging === "power") {
      aim.speed = draggedPower(pull.from, p, aim.angle, pull.speed, tableView.scale || 1, c.stroke);
      c.changed();
    } else if (dragging === "cue") {
      const why = c.refusal(p);
      if (!why) {
        aim.cueBall = p;
        c.changed();
      }
      aim.hover = { point: p, refusal: why };
      view.dirty = true;
    } else if (c.placing() && !cue) {
      aim.hover = c.geometry.nearD(p) ? { point: p, refusal: c.refusal(p) } : null;
      view.dirty = true;
    }
  });

  const endDrag = (e) => {
    fingers.delete(e.pointerId);
    if (pinch) {
      if (fingers.size < 2) pinch = null;
      dragging = false;
      return;
    }
    if (dragging === "cue" && aim.hover && aim.hover.refusal) c.refused(aim.hover.refusal, 4000);
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
}

/** The table by keyboard (keys on the page, not in a field): ← and → turn the cue (Shift:
 * finer), Enter on the table places the cue ball from hand and then strikes, Alt+arrows move
 * the cue ball from hand about the D, Escape closes the confirm dialog. */
export function bindKeys(c, canvas, tableView, doc) {
  const { el, aim, view } = c;
  const spin = el("spin");

  /** Alt+arrows: the cue ball from hand moves NUDGE mm on the screen, if it may go there. */
  const nudge = (key) => {
    const cue = aim.cueBall;
    if (!cue || !c.placing()) return false;
    const [right, up] = ARROWS[key];
    const [dx, dy] = tableView.screenOffset(right * NUDGE, -up * NUDGE);
    const p = [cue[0] + dx, cue[1] + dy];
    const why = c.refusal(p);
    if (why) c.refused(why, 3000);
    else aim.cueBall = p;
    c.changed();
    return true;
  };

  doc.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !el("confirm-dialog").hidden) {
      c.panels.closeConfirm(false);
      return;
    }
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA", "BUTTON"].includes(tag) && e.target !== canvas) return;
    if (e.target === spin) return;
    if ((e.key === "s" || e.key === "S") && !e.ctrlKey && !e.metaKey && view.playback.anim) {
      view.skip(); // any watcher's, and the player's: the stroke's animation to its end
      e.preventDefault();
      return;
    }
    if (!view.ready()) return;
    const onTable = e.target === canvas;
    if (e.altKey && ARROWS[e.key] && onTable) {
      if (nudge(e.key)) e.preventDefault();
      return;
    }
    if (c.placing() && !aim.cueBall && onTable && (e.key === "Enter" || e.key === " ")) {
      el("place-cue").click();
      e.preventDefault();
      return;
    }
    if (!view.cuePosition()) return;
    if (e.key === "Enter" && onTable && !e.repeat) {
      // The strike key: Enter on the table plays the stroke aimed.
      if (view.canStrike()) c.strike();
      e.preventDefault();
      return;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      // ← turns the cue anticlockwise on the screen (which is anticlockwise on the table too).
      aim.rotate(e.key === "ArrowLeft" ? 1 : -1, e.shiftKey);
      c.changed();
      e.preventDefault();
    } else if (e.key === "PageUp" || e.key === "PageDown") {
      // A big turn (across the table in a dozen presses, not 65): Page Up as ←.
      aim.turn(e.key === "PageUp" ? BIG_TURN : -BIG_TURN);
      c.changed();
      e.preventDefault();
    } else if (onTable && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
      // The power from the table, as its − and + buttons set it: no Tab away to aim and hit.
      el(e.key === "ArrowUp" ? "power-up" : "power-down").click();
      e.preventDefault();
    }
  });
}

/** Focus: the confirm dialog holds it (Tab and Shift+Tab go round its buttons), and the
 * control last focused in the match is remembered, so that when it goes (a decision's option
 * once chosen, the strike button while the stroke is played, a closed dialog's button) the
 * focus moves to the next useful control instead of the page (controlspanel.js, keepFocus). */
export function bindFocus(c, doc) {
  const { el, panels, view } = c;
  el("confirm-dialog").addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const buttons = [el("confirm-no"), el("confirm-yes")];
    const at = buttons.indexOf(doc.activeElement);
    const next = buttons[(at + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length];
    next.focus();
    e.preventDefault();
  });
  panels.root.addEventListener("focusin", (e) => {
    view.lastFocus = e.target;
  });
}

/** Every control of the match page, bound. `constants`: the page constants (their stroke
 * limits); `geometry`: the table's. */
export function bindInput({ panels, view, client, conn, aim, canvas, tableView, settings, sounds,
  constants, geometry, zoomer = null, clock = BROWSER_CLOCK, doc = document }) {
  const sender = new AimSender({ view, conn, aim, clock });
  view.announceAim = () => sender.send();
  const c = new Controls({
    panels, view, client, aim, geometry, stroke: constants.stroke, changed: () => sender.changed(),
  });
  bindPower(c);
  bindAngle(c);
  bindVernier(c);
  bindSpin(c);
  bindButtons(c, canvas);
  bindSettings({ el: panels.el, settings, sounds, view, doc });
  bindPointer(c, canvas, tableView, zoomer);
  bindKeys(c, canvas, tableView, doc);
  bindFocus(c, doc);
  return c;
}
