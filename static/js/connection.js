// The match websocket (socket.js): its hello and ping carry the last event version applied
// (`versionOf()`), so a reconnected or silent socket is sent what it missed (the resync);
// its state goes to `onState` with the reason as a code (not_found, flood, full, moved,
// unavailable, resync), not words (panels.js words them: "connection.why.*"). `protocol` and `closeCodes` are the page constants' (constants.js).
// A page that holds no seat (`crowd`) opens the crowd's path, which a proxy may send to
// processes of their own (game/routing.py); the server answers both alike.

import { ReconnectingSocket } from "./socket.js";

const PING_EVERY = 5000; // ms
const SILENT_LIMIT = 16000; // ms: three pings unanswered
const BACKOFF = [500, 1000, 2000, 4000, 8000, 10000];

export class Connection extends ReconnectingSocket {
  constructor({ matchId, crowd = false, protocol, closeCodes, versionOf, onMessage, onState, env }) {
    super({
      path: crowd ? `/ws/watch/${matchId}/` : `/ws/match/${matchId}/`,
      hello: () => ({ type: "hello", protocol, last_version: versionOf() }),
      ping: () => ({ type: "ping", version: versionOf() || 0 }),
      pingEvery: PING_EVERY,
      silentLimit: SILENT_LIMIT,
      backoff: BACKOFF,
      // Why, as a code the page words (i18n.js "connection.why.*").
      why: { [closeCodes.not_found]: "not_found", [closeCodes.flood]: "flood",
        [closeCodes.full]: "full", [closeCodes.moved]: "moved",
        [closeCodes.unavailable]: "unavailable" },
      stopOn: [closeCodes.not_found],
      onMessage,
      onState,
      env,
    });
  }
}
