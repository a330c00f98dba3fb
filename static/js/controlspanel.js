// The stroke's controls and the words beside them, following the match view (view.js): which
// controls show and which are enabled (only the striker's, once nothing moves), their values
// following the aim (angle, power, spin, drawn on the spin control), the nomination (following
// the ball aimed at until the player picks one), the hint of what to do now, and the focus,
// moved on when the control that had it goes.

import { num, t } from "./i18n.js";
import { powerText } from "./panels.js";
import { powerScale, powerWords } from "./power.js";
import { ballName, spinLabel } from "./story.js";

export class ControlsPanel {
  constructor({ view, root, el, aim, client, playback, painter, doc }) {
    this.view = view; // who may do what now, the position shown (view.js)
    this.root = root; // the match's element
    this.el = el; // an element of the match by its test id
    this.aim = aim; // this player's cue (aiming.js)
    this.client = client; // the protocol's state (client.js)
    this.playback = playback; // whether events are being animated (playback.js)
    this.painter = painter; // the spin control's drawing (aiming.js)
    this.doc = doc; // the page's document (its focus, new options)
  }

  /** The aim moved: its inputs and the nomination follow; the canvas is redrawn. */
  aimMoved() {
    this.view.dirty = true;
    this.syncAimInputs();
    this.refreshNomination();
  }

  syncAimInputs() {
    const { el, aim } = this;
    const angleInput = el("aim-angle");
    if (this.doc.activeElement !== angleInput) {
      angleInput.value = ((aim.angle * 180) / Math.PI).toFixed(2);
    }
    const degrees = ((aim.angle * 180) / Math.PI).toFixed(2);
    el("aim-fine").setAttribute("aria-valuenow", degrees);
    el("aim-fine").setAttribute("aria-valuetext", `${num(Number(degrees), 2)}°`);
    el("power").value = String(aim.speed);
    // The power in a player's terms beside the figure (power.js, from the guide's model).
    const scale = powerWords(powerScale(this.painter.guide, aim.speed, aim.height));
    el("power").setAttribute("aria-valuetext", `${powerText(aim.speed)}, ${scale}`);
    el("power-value").textContent = powerText(aim.speed);
    el("power-scale").textContent = scale;
    const label = spinLabel(aim.side, aim.height);
    el("spin-value").textContent = label;
    el("spin").setAttribute("aria-valuetext", label);
    el("spin").setAttribute("aria-valuenow", String(aim.height));
    this.painter.drawSpin(el("spin"), aim);
  }

  refreshNomination() {
    const row = this.el("nominate-row");
    const select = this.el("nominate");
    const snap = this.view.shown;
    const choices = snap && this.view.canStrike() ? snap.turn.nominate : [];
    if (!choices.length) {
      row.hidden = true;
      select.dataset.key = "";
      return;
    }
    row.hidden = false;
    const key = `${snap.version}:${choices.join(",")}`;
    if (select.dataset.key !== key) {
      select.dataset.key = key;
      select.dataset.touched = "";
      select.replaceChildren();
      const auto = this.doc.createElement("option");
      auto.value = "";
      auto.textContent = t("nominate.auto");
      select.append(auto);
      for (const id of choices) {
        const o = this.doc.createElement("option");
        o.value = id;
        o.textContent = id.startsWith("red")
          ? t("nominate.red", { n: id.slice(3) })
          : ballName(id);
        select.append(o);
      }
    }
    // Follow the ball aimed at until the player picks one by hand.
    if (select.dataset.touched) return;
    const target = this.view.target();
    select.value = target && choices.includes(target) ? target : "";
  }

  /** The nomination the player made (or that follows the aim), if one applies. */
  nominated() {
    const select = this.el("nominate");
    return !this.el("nominate-row").hidden && select.value ? select.value : null;
  }

  refresh() {
    const { el, root } = this;
    const snap = this.view.shown;
    const seat = this.client.seat;
    const mine = this.view.canStrike();
    const live = Boolean(snap && snap.status === "live");
    el("controls").hidden = !seat || !live;
    el("stroke-controls").hidden = !mine; // the opponent's turn: the stroke's controls wait
    const watching = el("watching");
    watching.hidden = Boolean(seat);
    if (!seat) watching.textContent = t("watching.text");
    for (const id of ["concede-frame", "concede-match"]) el(id).disabled = !this.view.canAct();
    root.classList.toggle("finished", Boolean(snap && snap.status === "finished"));
    const placing = Boolean(snap && snap.frame.in_hand);
    el("strike").disabled = !this.view.ready() || (placing && !this.aim.cueBall);
    const ready = this.view.ready();
    for (const id of ["power", "aim-angle", "nominate", "spin-reset", "power-down", "power-up",
      "aim-left-coarse", "aim-left-fine", "aim-right-fine", "aim-right-coarse"]) {
      el(id).disabled = !mine;
    }
    el("aim-fine").setAttribute("aria-disabled", String(!mine));
    el("place-cue").hidden = !(ready && placing && !this.aim.cueBall); // placed: drag to move
    el("aim-hint").textContent = this.hint(snap, mine);
    root.classList.toggle("my-turn", mine);
    root.classList.toggle("placing", mine && placing);
    for (const b of root.querySelectorAll("[data-step]")) {
      b.textContent = `${num(b.dataset.step === "fine" ? 0.1 : 1, 1)}°`;
    }
    this.refreshNomination();
    this.syncAimInputs();
    this.view.dirty = true;
    this.keepFocus();
  }

  /** Focus follows the play: when the control last focused in the match (input.js tracks
   * it) is gone, hidden or disabled and the focus fell to the page, the next useful control
   * takes it: the decision's first option if one is asked of us, else the table. */
  keepFocus() {
    const last = this.view.lastFocus;
    if (!last) return;
    const gone = (e) => !e.isConnected || e.disabled || e.closest("[hidden]") !== null;
    const now = this.doc.activeElement;
    if (now && now !== this.doc.body && !gone(now)) return;
    if (!gone(last)) return; // the player put the focus elsewhere themselves
    const choice = this.el("decision-options").querySelector("button");
    const next = choice && !gone(choice) ? choice : this.el("table");
    next.focus({ preventScroll: true });
  }

  hint(snap, mine) {
    const touch = this.view.touch ? "_touch" : "";
    if (!snap) return t("hint.connecting");
    if (this.client.pending) return t("hint.waiting");
    if (this.playback.anim || this.client.queue.length) return t("hint.moving");
    if (this.view.hold) return t("hint.between");
    if (snap.status !== "live") return t("hint.over");
    if (snap.frame.pending) {
      return snap.frame.pending.holder === this.client.seat
        ? t("hint.your_decision")
        : t("hint.deciding");
    }
    if (mine && snap.frame.in_hand && !this.aim.cueBall) return t(`hint.place${touch}`);
    if (mine && snap.frame.in_hand) return t(`hint.aim_hand${touch}`);
    if (mine) return t(`hint.aim${touch}`);
    const striker = snap.scoreboard.to_act;
    const info = this.client.presence && this.client.presence.players
      ? this.client.presence.players[striker] : null;
    const name = this.client.players[striker] || "";
    return info && info.arrived && !info.online
      ? t("hint.away", { name })
      : t("hint.theirs", { name });
  }
}
