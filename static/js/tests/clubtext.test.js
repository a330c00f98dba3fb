// The club's words: placeholders filled, formats and rows worded as the server words them.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Words,
  challengeWho,
  connectionText,
  countdown,
  describeFormat,
  format,
  formatParts,
  handicapText,
  matchFigures,
  reminderText,
  competitionText,
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
  practice_table: "%(name)s's practice table",
  frames_score: "frames %(score)s",
  points_score: "points %(score)s",
  anyone: "anyone",
  invitation: "an invitation link",
  challenges_you: "%(name)s challenges you",
  offers_rematch: "%(name)s offers a rematch",
  you_challenge: "You challenge %(name)s",
  open_by: "Open challenge by %(name)s",
  watching: "%(n)s watching",
  break: "break %(n)s",
  reminder: "Your ladder match with %(name)s starts at %(time)s",
  live: "Live",
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  why_unavailable: "the server is briefly unavailable",
  why_moved: "moving to a less busy server",
  why_flood: "too many messages",
  why_full: "too many connections from here",
  handicap: "handicap",
  handicap_even: "handicap: no start",
  handicap_receives: "handicap: %(name)s receives %(n)s",
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

test("a handicap reads as the server's describe_handicap, on challenges and live rows", () => {
  const challenge = { best_of: 3, shot_clock: null, rated: false, challenger: "alice",
    target: "bob", handicap: true };
  assert.equal(describeFormat({ ...challenge, start: { A: 0, B: 28 } }, words),
    "best of 3 · friendly · handicap: bob receives 28");
  assert.equal(handicapText({ ...challenge, start: { A: 12, B: 0 } }, words),
    "handicap: alice receives 12");
  assert.equal(handicapText({ ...challenge, start: null }, words), "handicap");
  assert.equal(handicapText({ ...challenge, start: { A: 0, B: 0 } }, words),
    "handicap: no start");
  assert.equal(handicapText({ ...challenge, handicap: false, start: null }, words), "");
  const live = { players: { A: "alice", B: "bob" }, start: { A: 0, B: 0 } };
  assert.equal(handicapText(live, words), "");
  assert.equal(handicapText({ ...live, start: { A: 0, B: 9 } }, words), "handicap: bob receives 9");
  assert.equal(matchFigures({ ...live, best_of: 3, rated: true, frames: { A: 0, B: 0 },
    scores: { A: 0, B: 9 }, break: 0, watching: 0, start: { A: 0, B: 9 } }, words).format,
  "best of 3 · rated · handicap: bob receives 9");
  const ru = new Words({ handicap_receives: "фора: %(name)s получает %(n)s" });
  assert.equal(handicapText({ ...live, start: { A: 5, B: 0 } }, ru), "фора: alice получает 5");
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
    link: [{ name: "alice" }, " v ", { name: "bob" }], frames: "frames 1–0", scores: "points 24–8",
    break: "break 16",
    watching: "3 watching", format: "best of 3 · rated",
  });
  assert.equal(matchFigures({ ...row, break: 0 }, words).break, "");
  // A practice table: one member at both seats, named once.
  const practice = { ...row, players: { A: "alice", B: "alice" }, practice: true };
  assert.deepEqual(matchFigures(practice, words).link, [{ name: "alice" }, "'s practice table"]);
});

test("the players' names come apart from the words, to be drawn shortened when long", () => {
  assert.deepEqual(formatParts("%(name)s challenges you", { name: "alice" }), [
    { name: "alice" },
    " challenges you",
  ]);
  assert.deepEqual(formatParts("Вызов от %(name)s!", { name: "боб" }), ["Вызов от ", { name: "боб" }, "!"]);
  // Figures stay words; an unknown placeholder stays as written.
  assert.deepEqual(formatParts("%(n)s watching %(x)s", { n: 3 }), ["3", " watching %(x)s"]);
  const row = { kind: "direct", challenger: "alice", target: "bob" };
  assert.deepEqual(challengeWho(row, "incoming", words, "parts"), [
    { name: "alice" },
    " challenges you",
  ]);
  assert.deepEqual(challengeWho(row, "outgoing", words, "parts"), ["You challenge ", { name: "bob" }]);
  // A guest's name is worded first, then kept whole as one name.
  const guests = new Words({ ...words.catalog, guest_name: "%(name)s (guest)" });
  assert.deepEqual(guests.parts("versus", { a: "Gina (guest)", b: "bob" }), [
    { name: "Gina (guest)" },
    " v ",
    { name: "bob" },
  ]);
  assert.deepEqual(words.parts("no_such_key", {}), ["no_such_key"]);
});

test("countdowns", () => {
  assert.equal(countdown(545), "9:05");
  assert.equal(countdown(0.4), "0:00");
  assert.equal(countdown(-3), "0:00");
  assert.equal(countdown(3599), "59:59");
  assert.equal(countdown(3600), "1:00:00"); // a ladder challenge waits days: hours, not minutes
  assert.equal(countdown(2 * 86400 - 1), "47:59:59");
});

test("a ladder match's reminder names the opponent and the start in the viewer's zone, named", () => {
  const at = "2026-12-01T18:30:00Z";
  // The zone's short name is the ICU data's (GMT+3 or MSK, by version).
  assert.match(
    reminderText({ opponent: "bob", at }, words, "en", "Europe/Moscow"),
    /^Your ladder match with bob starts at 09:30 PM (GMT\+3|MSK)$/,
  );
  assert.equal(reminderText({ opponent: "bob", at }, words, "en-GB", "UTC"), "Your ladder match with bob starts at 18:30 UTC");
  const ru = new Words({ reminder: "Ваш матч лестницы с %(name)s начинается в %(time)s" });
  assert.match(
    reminderText({ opponent: "Борис", at }, ru, "ru", "Europe/Moscow"),
    /^Ваш матч лестницы с Борис начинается в 21:30 (GMT\+3|MSK)$/,
  );
  // Without the page's zone, the browser's, still named.
  assert.match(reminderText({ opponent: "bob", at }, words, "en"), /\d\d:30 (AM |PM )?\S+$/);
});

test("a guest's marker is worded by the catalogue; the name stays as it is", () => {
  const ru = new Words({ declined: "%(name)s отклонил(а) вызов", guest_name: "%(name)s (гость)" });
  assert.equal(ru.t("declined", { name: "Боб (guest)" }), "Боб (гость) отклонил(а) вызов");
  assert.equal(ru.t("declined", { name: "alice" }), "alice отклонил(а) вызов");
  assert.equal(shownName("Боб (guest 7)", "%(name)s (гость)"), "Боб 7 (гость)");
  assert.equal(shownName("Боб (guest)", undefined), "Боб (guest)");
  assert.equal(shownName("Боб (guestish)", "%(name)s (гость)"), "Боб (guestish)");
});

test("the lobby's connection says why it reconnects when the server said", () => {
  assert.equal(connectionText("open", "", words), "Live");
  assert.equal(connectionText("connecting", "", words), "Connecting…");
  assert.equal(connectionText("reconnecting", "", words), "Reconnecting…");
  assert.equal(connectionText("reconnecting", "unavailable", words),
    "Reconnecting… (the server is briefly unavailable)");
  assert.equal(connectionText("reconnecting", "moved", words),
    "Reconnecting… (moving to a less busy server)");
  assert.equal(connectionText("reconnecting", "resync", words), "Reconnecting…"); // its own
  assert.equal(connectionText("gone", "signed_out", words), "Reconnecting…");
  const ru = new Words({ reconnecting: "Переподключение…",
    why_unavailable: "сервер ненадолго недоступен" });
  assert.equal(connectionText("reconnecting", "unavailable", ru),
    "Переподключение… (сервер ненадолго недоступен)");
});

test("a competition's news for one of its players, in the page's language", () => {
  const catalog = new Words({
    competition_drawn: "%(competition)s is drawn",
    competition_opponent: "%(competition)s: your next match is against %(name)s",
    competition_proposed: "%(competition)s: %(by)s proposes to start your match at %(time)s",
    competition_proposed_mine: "%(competition)s: you propose to %(name)s to start your match at %(time)s",
    competition_through: "%(competition)s: you beat %(name)s and go through",
    competition_through_alone: "%(competition)s: you go through",
    competition_out: "%(competition)s: %(name)s beat you; you are out",
    competition_out_alone: "%(competition)s: you are out",
    competition_champion: "%(competition)s: you are the champion!",
  });
  const news = (fields) => ({ competition: 4, name: "Winter cup", name_ru: "Зимний кубок", ...fields });
  assert.equal(competitionText(news({ news: "drawn" }), catalog, "en"), "Winter cup is drawn");
  assert.equal(competitionText(news({ news: "drawn" }), catalog, "ru"), "Зимний кубок is drawn");
  assert.equal(
    competitionText(news({ news: "drawn", name_ru: "" }), catalog, "ru"), "Winter cup is drawn",
  );
  assert.equal(
    competitionText(news({ news: "opponent", opponent: "bob", match: 9 }), catalog, "en"),
    "Winter cup: your next match is against bob",
  );
  assert.equal(
    competitionText(news({ news: "through", opponent: "bob" }), catalog, "en"),
    "Winter cup: you beat bob and go through",
  );
  assert.equal(competitionText(news({ news: "through" }), catalog, "en"), "Winter cup: you go through");
  assert.equal(
    competitionText(news({ news: "out", opponent: "bob" }), catalog, "en"),
    "Winter cup: bob beat you; you are out",
  );
  assert.equal(competitionText(news({ news: "out" }), catalog, "en"), "Winter cup: you are out");
  assert.equal(
    competitionText(news({ news: "champion" }), catalog, "en"), "Winter cup: you are the champion!",
  );
  const at = "2026-12-07T18:30:00Z";
  const theirs = competitionText(
    news({ news: "proposed", opponent: "ann", by: "ann", at }), catalog, "en-GB", "UTC", "bob",
  );
  assert.match(theirs, /^Winter cup: ann proposes to start your match at 7 Dec, 18:30 UTC$/);
  const mine = competitionText(
    news({ news: "proposed", opponent: "bob", by: "ann", at }), catalog, "en-GB", "UTC", "ann",
  );
  assert.match(mine, /^Winter cup: you propose to bob to start your match at 7 Dec, 18:30 UTC$/);
});
