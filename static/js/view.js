// What the match page shows: the scoreboard, the turn, the decision, the story of the frame,
// who is away, from the client's protocol state (client.js), the playback of its events
// (playback.js) and the striker's aim; and who may do what now, which the stroke's controls
// (controlspanel.js) and the table's canvas (scene.js) follow. It changes nothing but the
// screen and, when a new position arrives, where the cue points (at a ball on it can hit)
// and, after a stroke, the power and spin (back to neutral unless the player keeps them).

import { ControlsPanel } from "./controlspanel.js";
import { t } from "./i18n.js";
import { clock } from "./panels.js";
import { soundsOf } from "./sound.js";
import { matchResult, refereeCalls, spokenEvent } from "./story.js";

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
    this.connection = "connecting";
    this.remoteAim = null; // the striker's aim as relayed to us
    this.presented = []; // versions shown, in order
    this.calls = []; // {version, kind, calls}: the server's words, for the tests
    this.lastMotion = null; // {version, seconds, continuity} of the last stroke animated
    this.hold = null; // {until, balls}: the frame just ended, shown before the next rack
    this.turnKind = null; // the last turn shown (mine, decide, theirs, ...)
    this.touch = false; // a coarse pointer: no keyboard hints
    this.lastFocus = null; // the control last focused in the match (input.js, keepFocus)
    this.dirty = true; // the canvas needs drawing (scene.js)
    this.proHint = null; // a practice table's hint (hint.js), drawn while its position is shown
    // The stroke's controls follow what this view says may be done.
    this.controls = new ControlsPanel({
      view: this, root, el: panels.el, aim, client, playback, painter, doc,
    });
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
    const started = this.playback.advance(now, this.client.queue, (event, before, final) =>
      this.present(before, event.snapshot, event, final, now),
    );
    if (this.playback.anim) this.dirty = true;
    if (started) {
      const { event, motion } = started;
      this.lastMotion = {
        version: event.version,
        seconds: motion.end,
        continuity: Math.round(motion.continuityError() * 1000) / 1000,
      };
      this.remoteAim = null;
      const speed = event.request && event.request.speed ? event.request.speed : 0;
      this.sounds.stroke(soundsOf(event.shot, speed, this.constants.stroke.max_speed), this.rate);
      this.refresh();
    }
  }

  endHold() {
    this.hold = null;
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
      this.remoteAim = null;
      if (snap.frame.in_hand) {
        this.aim.cueBall = null;
        this.aim.hover = null;
      }
      if (this.canStrike() && !snap.frame.in_hand) this.aimAtBallOn();
    }
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
   * the server saying which balls are on; else at the nearest ball on. */
  aimAtBallOn() {
    const cue = this.cuePosition();
    if (!cue) return;
    const { balls } = this.shown.frame;
    const on = this.shown.turn.balls_on;
    const found = this.geometry.aimAt(cue, on, balls);
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

  /** The controls follow who may do what now. */
  refresh() {
    this.controls.refresh();
  }

  /** The opponent (or, for spectators, any player) who is away: a panel and maybe a claim.
   * Until the match starts (both players at the table together) a player who came waits
   * for the other, and nobody can claim; a match never started in time is abandoned. */
  refreshAway() {
    const { seat, players, presence } = this.client;
    if (presence && presence.abandoned) {
      this.panels.away(t("away.abandoned"), false);
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
      this.panels.away(null, false);
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
}
