// What the match page shows: the table, the scoreboard and the controls, from the client's
// protocol state (client.js), the playback of its events (playback.js) and the striker's aim.
// It changes nothing but the screen and, when a new position arrives, where the cue points.

import { drawAim, drawD, drawPlacement, drawSpin } from "./aiming.js";
import { GEOMETRY } from "./constants.js";
import { clock, frameResult, matchResult } from "./panels.js";

export class MatchView {
  constructor({ root, panels, tableView, client, playback, aim, conn, practice = false }) {
    this.root = root;
    this.panels = panels;
    this.el = panels.el;
    this.tableView = tableView;
    this.client = client;
    this.playback = playback;
    this.aim = aim;
    this.conn = conn;
    this.practice = practice; // one member on both sides: the seat is the one to act
    this.connection = "connecting";
    this.remoteAim = null; // the striker's aim as relayed to us
    this.presented = []; // versions shown, in order
    this.calls = []; // {version, kind, calls}
    this.lastMotion = null; // {version, seconds, continuity} of the last stroke animated
    this.dirty = true; // the canvas needs drawing
  }

  get shown() {
    return this.playback.shown;
  }

  // --- who may do what, now ----------------------------------------------------------------
  canStrike() {
    const snap = this.shown;
    const seat = this.client.seat;
    return Boolean(
      snap && seat && snap.status === "live" && !snap.frame.pending &&
        snap.scoreboard.to_act === seat && !snap.frame.frame_over,
    );
  }

  /** Nothing moving, queued or unanswered, and the socket greeted: the table is as it is. */
  settled() {
    return !this.playback.anim && !this.client.queue.length && !this.client.pending &&
      Boolean(this.conn.ready);
  }

  ready() {
    return this.canStrike() && this.settled();
  }

  /** Concessions and claims need the table as it is now. */
  canAct() {
    const snap = this.shown;
    return Boolean(snap && this.client.seat && snap.status === "live") && this.settled();
  }

  cuePosition() {
    const snap = this.shown;
    if (!snap) return null;
    if (snap.frame.in_hand) return this.aim.cueBall;
    return snap.frame.balls.white || null;
  }

  // --- showing events ----------------------------------------------------------------------
  /** A welcome's snapshot: the table as it is, without replaying anything. */
  reset(snap, first) {
    const before = this.shown;
    this.playback.reset(snap);
    this.present(before, snap, null);
    const { scores, frame_number: number } = snap.scoreboard;
    const { players } = this.client;
    this.panels.logNote(
      `${first ? "Joined" : "Resynchronised"} at frame ${number}: ` +
        `${players.A} ${scores.A} – ${scores.B} ${players.B}`,
    );
  }

  /** Show the events that are due at `now` (ms). */
  pump(now) {
    const started = this.playback.advance(now, this.client.queue, (event, before) =>
      this.present(before, event.snapshot, event),
    );
    if (this.playback.anim) this.dirty = true;
    if (started) {
      this.lastMotion = {
        version: started.event.version,
        seconds: started.motion.end,
        continuity: Math.round(started.motion.continuityError() * 1000) / 1000,
      };
      this.remoteAim = null;
      this.refresh();
    }
  }

  present(before, snap, event) {
    const players = this.client.players;
    if (this.practice && this.client.seat) {
      this.client.seat = snap.scoreboard.to_act || snap.scoreboard.striker;
    }
    if (event) {
      this.presented.push(event.version);
      const calls = (event.ruling && event.ruling.calls) || [];
      this.calls.push({ version: event.version, kind: event.kind, calls });
      this.panels.referee(this.panels.logEvent(event, players));
    }
    if (!before || before.version !== snap.version) {
      this.remoteAim = null;
      if (snap.frame.in_hand) {
        this.aim.cueBall = null;
        this.aim.hover = null;
      }
      if (this.canStrike() && !snap.frame.in_hand) this.aimAtNearestBallOn();
    }
    this.announceResults(before, snap);
    this.panels.scoreboard(snap, players, this.client.presence, this.connection);
    this.panels.decision(snap, this.client.seat, players);
    this.refresh();
    this.refreshAway();
  }

  /** A frame that ended since the last picture, and the end of the match, told once. */
  announceResults(before, snap) {
    const players = this.client.players;
    const ended = before ? snap.frames.slice(before.frames.length) : [];
    const finished = snap.status === "finished";
    ended.forEach((record, i) => {
      const text = frameResult(record, players);
      if (finished && i === ended.length - 1) this.panels.logNote(text, "log-result");
      else this.panels.frameOver(text);
    });
    if (finished && (!before || before.status !== "finished")) {
      this.panels.closeConfirm(false);
      const text = matchResult(snap, players);
      this.panels.logNote(text, "log-result final");
      this.panels.matchOver(text);
    } else if (!finished) {
      this.panels.matchOver(null);
    }
  }

  /** Point the cue at the nearest ball on (the server says which are on). */
  aimAtNearestBallOn() {
    const cue = this.cuePosition();
    if (!cue) return;
    const { balls } = this.shown.frame;
    let best = null;
    for (const id of this.shown.turn.balls_on) {
      const p = balls[id];
      const d = Math.hypot(p[0] - cue[0], p[1] - cue[1]);
      if (!best || d < best.d) best = { d, p };
    }
    if (best) this.aim.angle = Math.atan2(best.p[1] - cue[1], best.p[0] - cue[0]);
  }

  /** The ball the aim line meets first, if any. */
  target() {
    const cue = this.cuePosition();
    if (!cue) return null;
    return GEOMETRY.predict(cue, this.aim.angle, this.shown.frame.balls).target;
  }

  // --- the controls --------------------------------------------------------------------------
  /** The aim moved: its inputs and the nomination follow; the canvas is redrawn. */
  aimMoved() {
    this.dirty = true;
    this.syncAimInputs();
    this.refreshNomination();
  }

  syncAimInputs() {
    const { el, aim } = this;
    const angleInput = el("aim-angle");
    if (document.activeElement !== angleInput) {
      angleInput.value = ((aim.angle * 180) / Math.PI).toFixed(2);
    }
    el("power").value = String(aim.speed);
    el("power-value").textContent = aim.speed.toFixed(1);
    const { side, height } = aim;
    el("spin-value").textContent =
      side === 0 && height === 0
        ? "centre"
        : `${height > 0 ? "top" : height < 0 ? "screw" : ""} ${Math.abs(height).toFixed(2)}` +
          ` · ${side > 0 ? "right" : side < 0 ? "left" : ""} ${Math.abs(side).toFixed(2)}`;
    drawSpin(el("spin"), aim);
  }

  refreshNomination() {
    const row = this.el("nominate-row");
    const select = this.el("nominate");
    const snap = this.shown;
    const choices = snap && this.canStrike() ? snap.turn.nominate : [];
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
      const auto = document.createElement("option");
      auto.value = "";
      auto.textContent = "the ball hit first";
      select.append(auto);
      for (const id of choices) {
        const o = document.createElement("option");
        o.value = id;
        o.textContent = id.startsWith("red") ? `red (${id})` : id;
        select.append(o);
      }
    }
    // Follow the ball aimed at until the player picks one by hand.
    if (select.dataset.touched) return;
    const target = this.target();
    select.value = target && choices.includes(target) ? target : "";
  }

  /** The nomination the player made (or that follows the aim), if one applies. */
  nominated() {
    const select = this.el("nominate");
    return !this.el("nominate-row").hidden && select.value ? select.value : null;
  }

  refresh() {
    const { el, root } = this;
    const snap = this.shown;
    const seat = this.client.seat;
    const mine = this.canStrike();
    el("controls").hidden = !seat;
    const watching = el("watching");
    watching.hidden = Boolean(seat);
    if (!seat) watching.textContent = "You are watching. Sign in as a player to play.";
    for (const id of ["concede-frame", "concede-match"]) el(id).disabled = !this.canAct();
    root.classList.toggle("finished", Boolean(snap && snap.status === "finished"));
    el("strike").disabled = !this.ready() || (snap && snap.frame.in_hand && !this.aim.cueBall);
    for (const id of ["power", "aim-angle", "nominate", "spin-reset"]) el(id).disabled = !mine;
    el("aim-hint").textContent = this.hint(snap, mine);
    root.classList.toggle("my-turn", mine);
    root.classList.toggle("placing", mine && Boolean(snap && snap.frame.in_hand));
    this.refreshNomination();
    this.syncAimInputs();
    this.dirty = true;
  }

  hint(snap, mine) {
    if (!snap) return "Connecting…";
    if (this.client.pending) return "Waiting for the referee…";
    if (this.playback.anim || this.client.queue.length) return "Balls are moving…";
    if (snap.status !== "live") return "The match is over.";
    if (snap.frame.pending) {
      return snap.frame.pending.holder === this.client.seat
        ? "Your decision."
        : "Waiting for a decision…";
    }
    if (mine && snap.frame.in_hand && !this.aim.cueBall) {
      return "Ball in hand: click in the D to place the cue ball.";
    }
    if (mine && snap.frame.in_hand) {
      return "Drag on the table to aim (drag the cue ball to move it in the D); ←/→ fine-tune.";
    }
    if (mine) return "Your shot: drag to aim, ←/→ to fine-tune (Shift: finer), then Strike.";
    return `${this.client.players[snap.scoreboard.to_act] || "Your opponent"} is at the table.`;
  }

  /** The opponent (or, for spectators, any player) who is away: a banner and maybe a claim. */
  refreshAway() {
    const { seat, players, presence } = this.client;
    const seats = seat ? [seat === "A" ? "B" : "A"] : ["A", "B"];
    const online = (presence && presence.players) || {};
    const gone = seats.filter((s) => online[s] && !online[s].online);
    if (!gone.length || !this.shown || this.shown.status !== "live" ||
        this.connection !== "open") {
      this.panels.away(null, false);
      return;
    }
    const names = gone.map((s) => players[s]).join(" and ");
    let text = `${names} ${gone.length > 1 ? "have" : "has"} left the table`;
    let claim = false;
    if (seat) {
      const from = Date.parse(online[gone[0]].claim_from);
      const left = Math.ceil((from - Date.now()) / 1000);
      if (left > 0) text += ` — you may claim in ${clock(left)}`;
      else claim = true;
    }
    this.panels.away(text, claim);
    for (const id of ["claim-frame", "claim-match"]) this.el(id).disabled = !this.canAct();
  }

  // --- the canvas ----------------------------------------------------------------------------
  draw() {
    if (this.tableView.resize()) this.dirty = true;
    if (!this.dirty) return;
    this.dirty = false;
    this.tableView.draw(this.drawnBalls(), this.overlay());
  }

  overlay() {
    const snap = this.shown;
    const moving = Boolean(this.playback.anim);
    return {
      under: (ctx) => {
        if (snap && snap.frame.in_hand && !moving && snap.status === "live" &&
            !snap.frame.pending) {
          drawD(ctx);
        }
      },
      over: (ctx, v) => {
        if (!snap || moving) return;
        if (this.ready()) {
          const cue = this.cuePosition();
          if (snap.frame.in_hand) drawPlacement(ctx, v, this.aim.hover);
          if (cue) drawAim(ctx, v, cue, this.aim, snap.frame.balls, { mine: true });
          return;
        }
        const remote = this.remoteAim;
        if (remote && remote.seat === snap.scoreboard.to_act && remote.seat !== this.client.seat) {
          const cue = snap.frame.in_hand ? remote.cue_ball : snap.frame.balls.white;
          if (cue) drawAim(ctx, v, cue, remote, snap.frame.balls, { mine: false });
        }
      },
    };
  }

  drawnBalls() {
    const balls = { ...this.playback.balls };
    const snap = this.shown;
    const remote = this.remoteAim;
    if (!this.playback.anim && snap && snap.frame.in_hand) {
      delete balls.white;
      if (this.ready() && this.aim.cueBall) balls.white = this.aim.cueBall;
      else if (remote && remote.cue_ball && remote.seat !== this.client.seat) {
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
