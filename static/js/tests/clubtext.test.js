// The club's words: placeholders filled, formats and rows worded as the server words them.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Words,
  challengeWho,
  countdown,
  describeFormat,
  format,
  matchFigures,
  reminderText,
  shownName,
} from "../clubtext.js";

// The English catalog as club/text.py makes it (the keys used here; tests/club/test_club_text.py
// holds every key the scripts use to the server's catalog).
const words = new Words({
  best_of: { 1: "best of 1", 3: "best of 3", 5: "best of 5" },
  shot_clock: "%(n)s s shot clock",
  rated: "rated",
  friendly: "friendly",
  versus: "%(a)s v %(b)s",
  anyone: "anyone",
  invitation: "an invitation link",
  challenges_you: "%(name)s challenges you",
  offers_rematch: "%(name)s offers a rematch",
  you_challenge: "You challenge %(name)s",
  open_by: "Open challenge by %(name)s",
  watching: "%(n)s watching",
  break: "break %(n)s",
  reminder: "Your ladder match with %(name)s starts at %(time)s",
});

test("placeholders are filled by name; unknown ones and unknown keys stay visible", () => {
  assert.equal(format("%(a)s v %(b)s", { a: "alice", b: "Борис" }), "alice v Борис");
  assert.equal(format("%(a)s and %(zz)s", { a: 1 }), "1 and %(zz)s");
  assert.equal(words.t("nope"), "nope");
});

test("a counted entry has one text per value", () => {
  const ru = new Words({ best_of: { 1: "из 1 партии", 3: "из 3 партий" } });
  assert.equal(ru.t("best_of", { n: 1 }), "из 1 партии");
  assert.equal(ru.t("best_of", { n: 3 }), "из 3 партий");
  assert.equal(ru.t("best_of", { n: 7 }), "best_of");
});

test("a format reads as the server's describe_format", () => {
  assert.equal(describeFormat({ best_of: 3, shot_clock: null, rated: false }, words),
    "best of 3 · friendly");
  assert.equal(describeFormat({ best_of: 5, shot_clock: 30, rated: true }, words),
    "best of 5 · 30 s shot clock · rated");
});

test("a challenge reads by who is looking", () => {
  const row = { kind: "direct", challenger: "alice", target: "bob" };
  assert.equal(challengeWho(row, "incoming", words), "alice challenges you");
  assert.equal(challengeWho(row, "outgoing", words), "You challenge bob");
  assert.equal(challengeWho({ ...row, kind: "rematch" }, "incoming", words),
    "alice offers a rematch");
  assert.equal(challengeWho({ kind: "open", challenger: "alice", target: null }, "outgoing", words),
    "You challenge anyone");
  assert.equal(
    challengeWho({ kind: "invitation", challenger: "alice", target: null }, "outgoing", words),
    "You challenge an invitation link",
  );
  assert.equal(challengeWho({ kind: "open", challenger: "carol" }, "open", words),
    "Open challenge by carol");
});

test("a match row's figures", () => {
  const row = {
    players: { A: "alice", B: "bob" }, frames: { A: 1, B: 0 }, scores: { A: 24, B: 8 },
    break: 16, watching: 3, best_of: 3, shot_clock: null, rated: true,
  };
  assert.deepEqual(matchFigures(row, words), {
    link: "alice v bob", frames: "1–0", scores: "24–8", break: "break 16",
    watching: "3 watching", format: "best of 3 · rated",
  });
  assert.equal(matchFigures({ ...row, break: 0 }, words).break, "");
});

test("countdowns", () => {
  assert.equal(countdown(545), "9:05");
  assert.equal(countdown(0.4), "0:00");
  assert.equal(countdown(-3), "0:00");
  assert.equal(countdown(3599), "59:59");
  assert.equal(countdown(3600), "1:00:00"); // a ladder challenge waits days: hours, not minutes
  assert.equal(countdown(2 * 86400 - 1), "47:59:59");
});

test("a ladder match's reminder names the opponent and the start, as the browser tells time", () => {
  const at = "2026-12-01T18:30:00Z";
  const time = new Date(at).toLocaleTimeString("en", { hour: "2-digit", minute: "2-digit" });
  const text = reminderText({ opponent: "bob", at }, words, "en");
  assert.equal(text, `Your ladder match with bob starts at ${time}`);
  assert.match(text, /\d\d:30/);
  const ru = new Words({ reminder: "Ваш матч лестницы с %(name)s начинается в %(time)s" });
  assert.match(reminderText({ opponent: "Борис", at }, ru, "ru"), /^Ваш матч лестницы с Борис начинается в \d\d:30$/);
});

test("a guest's marker is worded by the catalogue; the name stays as it is", () => {
  const ru = new Words({ declined: "%(name)s отклонил(а) вызов", guest_name: "%(name)s (гость)" });
  assert.equal(ru.t("declined", { name: "Боб (guest)" }), "Боб (гость) отклонил(а) вызов");
  assert.equal(ru.t("declined", { name: "alice" }), "alice отклонил(а) вызов");
  assert.equal(shownName("Боб (guest 7)", "%(name)s (гость)"), "Боб 7 (гость)");
  assert.equal(shownName("Боб (guest)", undefined), "Боб (guest)");
  assert.equal(shownName("Боб (guestish)", "%(name)s (гость)"), "Боб (guestish)");
});
