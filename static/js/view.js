// What the match page shows: the scoreboard, the turn, the decision, the story of the frame,
// who is away, from the client's protocol state (client.js), the playback of its events
// (playback.js) and the striker's aim; and who may do what now, which the stroke's controls
// (controlspanel.js) and the table's canvas (scene.js) follow. It changes nothing but the
// screen and, when a new position arrives, where the cue points (at a ball on it can hit)
// and, after a stroke, the power and spin (back to neutral unless the player keeps them).

import { ControlsPanel } from "./controlspanel.js";
import { cuePull } from "./cueswing.js";
import { playerName, t } from "./i18n.js";
import { forShown, held, stale, thinkingShown } from "./opponent.js";
import { clock } from "./panels.js";
import { scoreAfterDrops } from "./playback.js";
import { soundsOf } from "./sound.js";
import { matchResult, refereeCalls, spokenEvent } from "./story.js";

// Seconds before a stall may be claimed when both players are told (the countdown); before
// then the table shows nothing, as a player may think as long as the club's stall time.
const STALL_NOTICE = 60;

export class MatchView {
  constructor({ root, panels, decision, logPanel, story, painter, client, playback, aim, conn,
    settings, sounds, constants, geometry, rate, practice, doc = globalThis.document }) {
    this.root = root; // the match's element
    this.panels = panels; // the scoreboard, turn, notices and panels (panels.js)
    this.el = panels.el; // an element of the match by its test id
    this.decision = decision; // the decision asked after a foul (decision.js)
    this.logPanel = logPanel; // the referee's log of each frame (logpanel.js)
    this.story = story; // what happened in each frame (story.js)
    this.client = client; // the protocol's state (client.js)
    this.playback = playback; // the events animated, and the position shown (playback.js)
    this.aim = aim; // this player's cue (aiming.js)
    this.conn = conn; // the socket (connection.js)
    this.settings = settings; // the page's settings (settings.js)
    this.sounds = sounds; // sound.js
    this.constants = constants; // the page constants (constants.js)
    this.geometry = geometry; // the table's geometry (geometry.js)
    this.rate = rate; // the playback rate (1: real time; tests speed it up)
    this.practice = practice; // a practice table: one member plays both seats
    this.doc = doc; // the page's document (its title)
    // How long the end of a frame stays on the table before the next rack (ms of real time;
    // the playback rate of the tests shortens it as it shortens strokes): the server's
    // figure, which also starts the breaker's shot clock after it.
    this.holdMs = constants.frame_hold * 1000;
    this.swing = constants.cue_swing || null; // the cue's swing at a stroke (cueswing.js)
    this.connection = "connecting";
    this.heldAim = null; // the striker's aim as relayed to us, for its version (opponent.js)
    this.thinking = null; // the computer's "thinking", for its version (opponent.js)
    this.presented = []; // versions shown, in order
    this.scoredEarly = []; // versions whose score was shown as their last ball dropped
    this.calls = []; // {version, kind, calls}: the server's words, for the tests
    this.lastMotion = null; // {version, seconds, continuity} of the last stroke animated
    this.hold = null; // {until, balls}: the frame just ended, shown before the next rack
    this.turnKind = null; // the last turn shown (mine, decide, theirs, ...)
    this.touch = false; // a coarse pointer: no keyboard hints
    this.lastFocus = null; // the control last focused in the match (input.js, keepFocus)
    this.dirty = true; // the canvas needs drawing (scene.js)
    this.announceAim = null; // sends this player's aim (input.js)
    this.announced = null; // the version whose aim was last announced
    this.proHint = null; // a practice table's hint (hint.js), drawn while its position is shown
    // The stroke's controls follow what this view says may be done.
    this.controls = new ControlsPanel({
      view: this, root, el: panels.el, aim, client, playback, painter, doc,
    });
  }

  get shown() {
    return this.playback.shown;
  }

  /** The striker's relayed aim, if it is for the position on screen and nothing moves. */
  get remoteAim() {
    return forShown(this.heldAim, this.shown, Boolean(this.playback.anim || this.hold));
  }

  /** An `aim` or `thinking` message came: kept for the position it was made at. */
  relayed(msg) {
    const message = held(msg, this.client.version);
    if (msg.type === "thinking") this.thinking = message;
    else this.heldAim = message;
    this.dirty = true;
    this.refreshThinking();
  }

  /** "Computer · Pro is thinking…" beside the turn, while it searches a still table. */
  refreshThinking() {
    const moving = Boolean(this.playback.anim || this.hold);
    const now = thinkingShown(this.thinking, this.heldAim, this.shown, moving);
    const line = this.el("thinking");
    line.hidden = !now;
    if (now) line.textContent = t("opponent.thinking", { name: playerName(this.client.players[now.seat]) });
  }

  /** The cue of the stroke being played, while it swings to the ball and through its place:
   * {cue (where the cue ball stood), angle, speed, pull (cueswing.js)}; else null. */
  swingingCue() {
    const anim = this.playback.anim;
    const request = anim && anim.event.request;
    if (!request || typeof request.angle !== "number" || !anim.before.white) return null;
    const speed = request.speed || 0;
    const pull = cuePull(anim.t, speed, this.swing);
    if (pull === null) return null;
    return { cue: anim.before.white, angle: request.angle, speed, pull };
  }

  /** Play the stroke moving to its end now (the skip button, or S). */
  skip() {
    if (!this.playback.skip()) return;
    this.pump(performance.now());
    this.dirty = true;
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

  /** Nothing moving, queued, held or unanswered, and the socket greeted. */
  settled() {
    return !this.playback.anim && !this.client.queue.length && !this.client.pending &&
      !this.hold && Boolean(this.conn.ready);
  }

  ready() {
    return this.canStrike() && this.settled();
  }

  /** Concessions and claims need the table as it is now. */
  canAct() {
    const snap = this.shown;
    const { presence } = this.client;
    if (presence && presence.abandoned) return false; // never started: nothing to play
    return Boolean(snap && this.client.seat && snap.status === "live") && this.settled();
  }

  cuePosition() {
    const snap = this.shown;
    if (!snap) return null;
    if (snap.frame.in_hand) return this.aim.cueBall;
    return snap.frame.balls.white || null;
  }

  // --- showing events ----------------------------------------------------------------------
  /** A welcome's snapshot: the table as it is, without replaying anything. The story of
   * the frame comes in the `log` that follows. */
  reset(snap, first) {
    const before = this.shown;
    this.playback.reset(snap);
    this.hold = null;
    if (!first) this.story.reset();
    this.logPanel.asked.clear(); // an answer lost with the socket is asked for again
    this.present(before, snap, null);
  }

  /** A `log` message came. */
  loaded(log) {
    this.story.load(log);
    this.logPanel.loaded(log.frame);
    // After a welcome no event shows its calls ("FOUL 4" while the decision is pending):
    // the log's last entry does, if it made the position shown.
    const last = log.entries[log.entries.length - 1];
    const shown = this.shown;
    if (shown && last && last.version === shown.version && !last.frame_end
        && !this.presented.includes(last.version)) {
      this.panels.calls(refereeCalls(last.ruling));
    }
    if (this.shown) this.refreshStory(this.shown);
  }

  /** Show the events that are due at `now` (ms). */
  pump(now) {
    if (this.hold && (now >= this.hold.until || this.client.queue.length)) this.endHold();
    if (this.hold) return;
    const moving = Boolean(this.playback.anim);
    const started = this.playback.advance(now, this.client.queue, (event, before, final) =>
      this.present(before, event.snapshot, event, final, now),
    (event, k, n) => this.scored(event, k, n));
    if (this.playback.anim) this.dirty = true;
    if (moving !== Boolean(this.playback.anim)) {
      this.dirty = true; // a held aim appears, or goes, with the motion
      this.el("skip").hidden = !this.playback.anim;
      this.refreshThinking();
    }
    if (started) {
      const { event, motion } = started;
      this.lastMotion = {
        version: event.version,
        seconds: motion.end,
        continuity: Math.round(motion.continuityError() * 1000) / 1000,
      };
      const speed = event.request && event.request.speed ? event.request.speed : 0;
      // The sounds from the tip meeting the ball, after the cue's swing.
      const lead = this.playback.lead;
      const sounds = soundsOf(event.shot, speed, this.constants.stroke.max_speed)
        .map((s) => ({ ...s, t: s.t + lead }));
      this.sounds.stroke(sounds, this.rate);
      // Nobody's turn while the balls run; what was on stays until the score changes.
      this.panels.turn(this.shown, this.client.seat, this.client.players, true);
      this.refresh();
    }
  }

  /** The `k`th of a fair stroke's `n` scoring balls has dropped while the others still run
   * (playback.js scoringDrops): the striker's score and the break count it; at the last, the
   * whole scoreboard and what is on, from its snapshot. The turn and the story wait for the
   * balls to stop. */
  scored(event, k, n) {
    const snap = event.snapshot;
    if (k < n) {
      const now = scoreAfterDrops(event, k, n);
      this.el(`score-${now.seat}`).textContent = String(now.score);
      this.el("break").textContent = String(now.break);
      return;
    }
    this.scoredEarly.push(event.version);
    this.panels.scoreboard(snap, this.client.players, this.client.presence, this.connection);
    this.panels.turn(snap, this.client.seat, this.client.players, true);
  }

  endHold() {
    this.hold = null;
    this.refreshThinking();
    this.el("rack-now").hidden = true;
    this.panels.calls([]); // the last frame's calls ("FRAME OVER") go with its position
    this.dirty = true;
    this.refresh();
  }

  present(before, snap, event, final = null, now = performance.now()) {
    const players = this.client.players;
    const spoken = []; // what the live region reads out: the calls, the score, a new turn
    if (this.practice && this.client.seat) {
      this.client.seat = snap.scoreboard.to_act || snap.scoreboard.striker;
    }
    if (event) {
      this.presented.push(event.version);
      this.calls.push({
        version: event.version, kind: event.kind,
        calls: (event.ruling && event.ruling.calls) || [],
      });
      this.story.add(event, before);
      this.panels.calls(refereeCalls(event.ruling));
      // One sentence for the event (with its result), then the score, unless a frame ended:
      // the result has the frame's score, and the new frame's 0–0 would read after it.
      spoken.push(spokenEvent(event, before, players));
      const board = snap.scoreboard;
      if (!event.frame_end) {
        spoken.push(t("announce.score", {
          a: players.A, b: players.B, sa: board.scores.A, sb: board.scores.B,
        }));
      }
      if (event.frame_end && !event.match_end && final) {
        // The frame's last position stays a moment, beside the panel with its result.
        this.hold = { until: now + this.holdMs / Math.max(1, this.rate), balls: final };
        this.el("rack-now").hidden = false;
      }
      if (event.kind === "stroke" && !this.settings.get("keepStroke")) this.aim.resetStroke();
    } else {
      this.panels.calls([]);
    }
    if (!before || before.version !== snap.version) {
      // An aim for this position (or a later one) stays: it came during the playback.
      if (stale(this.heldAim, snap)) this.heldAim = null;
      if (stale(this.thinking, snap)) this.thinking = null;
      if (snap.frame.in_hand) {
        this.aim.cueBall = null;
        this.aim.hover = null;
      }
      if (this.canStrike() && !snap.frame.in_hand) this.aimAtBallOn();
    }
    this.refreshThinking();
    this.panels.scoreboard(snap, players, this.client.presence, this.connection);
    this.decision.show(snap, this.client.seat, players);
    this.refreshStory(snap);
    const turn = this.refreshTurn(snap);
    if (turn) spoken.push(turn);
    this.panels.announce(spoken.join(". "));
    this.refresh();
    this.refreshAway();
  }

  /** The log, the panel between frames and the match's result, from the story held. */
  refreshStory(snap) {
    const players = this.client.players;
    const board = snap.scoreboard;
    const finished = snap.status === "finished";
    this.logPanel.follow(board.frame_number, board.frames, finished);
    this.panels.matchOver(finished ? matchResult(snap.result, board.frames, players) : null);
    const f = snap.frame;
    // A frame not begun: racked, the breaker in hand, nothing scored or decided yet.
    const fresh = !finished && f.opening && f.in_hand && !f.pending &&
      f.scores.A === 0 && f.scores.B === 0;
    this.logPanel.wanted = null;
    if (!fresh) {
      this.panels.interval(null, null, null, players);
      return;
    }
    const record = snap.frames.length ? snap.frames[snap.frames.length - 1] : null;
    let entries = null;
    if (record) {
      this.logPanel.wanted = record.number;
      this.logPanel.need(record.number);
      const held = this.story.frame(record.number);
      entries = held && !held.partial ? held.entries : null;
    }
    this.panels.interval(record, entries, f.striker, players);
  }

  /** The turn bar, the tab's title, and a chime when the turn or a decision comes to us.
   * Returns the turn's words if it changed (for the live region), else "". */
  refreshTurn(snap) {
    const players = this.client.players;
    const turn = this.panels.turn(snap, this.client.seat, players);
    const match = t("title.match", { a: players.A, b: players.B });
    const title = turn.kind === "mine" ? t("title.your_turn", { match })
      : turn.kind === "decide" ? t("title.your_decision", { match })
        : match;
    this.doc.title = title;
    this.doc.body.dataset.title = title; // notices.js keeps it as the title's base
    if (turn.kind === this.turnKind) return "";
    if (turn.kind === "mine") this.sounds.chime("turn");
    if (turn.kind === "decide") this.sounds.chime("decision");
    this.turnKind = turn.kind;
    return [turn.text, turn.on].filter(Boolean).join(". ");
  }

  /** Point the cue at the nearest ball on it can hit (a clear line; full on if it can),
   * the server saying which balls are on; else at the nearest ball on. At a break-off (the
   * server's `opening`), thin on the outside of the end red of the back row instead. */
  aimAtBallOn() {
    const cue = this.cuePosition();
    if (!cue) return;
    const { balls, opening } = this.shown.frame;
    const on = this.shown.turn.balls_on;
    const found = (opening && this.geometry.breakOffAim(cue, on, balls)) ||
      this.geometry.aimAt(cue, on, balls);
    if (found) {
      this.aim.angle = found.angle;
      return;
    }
    let best = null;
    for (const id of on) {
      const p = balls[id];
      if (!p) continue;
      const d = Math.hypot(p[0] - cue[0], p[1] - cue[1]);
      if (!best || d < best.d) best = { d, p };
    }
    if (best) this.aim.angle = Math.atan2(best.p[1] - cue[1], best.p[0] - cue[0]);
  }

  /** The ball the aim line meets first, if any. */
  target() {
    const cue = this.cuePosition();
    if (!cue) return null;
    return this.geometry.predict(cue, this.aim.angle, this.shown.frame.balls).target;
  }

  // --- the controls (controlspanel.js) ---------------------------------------------------------
  /** The aim moved: its inputs and the nomination follow; the canvas is redrawn. */
  aimMoved() {
    this.controls.aimMoved();
  }

  /** The nomination the player made (or that follows the aim), if one applies. */
  nominated() {
    return this.controls.nominated();
  }

  /** The controls follow who may do what now; once a stroke of ours is due at a new
   * position, the aim the page chose is shown to the others at once (`announceAim`, set by
   * input.js), not only when the player first moves it (after a reload, a new turn). */
  refresh() {
    this.controls.refresh();
    if (this.announceAim && this.ready() && this.announced !== this.shown.version) {
      this.announced = this.shown.version;
      this.announceAim();
    }
  }

  /** The opponent (or, for spectators, any player) who is away: a panel and maybe a claim.
   * Until the match starts (both players at the table together) a player who came waits
   * for the other, and nobody can claim; a match never started in time is abandoned. */
  refreshAway() {
    const { seat, players, presence } = this.client;
    if (presence && presence.abandoned) {
      // Started and then left by both (rules/presence.py), or never started in time.
      this.panels.away(t(presence.started ? "away.deserted" : "away.abandoned"), false);
      return;
    }
    const other = seat === "A" ? "B" : "A";
    const online = (presence && presence.players) || {};
    if (!this.shown || this.shown.status !== "live" || this.connection !== "open") {
      this.panels.away(null, false);
      return;
    }
    if (seat && presence && !presence.started && !(online[other] && online[other].online)) {
      this.panels.away(t("away.waiting", { name: players[other] }), false);
      return;
    }
    const seats = seat ? [other] : ["A", "B"];
    const gone = seats.filter((s) => online[s] && !online[s].online && online[s].arrived);
    if (!gone.length) {
      this.refreshStall(seat, online);
      return;
    }
    const names = gone.map((s) => players[s]);
    let text = gone.length > 1
      ? t("away.both", { a: names[0], b: names[1] })
      : t("away.one", { name: names[0] });
    let claim = false;
    const from = online[gone[0]].claim_from;
    if (seat && from) {
      // The server's word (rules/presence.py): null while no claim can come at all.
      const left = Math.ceil((Date.parse(from) - Date.now()) / 1000);
      if (left > 0) text += ` — ${t("away.claim_in", { time: clock(left) })}`;
      else claim = true;
    }
    this.panels.away(text, claim);
    for (const id of ["claim-frame", "claim-match"]) this.el(id).disabled = !this.canAct();
  }

  /** Both players here: the one to act who does not play may be claimed against once their
   * turn has lasted the club's stall time (the server's `claim_from`, rules/presence.py).
   * Said in the last minute only, to both: the claim to the other, the warning to them. */
  refreshStall(seat, online) {
    const other = seat === "A" ? "B" : "A";
    const mine = seat && online[seat] && online[seat].claim_from;
    const theirs = seat && online[other] && online[other].online && online[other].claim_from;
    const from = theirs || mine;
    const left = from ? Math.ceil((Date.parse(from) - Date.now()) / 1000) : Infinity;
    if (left > STALL_NOTICE) {
      this.panels.away(null, false);
      return;
    }
    if (!theirs) {
      this.panels.away(t("away.stall_warning", { time: clock(Math.max(left, 0)) }), false);
      return;
    }
    let text = t("away.stalling", { name: this.client.players[other] });
    if (left > 0) text += ` — ${t("away.claim_in", { time: clock(left) })}`;
    this.panels.away(text, left <= 0);
    for (const id of ["claim-frame", "claim-match"]) this.el(id).disabled = !this.canAct();
  }
}
