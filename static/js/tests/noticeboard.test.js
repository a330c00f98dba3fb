// A member's challenges from their notices: what waits for them, what each notice means.

import assert from "node:assert/strict";
import { test } from "node:test";

import { NoticeBoard, answeredOnPage } from "../noticeboard.js";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const LATER = "2026-12-01T12:10:00Z";
const row = (fields) => ({
  id: 1, version: 1, kind: "direct", status: "open", challenger: "alice", target: "bob",
  expires: LATER, match: null, rematch_of: null, ...fields,
});

test("a challenge to me waits, is counted in the title, and is gone once answered", () => {
  const board = new NoticeBoard("bob");
  assert.equal(board.title("Snooker Club", NOW), "Snooker Club");
  assert.deepEqual(board.notice(row({})), { kind: "challenged", row: row({}), go: null });
  assert.equal(board.count(NOW), 1);
  assert.equal(board.title("Snooker Club", NOW), "(1) Snooker Club");
  board.notice(row({ id: 2, challenger: "carol" }));
  assert.equal(board.title("Snooker Club", NOW), "(2) Snooker Club");
  const declined = board.notice(row({ version: 2, status: "declined" }));
  assert.equal(declined.kind, "declined");
  assert.deepEqual(board.waitingFor(NOW).map((r) => r.id), [2]);
});

test("my own challenge accepted: go to its table", () => {
  const board = new NoticeBoard("alice");
  assert.equal(board.notice(row({})).kind, "sent");
  assert.deepEqual(board.sentBy(NOW).map((r) => r.id), [1]);
  const accepted = board.notice(row({ version: 2, status: "accepted", match: 7 }));
  assert.equal(accepted.kind, "accepted");
  assert.equal(accepted.go, 7);
  assert.deepEqual(board.sentBy(NOW), []);
  // Bob sees the same row as "taken", with nowhere to go (his acceptance took him there).
  const bob = new NoticeBoard("bob");
  assert.equal(bob.notice(row({ version: 2, status: "accepted", match: 7 })).go, null);
});

test("old news never turns the clock back", () => {
  const board = new NoticeBoard("bob");
  board.notice(row({ version: 2, status: "withdrawn" }));
  assert.equal(board.notice(row({ version: 1 })), null);
  assert.equal(board.count(NOW), 0);
  // A welcome older than what a notice told keeps the notice's word.
  board.welcome([row({ version: 1 })]);
  assert.equal(board.count(NOW), 0);
  // A welcome lists what waits; what it leaves out has gone.
  board.welcome([row({ id: 3, version: 1 })]);
  assert.deepEqual(board.waitingFor(NOW).map((r) => r.id), [3]);
});

test("a challenge past its time stops waiting, though no notice came yet", () => {
  const board = new NoticeBoard("bob");
  board.notice(row({ expires: "2026-12-01T11:59:59Z" }));
  assert.equal(board.count(NOW), 0);
});

test("a rematch of the match whose end the page shows is answered on the page", () => {
  const rematch = { id: 9, rematch_of: 12 };
  assert.equal(answeredOnPage(rematch, "12"), true);
  assert.equal(answeredOnPage(rematch, "13"), false);
  assert.equal(answeredOnPage(rematch, undefined), false); // no end panel here
  assert.equal(answeredOnPage({ id: 10, rematch_of: null }, "12"), false);
});

test("a welcome that lists my challenge accepted takes me to the table, once", () => {
  // The notice came while the page was between sockets: the welcome says it again.
  const board = new NoticeBoard("alice");
  board.notice(row({}));
  const accepted = row({ version: 2, status: "accepted", match: 7 });
  assert.deepEqual(board.welcome([accepted]), [{ kind: "accepted", row: accepted, go: 7 }]);
  assert.deepEqual(board.sentBy(NOW), []);
  assert.deepEqual(board.welcome([accepted]), []); // known now: the next welcome is no news
  // Another's accepted challenge (Bob accepted it himself) takes nobody anywhere.
  assert.deepEqual(new NoticeBoard("bob").welcome([accepted]), []);
  // Told by its notice first: the welcome after it is no news either.
  const told = new NoticeBoard("alice");
  told.notice(accepted);
  assert.deepEqual(told.welcome([accepted]), []);
});
