// One reconnecting websocket for every page: the match's (connection.js) and the club's
// (clubsocket.js). It says `hello` on each connection, pings while it is greeted and takes a
// silence longer than `silentLimit` (no message at all, not even the pong its pings ask for)
// for a dead socket, as it does one not welcomed within `welcomeLimit` (a server that took
// the hello and never answered it, though other messages reach it: issue 37), reconnects with
// a jittered, growing backoff (reset by a `welcome`), and
// reloads the page once when the server speaks a newer protocol (upgrade.js). It knows
// nothing of what the messages mean: `hello()` and `ping()` make its two messages (the match
// sends its last version in both: the resync), `onMessage` gets every other parsed one, and
// `onState` hears its state ("connecting", "open", "reconnecting", "gone") with the reason as
// a code (`why` maps close codes to them; `stopOn` names the codes after which it stops).
//
// Time, the socket and the page come through `env` (the browser's by default), so that the
// tests drive it with a fake clock and a fake WebSocket (static/js/tests/socket.test.js).

import { isProtocolRefusal, reloadPageForNewProtocol } from "./upgrade.js";

// WebSocket.readyState, as the standard numbers them (0 is CONNECTING).
const OPEN = 1;

/** The browser's clock, sockets and page. */
export const BROWSER = {
  now: () => Date.now(),
  random: () => Math.random(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id),
  connect: (path) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return new WebSocket(`${scheme}://${location.host}${path}`);
  },
  onOnline: (fn) => window.addEventListener("online", fn),
  reloadForProtocol: reloadPageForNewProtocol,
};

export class ReconnectingSocket {
  constructor({ path, hello, ping, pingEvery, silentLimit, welcomeLimit = 20000, backoff,
    why = {}, stopOn = [], onMessage, onState, env = {} }) {
    this.path = path;
    this.hello = hello;
    this.ping = ping;
    this.pingEvery = pingEvery; // ms
    this.silentLimit = silentLimit; // ms without any message: the socket is dead, reconnect
    this.welcomeLimit = welcomeLimit; // ms from its opening without a welcome: the same
    this.openedAt = 0;
    this.backoff = backoff; // ms before each attempt in turn, the last repeated
    this.why = why; // close code: the reason's code for onState
    this.stopOn = stopOn; // close codes after which it never reconnects
    this.onMessage = onMessage;
    this.onState = onState;
    this.env = { ...BROWSER, ...env };
    this.ws = null;
    this.state = "connecting";
    this.attempt = 0; // since the last welcome
    this.reconnects = 0; // in all
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.stopped = false;
    this.greeted = false;
    this.env.onOnline(() => this._soon(0));
  }

  _set(state, detail = "") {
    this.state = state;
    this.onState(state, detail);
  }

  open() {
    const { env } = this;
    env.clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    let ws;
    try {
      ws = env.connect(this.path);
    } catch {
      this._retry("");
      return;
    }
    this.ws = ws;
    this.greeted = false;
    this._set(this.reconnects ? "reconnecting" : "connecting");
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = this.openedAt = env.now();
      this.send(this.hello());
      env.clearInterval(this.pinger);
      this.pinger = env.setInterval(() => this._tick(ws), this.pingEvery);
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = env.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (isProtocolRefusal(msg) && env.reloadForProtocol()) return;
      if (msg.type === "welcome") {
        this.greeted = true;
        this.attempt = 0;
        this._set("open");
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      env.clearInterval(this.pinger);
      this.ws = null;
      const why = this.why[e.code] || "";
      if (this.stopOn.includes(e.code)) {
        this.stopped = true;
        this._set("gone", why);
        return;
      }
      this._retry(why);
    };
    ws.onerror = () => {};
  }

  _tick(ws) {
    if (ws !== this.ws) return;
    const now = this.env.now();
    if (now - this.lastHeard > this.silentLimit ||
      (!this.greeted && now - this.openedAt > this.welcomeLimit)) {
      this.drop();
      return;
    }
    if (this.greeted) this.send(this.ping());
  }

  _retry(detail) {
    if (this.stopped) return;
    const base = this.backoff[Math.min(this.attempt, this.backoff.length - 1)];
    this.attempt += 1;
    this.reconnects += 1;
    const delay = base * (0.8 + 0.4 * this.env.random());
    this._set("reconnecting", detail);
    this._soon(delay);
  }

  _soon(delay) {
    if (this.stopped || (this.ws && this.ws.readyState <= OPEN)) return;
    this.env.clearTimeout(this.timer);
    this.timer = this.env.setTimeout(() => this.open(), delay);
  }

  /** Close the socket as if the network dropped it; it comes back by itself and resyncs. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this.env.clearInterval(this.pinger);
    try {
      ws.close();
    } catch {
      /* already closed */
    }
    this._retry("resync");
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  get ready() {
    return Boolean(this.greeted && this.ws && this.ws.readyState === OPEN);
  }
}
