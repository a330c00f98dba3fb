// The match websocket: hello/welcome, reconnection with backoff, pings, liveness.
//
// The connection knows nothing of snooker. It asks `versionOf()` for the last event version
// applied (sent in hello and ping), hands every parsed message to `onMessage` and tells its
// state to `onState` with the reason as a code (not_found, flood, full, resync), not words.

import { CONSTANTS } from "./constants.js";
import { isProtocolRefusal, reloadPageForNewProtocol } from "./upgrade.js";

const { protocol: PROTOCOL, close_codes: CLOSE } = CONSTANTS;
const PING_EVERY = 5000; // ms
const SILENT_LIMIT = 16000; // ms without any message: the socket is dead, reconnect
const BACKOFF = [500, 1000, 2000, 4000, 8000, 10000];

export class Connection {
  constructor({ matchId, versionOf, onMessage, onState }) {
    this.matchId = matchId;
    this.versionOf = versionOf;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.state = "connecting";
    this.attempt = 0;
    this.reconnects = 0;
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.stopped = false;
    this.greeted = false;
    window.addEventListener("online", () => this._soon(0));
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/match/${this.matchId}/`;
  }

  _set(state, detail = "") {
    this.state = state;
    this.onState(state, detail);
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this._retry("");
      return;
    }
    this.ws = ws;
    this.greeted = false;
    this._set(this.reconnects ? "reconnecting" : "connecting");
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.send({ type: "hello", protocol: PROTOCOL, last_version: this.versionOf() });
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this._tick(ws), PING_EVERY);
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (isProtocolRefusal(msg) && reloadPageForNewProtocol()) return;
      if (msg.type === "welcome") {
        this.greeted = true;
        this.attempt = 0;
        this._set("open");
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      // Why, as a code the page words (i18n.js "connection.why.*").
      if (e.code === CLOSE.not_found) {
        this.stopped = true;
        this._set("gone", "not_found");
        return;
      }
      const why = { [CLOSE.flood]: "flood", [CLOSE.full]: "full" };
      this._retry(why[e.code] || "");
    };
    ws.onerror = () => {};
  }

  _tick(ws) {
    if (ws !== this.ws) return;
    if (Date.now() - this.lastHeard > SILENT_LIMIT) {
      this.drop();
      return;
    }
    if (this.greeted) this.send({ type: "ping", version: this.versionOf() || 0 });
  }

  _retry(detail) {
    if (this.stopped) return;
    const base = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
    this.attempt += 1;
    this.reconnects += 1;
    const delay = base * (0.8 + 0.4 * Math.random());
    this._set("reconnecting", detail);
    this._soon(delay);
  }

  _soon(delay) {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Close the socket as if the network dropped it; the connection comes back by itself. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    clearInterval(this.pinger);
    try {
      ws.close();
    } catch {
      /* already closed */
    }
    this._retry("resync");
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  get ready() {
    return this.greeted && this.ws && this.ws.readyState === WebSocket.OPEN;
  }
}
