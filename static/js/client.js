// The match as the protocol sees it (docs/protocol.md): the last event version received, the
// events not yet shown, the request in flight and the resynchronisation after every welcome.
// Pure: the transport comes in as `send` and `drop`, request ids as `newId`; no DOM, socket
// or clock, so tests/client.test.js drives it message by message.
//
// `version` follows the events as they arrive; the page takes them from `queue` at its own
// pace (a stroke is animated before the scoreboard moves on), so each is shown exactly once.

export class MatchClient {
  constructor({ seat, players, send, drop, newId }) {
    this.seat = seat;
    this.players = players;
    this.presence = null;
    this.clock = null; // {version, deadline}: the shot clock started without an event
    this.version = null; // the last event version received
    this.queue = []; // events received, not yet shown
    this.pending = null; // the last request sent and not yet answered: {message, version}
    this.resyncing = false; // from a welcome until the pong that follows the missed events
    this.send = send;
    this.drop = drop;
    this.newId = newId;
  }

  /** Take one server message. Returns what the page must show besides the queue: `snapshot`
   * (a whole new picture, `first` if it is the first), `error` (a refusal), `log` (a frame's
   * referee log: after a welcome with a snapshot, or asked for), or nothing. */
  receive(msg) {
    switch (msg.type) {
      case "welcome":
        return this._welcome(msg);
      case "event":
        this._event(msg);
        return {};
      case "ack":
        this._answered(msg.client_id);
        return {};
      case "error":
        this._answered(msg.client_id);
        return { error: msg };
      case "presence":
        this.presence = msg;
        return {};
      case "clock":
        this.clock = { version: msg.version, deadline: msg.deadline };
        return {};
      case "log":
        return { log: msg };
      case "pong":
        if (this.resyncing) {
          this.resyncing = false;
          this._resend();
        }
        return {};
      default:
        return {};
    }
  }

  /** Send a request that changes the match; it stays pending until answered or overtaken. */
  request(fields) {
    const message = { ...fields, client_id: this.newId() };
    this.pending = { message, version: this.version };
    this.send(message);
    return message;
  }

  /** Ask for frame `frame`'s referee log (answered with a `log` message). */
  askLog(frame) {
    this.send({ type: "log", frame });
  }

  /** The next event to show, or undefined. */
  next() {
    return this.queue.shift();
  }

  _welcome(msg) {
    this.seat = msg.seat;
    this.players = msg.players;
    const snap = msg.snapshot;
    let news = {};
    if (snap && snap.version !== this.version) {
      // A whole new picture: whatever was queued is superseded.
      news = { snapshot: snap, first: this.version === null };
      this.queue = [];
      this.version = snap.version;
    }
    // Missed events (if any) follow the welcome; the pong to this ping comes after them.
    this.resyncing = true;
    this.send({ type: "ping", version: this.version || 0 });
    return news;
  }

  _event(event) {
    if (this.version !== null && event.version <= this.version) return; // seen already
    if (this.version !== null && event.version > this.version + 1) {
      this.drop(); // a gap: reconnect and ask for what is missing
      return;
    }
    this.version = event.version;
    if (this.pending && event.version > this.pending.version) {
      // Our request made this event, or the table moved on and it is stale: either way done.
      this.pending = null;
    }
    this.queue.push(event);
  }

  _answered(clientId) {
    if (this.pending && clientId && this.pending.message.client_id === clientId) {
      this.pending = null;
    }
  }

  /** After a resynchronisation: send the unanswered request again (the server answers a
   * repeated client_id with the first answer), unless the table moved on meanwhile. */
  _resend() {
    if (!this.pending) return;
    if (this.version !== this.pending.version) this.pending = null;
    else this.send(this.pending.message);
  }
}
