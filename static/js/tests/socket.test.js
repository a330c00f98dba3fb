// The reconnecting socket (socket.js) as the match (connection.js) and the club (clubsocket.js)
// configure it, driven by a fake clock and fake websockets: hello and resync, pings, silence,
// backoff with jitter, the codes that stop it, the reload for a new protocol.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ClubSocket } from "../clubsocket.js";
import { Connection } from "../connection.js";
import { CONSTANTS } from "./fixture.js";
import { fakeEnv } from "./fakes.js";

const CODES = CONSTANTS.close_codes;
const CLUB_PAGE = { protocol: 7, close_codes: { ...CODES, signed_out: 4401 } };

function match({ version = 0, crowd = false, ...options } = {}) {
  const env = fakeEnv(options);
  const states = [];
  const messages = [];
  const at = { version };
  const conn = new Connection({
    matchId: 12,
    crowd,
    protocol: CONSTANTS.protocol,
    closeCodes: CODES,
    versionOf: () => at.version,
    onMessage: (m) => messages.push(m),
    onState: (state, detail) => states.push(detail ? `${state}:${detail}` : state),
    env,
  });
  return { env, conn, states, messages, at, clock: env.clock };
}

function club(options = {}) {
  const env = fakeEnv(options);
  const states = [];
  const messages = [];
  const socket = new ClubSocket({
    path: "/ws/lobby/",
    page: CLUB_PAGE,
    onMessage: (m) => messages.push(m),
    onState: (state, detail) => states.push(detail ? `${state}:${detail}` : state),
    env,
  });
  return { env, socket, states, messages, clock: env.clock };
}

/** Open, accept and greet the current socket. */
function greet(env) {
  env.last.accept();
  env.last.deliver({ type: "welcome" });
}

test("the match says hello with its last version and is open once welcomed", () => {
  const { env, conn, states, messages } = match({ version: 41 });
  conn.open();
  assert.equal(env.last.path, "/ws/match/12/");
  assert.deepEqual(states, ["connecting"]);
  assert.equal(conn.send({ type: "aim" }), false); // not open yet: nothing is sent
  env.last.accept();
  const hello = { type: "hello", protocol: CONSTANTS.protocol, last_version: 41 };
  assert.deepEqual(env.last.sent, [hello]);
  assert.equal(conn.ready, false);
  env.last.deliver({ type: "welcome", version: 41 });
  assert.deepEqual(states, ["connecting", "open"]);
  assert.deepEqual(messages, [{ type: "welcome", version: 41 }]);
  assert.equal(conn.ready, true);
  assert.equal(conn.send({ type: "aim" }), true);
});

test("a page that holds no seat opens the crowd's path", () => {
  const { env, conn } = match({ crowd: true });
  conn.open();
  assert.equal(env.last.path, "/ws/watch/12/");
});

test("the match pings every 5 s once greeted, with the version it has", () => {
  const { env, conn, clock, at } = match({ version: 3 });
  conn.open();
  env.last.accept();
  clock.advance(5000);
  assert.deepEqual(env.last.sent.map((m) => m.type), ["hello"]); // not greeted: no ping
  env.last.deliver({ type: "welcome" });
  at.version = 9;
  clock.advance(5000);
  assert.deepEqual(env.last.sent.slice(1), [{ type: "ping", version: 9 }]);
  at.version = null;
  clock.advance(5000);
  assert.deepEqual(env.last.sent.slice(2), [{ type: "ping", version: 0 }]);
});

test("answered pings keep the socket; a silence over 16 s drops it and it comes back", () => {
  const { env, conn, clock, states, at } = match({ version: 5 });
  conn.open();
  greet(env);
  for (let i = 0; i < 12; i++) {
    clock.advance(5000);
    env.last.deliver({ type: "pong" });
  }
  assert.equal(env.sockets.length, 1);
  const first = env.last;
  clock.advance(15000); // the last word was 15 s ago: still alive
  assert.equal(first.closed, false);
  clock.advance(5000);
  assert.equal(first.closed, true);
  assert.deepEqual(states.slice(-1), ["reconnecting:resync"]);
  assert.equal(conn.ready, false);
  at.version = 8;
  clock.advance(500); // the first backoff (jitter at its middle)
  assert.equal(env.sockets.length, 2);
  assert.deepEqual(states.slice(-1), ["reconnecting"]);
  env.last.accept();
  const hello = { type: "hello", protocol: CONSTANTS.protocol, last_version: 8 };
  assert.deepEqual(env.last.sent, [hello]); // the version it has now: the resync
  // The dropped socket's late messages and close are no longer heard.
  first.deliver({ type: "event" });
  first.drop();
  assert.equal(env.sockets.length, 2);
});

test("the backoff grows to its longest, with ±20% jitter, and a welcome resets it", () => {
  const delays = (random) => {
    const { env, conn, clock } = match({ random: () => random });
    conn.open();
    const waits = [];
    for (let i = 0; i < 8; i++) {
      env.last.drop();
      const before = env.sockets.length;
      let waited = 0;
      while (env.sockets.length === before) {
        clock.advance(10);
        waited += 10;
      }
      waits.push(waited);
    }
    return waits;
  };
  assert.deepEqual(delays(0.5), [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  assert.deepEqual(delays(0), [400, 800, 1600, 3200, 6400, 8000, 8000, 8000]);
  assert.deepEqual(delays(0.99999).slice(0, 2), [600, 1200]);

  const { env, conn, clock } = match();
  conn.open();
  for (let i = 0; i < 3; i++) {
    env.last.drop();
    clock.advance(5000);
  }
  greet(env);
  env.last.drop();
  clock.advance(499);
  const before = env.sockets.length;
  clock.advance(1);
  assert.equal(env.sockets.length, before + 1);
  assert.equal(conn.reconnects, 4);
});

test("an unknown match stops it for good; a flood or a full room says why and retries", () => {
  const gone = match();
  gone.conn.open();
  gone.env.last.drop(CODES.not_found);
  gone.clock.advance(60000);
  gone.env.online.forEach((fn) => fn());
  gone.clock.advance(60000);
  assert.equal(gone.env.sockets.length, 1);
  assert.deepEqual(gone.states, ["connecting", "gone:not_found"]);
  assert.equal(gone.clock.pending, 0);

  const { env, conn, clock, states } = match();
  conn.open();
  env.last.drop(CODES.flood);
  assert.deepEqual(states.slice(-1), ["reconnecting:flood"]);
  clock.advance(500);
  env.last.drop(CODES.full);
  assert.deepEqual(states.slice(-1), ["reconnecting:full"]);
  clock.advance(1000);
  assert.equal(env.sockets.length, 3);
});

test("a server briefly unavailable, or sending the page elsewhere, says why and retries", () => {
  const { env, conn, clock, states } = match();
  conn.open();
  greet(env);
  env.last.drop(CODES.unavailable); // the database or Redis away
  assert.deepEqual(states.slice(-1), ["reconnecting:unavailable"]);
  clock.advance(500);
  assert.equal(env.sockets.length, 2);
  greet(env);
  env.last.drop(CODES.moved); // a process holding more than its share
  assert.deepEqual(states.slice(-1), ["reconnecting:moved"]);
  clock.advance(500);
  assert.equal(env.sockets.length, 3);

  const lobby = club();
  lobby.socket.open();
  greet(lobby.env);
  lobby.env.last.drop(CODES.unavailable); // its relay could not join the lobby group
  assert.deepEqual(lobby.states.slice(-1), ["reconnecting:unavailable"]);
  lobby.clock.advance(1000);
  assert.equal(lobby.env.sockets.length, 2);
  lobby.env.last.drop(CODES.moved);
  assert.deepEqual(lobby.states.slice(-1), ["reconnecting:moved"]);
});

test("the network coming back reconnects at once, and never opens a second socket", () => {
  const { env, conn, clock } = match();
  conn.open();
  env.last.drop();
  env.online.forEach((fn) => fn());
  clock.advance(0);
  assert.equal(env.sockets.length, 2);
  env.online.forEach((fn) => fn()); // already connecting: nothing more
  clock.advance(60000);
  assert.equal(env.sockets.length, 2);
});

test("a newer protocol reloads the page; if it may not reload, the refusal is shown", () => {
  const { env, conn, messages } = match();
  conn.open();
  env.last.accept();
  const refusal = { type: "error", code: "protocol", message: "reload" };
  env.last.deliver(refusal);
  assert.equal(env.reloads, 1);
  assert.deepEqual(messages, []);
  env.mayReload = false; // it reloaded lately (upgrade.js)
  env.last.deliver(refusal);
  assert.deepEqual(messages, [refusal]);
  assert.equal(env.reloads, 1);
});

test("a socket the browser refuses to make is retried; text that is not JSON is ignored", () => {
  const { env, conn, clock, states, messages } = match({ refuse: true });
  conn.open();
  assert.deepEqual(states, ["reconnecting"]);
  env.refuse = false;
  clock.advance(500);
  assert.equal(env.sockets.length, 1);
  env.last.accept();
  env.last.deliver("not json");
  assert.deepEqual(messages, []);
});

test("drop() closes the socket as the network would; a resync follows", () => {
  const { env, conn, clock, states } = match();
  conn.open();
  greet(env);
  conn.drop();
  assert.equal(env.sockets[0].closed, true);
  assert.deepEqual(states.slice(-1), ["reconnecting:resync"]);
  conn.drop(); // no socket: nothing
  clock.advance(500);
  assert.equal(env.sockets.length, 2);
});

test("the club's socket says hello, pings every 25 s without a version", () => {
  const { env, socket, clock, states, messages } = club();
  socket.open();
  assert.equal(env.last.path, "/ws/lobby/");
  greet(env);
  assert.deepEqual(states, ["connecting", "open"]);
  assert.deepEqual(messages, [{ type: "welcome" }]);
  clock.advance(25000);
  assert.deepEqual(env.last.sent, [{ type: "hello", protocol: 7 }, { type: "ping" }]);
});

test("the club's socket notices silence: three pings unanswered and it reconnects", () => {
  const { env, socket, clock, states } = club();
  socket.open();
  greet(env);
  clock.advance(75000);
  assert.equal(env.sockets[0].closed, false);
  clock.advance(25000);
  assert.equal(env.sockets[0].closed, true);
  assert.deepEqual(states.slice(-1), ["reconnecting:resync"]);
  clock.advance(1000);
  assert.equal(env.sockets.length, 2);
});

test("the club's socket stops when the member signed out, and backs off to 30 s", () => {
  const out = club();
  out.socket.open();
  out.env.last.drop(4401);
  out.clock.advance(120000);
  assert.equal(out.env.sockets.length, 1);
  assert.deepEqual(out.states.slice(-1), ["gone:signed_out"]);

  const { env, socket, clock } = club();
  socket.open();
  for (let i = 0; i < 6; i++) {
    env.last.drop();
    clock.advance(30000);
  }
  env.last.drop();
  clock.advance(29999);
  assert.equal(env.sockets.length, 7);
  clock.advance(1);
  assert.equal(env.sockets.length, 8);
});

test("a socket never welcomed is dropped, even while other messages reach it", () => {
  // The lobby socket: its hello taken and never answered, the lobby's updates still
  // arriving, so the silence limit never tripped and the page said "reconnecting" for good.
  const { env, socket, clock, states } = club();
  socket.open();
  env.last.accept();
  const first = env.last;
  for (let i = 0; i < 4; i++) {
    clock.advance(5000);
    first.deliver({ type: "update" });
  }
  assert.equal(first.closed, false); // 20 s: still within the limit
  clock.advance(5000); // the first ping tick, 25 s after the hello: no welcome, dropped
  assert.equal(first.closed, true);
  assert.deepEqual(states.slice(-1), ["reconnecting:resync"]);
  clock.advance(1000);
  assert.equal(env.sockets.length, 2);
  greet(env);
  assert.equal(socket.ready, true);
  clock.advance(75000); // welcomed and quiet within the silence limit: kept
  assert.equal(env.last.closed, false);
});
