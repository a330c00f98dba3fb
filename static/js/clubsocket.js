// The club's websocket (lobby or notices): hello, pings, reconnection with backoff. Knows
// nothing of what the messages mean; hands each parsed one to `onMessage`.

import { isProtocolRefusal, reloadPageForNewProtocol } from "./upgrade.js";

const PING_EVERY = 25000; // ms
const BACKOFF = [1000, 2000, 4000, 8000, 15000, 30000];

export class ClubSocket {
  constructor({ path, page, onMessage, onState }) {
    this.path = path;
    this.page = page; // the club-page block: protocol, close_codes
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.pinger = null;
    this.timer = null;
  }

  open() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", protocol: this.page.protocol }));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, PING_EVERY);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (isProtocolRefusal(msg) && reloadPageForNewProtocol()) return;
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.onState("open");
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      if (e.code === this.page.close_codes.signed_out) {
        this.stopped = true;
        this.onState("gone");
        return;
      }
      const delay = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)] * (0.8 + 0.4 * Math.random());
      this.attempt += 1;
      this.onState("reconnecting");
      this.timer = setTimeout(() => this.open(), delay);
    };
    ws.onerror = () => {};
  }
}

/** The club-page JSON block the server renders into the page (club/context.py). */
export function readPage() {
  const block = document.getElementById("club-page");
  return block ? JSON.parse(block.textContent) : null;
}
