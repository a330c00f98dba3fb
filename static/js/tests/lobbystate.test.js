// The lobby from its welcome and coalesced updates: each row at its newest version.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LobbyState } from "../lobbystate.js";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const match = (id, version, fields = {}) => ({
  id, version, status: "live", players: { A: "alice", B: "bob" }, practice: false, ...fields,
});
const open = (id, version, fields = {}) => ({
  id, version, kind: "open", status: "open", challenger: "carol", expires: "2026-12-01T12:30:00Z",
  ...fields,
});
const welcome = (fields) => ({ matches: [], my_matches: [], open: [], ...fields });

test("updates replace rows by version, and finished matches leave the live list", () => {
  const lobby = new LobbyState("alice");
  lobby.welcome(welcome({ matches: [match(1, 3), match(2, 1, { players: { A: "c", B: "d" } })] }));
  assert.deepEqual(lobby.live().map((m) => m.id), [2, 1]);
  assert.deepEqual(lobby.mine().map((m) => m.id), [1]);
  assert.equal(lobby.update({ matches: [match(1, 2, { status: "finished" })], challenges: [] }), 0);
  assert.deepEqual(lobby.live().map((m) => m.id), [2, 1]); // an older row changed nothing
  lobby.update({ matches: [match(1, 4, { status: "finished" }), match(5, 1)], challenges: [] });
  assert.deepEqual(lobby.live().map((m) => m.id), [5, 2]);
  assert.equal(lobby.updates, 2);
});

test("an abandoned match leaves the lists, and a live row at its version does not bring it back", () => {
  const lobby = new LobbyState("alice");
  lobby.welcome(welcome({ matches: [match(1, 1)], my_matches: [match(1, 1)] }));
  assert.deepEqual(lobby.mine().map((m) => m.id), [1]);
  lobby.update({ matches: [match(1, 1, { status: "abandoned" })], challenges: [] });
  assert.deepEqual(lobby.live(), []);
  assert.deepEqual(lobby.mine(), []);
  // An update read before the abandonment, arriving after it, changes nothing.
  assert.equal(lobby.update({ matches: [match(1, 1)], challenges: [] }), 0);
  lobby.welcome(welcome({ matches: [match(1, 1)] }));
  assert.deepEqual(lobby.live(), []);
});

test("a welcome is the whole picture, each row at the newest version known", () => {
  const lobby = new LobbyState("alice");
  lobby.update({ matches: [match(1, 5)], challenges: [open(9, 2, { status: "withdrawn" })] });
  lobby.welcome(welcome({ matches: [match(1, 4), match(3, 1)], open: [open(9, 1)] }));
  assert.equal(lobby.matches.get(1).version, 5);
  assert.deepEqual(lobby.open(NOW), []); // withdrawn, though the welcome read it open
  lobby.welcome(welcome({ matches: [match(3, 1)] }));
  assert.deepEqual(lobby.live().map((m) => m.id), [3]); // match 1 is no longer listed
});

test("open challenges: listed while open and not past their time; practice stays private", () => {
  const lobby = new LobbyState("alice");
  lobby.welcome(welcome({
    open: [open(1, 1), open(2, 1, { expires: "2026-12-01T11:00:00Z" })],
    my_matches: [match(4, 1, { practice: true, players: { A: "alice", B: "alice" } })],
  }));
  assert.deepEqual(lobby.open(NOW).map((c) => c.id), [1]);
  lobby.notice(open(7, 1, { challenger: "alice" }));
  lobby.notice({ ...open(8, 1), kind: "direct" }); // not the lobby's
  assert.deepEqual(lobby.open(NOW).map((c) => c.id), [7, 1]);
  assert.deepEqual(lobby.live(), []);
  assert.deepEqual(lobby.mine().map((m) => m.id), [4]);
});

test("a match seen to finish is counted, once, for the recent results to be read again", () => {
  const lobby = new LobbyState("carol");
  lobby.welcome(welcome({ matches: [match(1, 3), match(2, 1)] }));
  lobby.update({ matches: [match(1, 4)], challenges: [] });
  assert.equal(lobby.finished, 0);
  lobby.update({ matches: [match(1, 5, { status: "finished" })], challenges: [] });
  assert.equal(lobby.finished, 1);
  lobby.update({ matches: [match(1, 5, { status: "finished" })], challenges: [] }); // again
  lobby.update({ matches: [match(2, 1, { status: "abandoned" })], challenges: [] });
  assert.equal(lobby.finished, 1);
  // One the welcome never listed (it began and ended between two looks) counts too.
  lobby.update({ matches: [match(7, 9, { status: "finished" })], challenges: [] });
  assert.equal(lobby.finished, 2);
});

test("matches against the computer are counted apart, never listed as live", () => {
  const lobby = new LobbyState("alice");
  const computer = { players: { A: "alice", B: "computer-pro" }, computer: true };
  const others = { players: { A: "carol", B: "dan" } };
  lobby.welcome(welcome({ matches: [match(1, 1, others)], my_matches: [match(2, 1, computer)], computer_live: 24 }));
  assert.deepEqual(lobby.live().map((m) => m.id), [1]);
  assert.deepEqual(lobby.mine().map((m) => m.id), [2]); // her own, in her matches
  assert.equal(lobby.computerLive, 24);
  assert.equal(lobby.update({ matches: [], challenges: [], computer_live: 23 }), 1);
  assert.equal(lobby.computerLive, 23);
  assert.equal(lobby.update({ matches: [], challenges: [], computer_live: 23 }), 0);
});

test("who is online: the welcome's list, replaced by an update that says it changed", () => {
  const lobby = new LobbyState("alice");
  lobby.welcome(welcome({ online: ["alice", "bob", "carol"], online_count: 3 }));
  assert.deepEqual(lobby.others(), { names: ["bob", "carol"], more: 0 }); // not the viewer
  assert.equal(lobby.update({ matches: [], challenges: [], online: null }), 0); // unchanged
  assert.deepEqual(lobby.others().names, ["bob", "carol"]);
  assert.equal(lobby.update({ matches: [], challenges: [], online: ["alice"], online_count: 1 }), 1);
  assert.deepEqual(lobby.others(), { names: [], more: 0 });
});

test("the online list is capped, the rest counted", () => {
  const names = Array.from({ length: 200 }, (_, i) => `m${String(i).padStart(3, "0")}`);
  const lobby = new LobbyState("m001");
  lobby.welcome(welcome({ online: names, online_count: 250 }));
  const { names: shown, more } = lobby.others(50);
  assert.equal(shown.length, 50);
  assert.ok(!shown.includes("m001"));
  assert.equal(more, 250 - 1 - 50);
  const visitor = new LobbyState("");
  visitor.welcome(welcome({ online: ["bob"], online_count: 1 }));
  assert.deepEqual(visitor.others(), { names: ["bob"], more: 0 });
});
