// The protocol state machine, message by message (docs/protocol.md, "Reconnecting").

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { MatchClient } from "../client.js";

const snapshot = (version) => ({ version, frame: { balls: {} } });
const event = (version) => ({
  type: "event", version, kind: "stroke", snapshot: snapshot(version),
});
const players = { A: "alice", B: "bob" };
const welcome = (snap) => ({ type: "welcome", seat: "A", players, snapshot: snap });

let sent;
let drops;
let client;

beforeEach(() => {
  sent = [];
  drops = 0;
  let n = 0;
  client = new MatchClient({
    seat: null,
    players: { A: "?", B: "?" },
    send: (m) => sent.push(m),
    drop: () => (drops += 1),
    newId: () => `id-${++n}`,
  });
});

describe("welcome", () => {
  test("a snapshot is a new picture, then a ping asks for what follows", () => {
    const news = client.receive(welcome(snapshot(5)));
    assert.deepEqual(news, { snapshot: snapshot(5), first: true });
    assert.equal(client.version, 5);
    assert.equal(client.seat, "A");
    assert.deepEqual(client.players, { A: "alice", B: "bob" });
    assert.deepEqual(sent, [{ type: "ping", version: 5 }]);
    assert.equal(client.resyncing, true);
  });

  test("a later snapshot supersedes the queue and is not the first", () => {
    client.receive(welcome(snapshot(1)));
    client.receive(event(2));
    assert.equal(client.queue.length, 1);
    const news = client.receive(welcome(snapshot(9)));
    assert.equal(news.first, false);
    assert.deepEqual(client.queue, []);
    assert.equal(client.version, 9);
  });

  test("the same version again, or no snapshot, keeps the picture and the queue", () => {
    client.receive(welcome(snapshot(3)));
    client.receive(event(4));
    assert.deepEqual(client.receive(welcome(snapshot(4))), {});
    assert.deepEqual(client.receive(welcome(null)), {});
    assert.equal(client.queue.length, 1);
    assert.deepEqual(sent.at(-1), { type: "ping", version: 4 });
  });

  test("before any event the ping says version 0", () => {
    client.receive(welcome(null));
    assert.deepEqual(sent, [{ type: "ping", version: 0 }]);
  });
});

describe("events", () => {
  beforeEach(() => client.receive(welcome(snapshot(1))));

  test("are queued in order, each once", () => {
    for (const v of [2, 3, 3, 2, 4]) client.receive(event(v));
    assert.deepEqual(client.queue.map((e) => e.version), [2, 3, 4]);
    assert.equal(client.version, 4);
    assert.equal(client.next().version, 2);
    assert.deepEqual(client.queue.map((e) => e.version), [3, 4]);
  });

  test("a gap drops the socket and moves nothing", () => {
    client.receive(event(3));
    assert.equal(drops, 1);
    assert.equal(client.version, 1);
    assert.deepEqual(client.queue, []);
  });

  test("the first event of a fresh page is taken whatever its version", () => {
    const fresh = new MatchClient({ send() {}, drop: () => assert.fail("no drop"), newId() {} });
    fresh.receive(event(7));
    assert.equal(fresh.version, 7);
  });
});

describe("requests", () => {
  beforeEach(() => {
    client.receive(welcome(snapshot(1)));
    client.receive({ type: "pong", version: 1 });
    sent = [];
  });

  test("get a fresh client_id and stay pending until their ack", () => {
    const message = client.request({ type: "concede", scope: "frame" });
    assert.deepEqual(message, { type: "concede", scope: "frame", client_id: "id-1" });
    assert.deepEqual(sent, [message]);
    client.receive({ type: "ack", client_id: "someone-else", version: 2, duplicate: false });
    assert.notEqual(client.pending, null);
    client.receive({ type: "ack", client_id: "id-1", version: 2, duplicate: false });
    assert.equal(client.pending, null);
  });

  test("a refusal of this request ends it and is handed to the page", () => {
    client.request({ type: "stroke", version: 1 });
    const refusal = { type: "error", code: "stale_version", message: "m", client_id: "other" };
    const news = client.receive(refusal);
    assert.equal(news.error.code, "stale_version");
    assert.notEqual(client.pending, null);
    client.receive({ type: "error", code: "not_your_turn", message: "m", client_id: "id-1" });
    assert.equal(client.pending, null);
  });

  test("a refusal without a client_id leaves the request pending", () => {
    client.request({ type: "stroke", version: 1 });
    client.receive({ type: "error", code: "rate_limited", message: "m", client_id: null });
    assert.notEqual(client.pending, null);
  });

  test("an event past the request's version answers it, even without the ack", () => {
    client.request({ type: "stroke", version: 1 });
    client.receive(event(2));
    assert.equal(client.pending, null);
  });

  test("after a reconnect an unanswered request is sent again with the same id", () => {
    const message = client.request({ type: "stroke", version: 1 });
    client.receive(welcome(null)); // the socket came back; nothing was missed
    assert.notEqual(client.pending, null);
    sent = [];
    client.receive({ type: "pong", version: 1 });
    assert.deepEqual(sent, [message]);
    assert.equal(client.resyncing, false);
    client.receive({ type: "pong", version: 1 }); // an ordinary pong sends nothing
    assert.deepEqual(sent, [message]);
  });

  test("after a reconnect that brought events, the request is not sent again", () => {
    client.request({ type: "stroke", version: 1 });
    client.receive(welcome(snapshot(3)));
    sent = [];
    client.receive({ type: "pong", version: 3 });
    assert.deepEqual(sent, []);
    assert.equal(client.pending, null);
  });
});

test("presence is kept; other messages change nothing", () => {
  const presence = { type: "presence", players: {}, spectators: 2 };
  assert.deepEqual(client.receive(presence), {});
  assert.equal(client.presence, presence);
  assert.deepEqual(client.receive({ type: "aim", seat: "B" }), {});
  assert.equal(client.version, null);
});

test("a clock message keeps the deadline of the shot clock that started without an event", () => {
  const client = new MatchClient({ seat: "A", players, send: () => {}, drop: () => {}, newId: () => "x" });
  client.receive(welcome(snapshot(1)));
  assert.equal(client.clock, null);
  const deadline = "2026-12-01T12:00:30Z";
  assert.deepEqual(client.receive({ type: "clock", version: 1, deadline }), {});
  assert.deepEqual(client.clock, { version: 1, deadline });
  assert.equal(client.version, 1); // nothing to show: the snapshot stays
});

describe("the referee's log", () => {
  test("a frame's log is handed to the page; asking for one sends a request", () => {
    const log = { type: "log", frame: 2, breaker: "B", entries: [], omitted: 0 };
    assert.deepEqual(client.receive(log), { log });
    client.askLog(1);
    assert.deepEqual(sent, [{ type: "log", frame: 1 }]);
    assert.equal(client.version, null); // a log changes no version
  });
});
