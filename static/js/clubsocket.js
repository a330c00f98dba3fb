// The club's websocket (lobby or notices), on socket.js: hello, a ping every 25 s, silence
// detection, reconnection with backoff; it stops for good when the member signed out. Knows
// nothing of what the messages mean; hands each parsed one to `onMessage`.

import { ReconnectingSocket } from "./socket.js";

const PING_EVERY = 25000; // ms
const SILENT_LIMIT = 80000; // ms: three pings unanswered
const BACKOFF = [1000, 2000, 4000, 8000, 15000, 30000];

export class ClubSocket extends ReconnectingSocket {
  /** `page`: the club-page block (readPage): its `protocol` and `close_codes`; `room`: the
   * page's chat room the notices socket carries (`{kind, key}`: a competition's or a
   * ladder's), named in every hello. */
  constructor({ path, page, onMessage, onState, env, room = null }) {
    const codes = page.close_codes;
    super({
      path,
      hello: () => ({ type: "hello", protocol: page.protocol, ...(room ? { room } : {}) }),
      ping: () => ({ type: "ping" }),
      pingEvery: PING_EVERY,
      silentLimit: SILENT_LIMIT,
      backoff: BACKOFF,
      // Why, as a code the page words (clubtext.js `connectionText`).
      why: { [codes.flood]: "flood", [codes.full]: "full", [codes.signed_out]: "signed_out",
        [codes.moved]: "moved", [codes.unavailable]: "unavailable" },
      stopOn: [codes.signed_out],
      onMessage,
      onState,
      env,
    });
  }
}

/** The club-page JSON block the server renders into the page (club/context.py). */
export function readPage() {
  const block = document.getElementById("club-page");
  return block ? JSON.parse(block.textContent) : null;
}
