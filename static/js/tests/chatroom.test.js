// The match's chat rooms as the page holds them (chatroom.js).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  ChatRooms, LineHold, draftRefusal, lineWords, roomsRead, trimmed, voice, writes,
} from "../chatroom.js";
import { Translator } from "../i18n.js";

const CONSTANTS = JSON.parse(
  readFileSync(new URL("./fixtures/constants.json", import.meta.url), "utf8"),
);
const MAX = CONSTANTS.chat.max_length;
const line = (id, text, preset = null) => ({ id, author: "ann", text, preset, at: "2026-12-06T20:00:00Z" });

test("a player reads the players' room, and the spectators' only once the match is over", () => {
  assert.deepEqual(roomsRead("A", false), ["players"]);
  assert.deepEqual(roomsRead("B", true), ["players", "spectators"]);
  assert.deepEqual(roomsRead(null, false), ["spectators"]);
});

test("a spectator reads the players' room once the server sends it, and never writes there", () => {
  assert.deepEqual(roomsRead(null, false, true), ["spectators", "players"]);
  assert.deepEqual(roomsRead("A", false, true), ["players"]); // a player's rooms are as ever
  const rooms = new ChatRooms();
  assert.equal(rooms.has("players"), false);
  rooms.receive({ type: "lines", room: "players", lines: [] });
  assert.equal(rooms.has("players"), true);
  assert.equal(writes("players", null, false), false);
  rooms.forget("players"); // a welcome: shown again only if the server sends it again
  assert.equal(rooms.has("players"), false);
});

test("a spectator never writes in the players' room", () => {
  assert.equal(writes("players", null, false), false);
  assert.equal(writes("players", null, true), false);
  assert.equal(writes("spectators", null, false), true);
  assert.equal(writes("players", "A", false), true);
  assert.equal(writes("spectators", "A", false), false);
  assert.equal(writes("spectators", "A", true), true);
});

test("a guest says presets, a stranger nothing", () => {
  assert.equal(voice("member"), "member");
  assert.equal(voice("guest"), "guest");
  assert.equal(voice(""), "none");
});

test("a draft of the limit's characters after trimming goes, one more or only spaces do not", () => {
  assert.equal(trimmed("  good \n shot "), "good shot");
  assert.equal(draftRefusal(`  ${"x".repeat(MAX)}  `, MAX), null);
  assert.equal(draftRefusal("x".repeat(MAX + 1), MAX), "chat_too_long");
  assert.equal(draftRefusal(" \t ", MAX), "chat_empty");
  // Characters, not UTF-16 units: an emoji is one character.
  assert.equal(draftRefusal("🎱".repeat(MAX), MAX), null);
});

test("a preset line is said in the reader's language, a member's words as they are", () => {
  const en = new Translator("en");
  const ru = new Translator("ru");
  const tr = (tl) => (key, p) => tl.t(key, p);
  assert.equal(lineWords(line(1, "good_shot", "good_shot"), tr(en)), "Good shot");
  assert.equal(lineWords(line(1, "good_shot", "good_shot"), tr(ru)), "Хороший удар");
  assert.equal(lineWords(line(2, "<b>hi</b>"), tr(en)), "<b>hi</b>");
  // The server's masking (chat/words.py): `mild` for a reader who shows mild words.
  const masked = { ...line(3, "*** it"), mild: "damn it" };
  assert.equal(lineWords(masked, tr(en)), "*** it");
  assert.equal(lineWords(masked, tr(en), true), "damn it");
  assert.equal(lineWords(line(4, "*** sake"), tr(en), true), "*** sake"); // strong: no `mild`
  for (const key of CONSTANTS.chat.presets) {
    assert.notEqual(en.t(`chat.preset.${key}`), `chat.preset.${key}`);
    assert.notEqual(ru.t(`chat.preset.${key}`), `chat.preset.${key}`);
  }
});

test("lines after a welcome replace the room; a line is added once, in order", () => {
  const rooms = new ChatRooms(3);
  rooms.receive({ type: "line", room: "players", line: line(9, "stale") });
  assert.deepEqual(rooms.receive({ type: "lines", room: "players", lines: [line(1, "a"), line(2, "b")] }), {
    room: "players",
    line: null,
  });
  assert.deepEqual(rooms.lines("players").map((l) => l.text), ["a", "b"]);
  assert.equal(rooms.receive({ type: "line", room: "players", line: line(2, "b") }), null);
  rooms.receive({ type: "line", room: "players", line: line(4, "d") });
  rooms.receive({ type: "line", room: "players", line: line(3, "c") });
  assert.deepEqual(rooms.lines("players").map((l) => l.text), ["b", "c", "d"]); // at most 3
  assert.equal(rooms.receive({ type: "pong", version: 1 }), null);
  assert.deepEqual(rooms.lines("spectators"), []);
});

test("a moderator's deletion takes the lines away, in the room it names only", () => {
  const rooms = new ChatRooms();
  rooms.receive({ type: "lines", room: "lobby", lines: [line(1, "a"), line(2, "rude"), line(3, "c")] });
  rooms.receive({ type: "lines", room: "spectators", lines: [line(2, "other room")] });
  assert.deepEqual(rooms.receive({ type: "deleted", room: "lobby", ids: [2] }), { room: "lobby", line: null });
  assert.deepEqual(rooms.lines("lobby").map((l) => l.text), ["a", "c"]);
  assert.deepEqual(rooms.lines("spectators").map((l) => l.text), ["other room"]);
  assert.equal(rooms.receive({ type: "deleted", room: "lobby", ids: [2] }), null); // gone already
});

test("a troll's lines are struck from the room it names, everyone else's stay", () => {
  const rooms = new ChatRooms();
  const by = (id, author, text) => ({ ...line(id, text), author });
  rooms.receive({ type: "lines", room: "spectators", lines: [by(1, "ann", "a"), by(2, "dan", "spam"), by(3, "dan", "more")] });
  rooms.receive({ type: "lines", room: "players", lines: [by(4, "dan", "other room")] });
  assert.deepEqual(rooms.receive({ type: "struck", room: "spectators", author: "dan" }), {
    room: "spectators",
    line: null,
  });
  assert.deepEqual(rooms.lines("spectators").map((l) => l.text), ["a"]);
  assert.deepEqual(rooms.lines("players").map((l) => l.text), ["other room"]);
  assert.equal(rooms.receive({ type: "struck", room: "spectators", author: "dan" }), null);
});

test("the players' room shown to a spectator is named read only, in both languages", () => {
  for (const tag of ["en", "ru"]) {
    const tl = new Translator(tag);
    assert.notEqual(tl.t("chat.room.players_read_only"), tl.t("chat.room.players"));
    assert.notEqual(tl.t("chat.players_only"), "chat.players_only");
  }
});

test("the timeouts' words in both languages", () => {
  for (const tag of ["en", "ru"]) {
    const tl = new Translator(tag);
    assert.match(tl.t("chat.timed_out", { name: "ann", until: "21:15" }), /ann.*21:15/u);
    assert.match(tl.t("chat.timed_out_you", { until: "21:15", reason: "spam" }), /21:15: spam$/u);
    assert.notEqual(tl.t("chat.room.lobby"), "chat.room.lobby");
  }
});

// A `line` message: `author`'s line `id` in `room`.
const said = (id, author, room = "players") => ({
  type: "line", room, line: { ...line(id, `l${id}`), author },
});

test("another's lines wait while the balls run, then come in order; one's own at once", () => {
  const hold = new LineHold("bob");
  assert.deepEqual(hold.take(said(1, "ann")), [said(1, "ann")]); // nothing moving: at once
  assert.deepEqual(hold.move(true), []);
  assert.deepEqual(hold.take(said(2, "ann")), []);
  assert.deepEqual(hold.take(said(3, "bob")), [said(3, "bob")]); // his own
  assert.deepEqual(hold.take(said(4, "cat", "spectators")), []);
  const out = { type: "timed_out", room: "players", member: "cat", until: "2026-12-06T20:15:00Z" };
  assert.deepEqual(hold.take(out), [out]); // not a line: at once
  assert.deepEqual(hold.move(true), []); // still running
  assert.deepEqual(hold.move(false), [said(2, "ann"), said(4, "cat", "spectators")]);
  assert.deepEqual(hold.move(false), []); // each once
  assert.deepEqual(hold.take(said(5, "ann")), [said(5, "ann")]);
});

test("a held line deleted, or its room read again after a welcome, is not shown after", () => {
  const hold = new LineHold("bob");
  hold.move(true);
  const rooms = ["players", "players", "spectators", "spectators"];
  for (const [i, room] of rooms.entries()) assert.deepEqual(hold.take(said(i + 1, "ann", room)), []);
  const deleted = { type: "deleted", room: "players", ids: [1] };
  assert.deepEqual(hold.take(deleted), [deleted]);
  const history = { type: "lines", room: "spectators", lines: [line(3, "l3"), line(4, "l4")] };
  assert.deepEqual(hold.take(history), [history]);
  assert.deepEqual(hold.move(false), [said(2, "ann")]);
});
