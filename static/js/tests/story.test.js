// The story in words: the referee's calls from the ruling's fields (in English they are the
// server's own words; in Russian the rule book's), fouls with their clauses, results worded
// for people, the log entry of a live event as the server makes it, breaks, turns, spin and
// refused placements.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { playerName, setLanguage, t } from "../i18n.js";
import {
  Story, breaksOf, describe, entryOf, frameResult, matchResult, refereeCalls, refusalText,
  refusalWords, spinLabel, spokenEvent, turnOf,
} from "../story.js";

const players = { A: "alice", B: "bob" };
afterEach(() => setLanguage("en"));

const ruling = (fields) => ({
  foul: false, fouls: [], penalty: 0, miss: false, points: 0, nominated: null, respotted: {},
  choices: [], free_ball: false, touching: null, warning: false, frame_over: false,
  winner: null, respotted_black: false, calls: [], ...fields,
});

test("the calls come from the ruling's fields, in the referee's order and words", () => {
  const r = ruling({ foul: true, penalty: 5, miss: true, warning: true, free_ball: true,
    touching: "red3", calls: ["FOUL 5", "MISS", "WARNING: A THIRD MISS LOSES THE FRAME",
      "FREE BALL", "TOUCHING BALL"] });
  assert.deepEqual(refereeCalls(r), r.calls);
  const end = ruling({ respotted_black: true, frame_over: true,
    calls: ["RE-SPOTTED BLACK", "FRAME OVER"] });
  assert.deepEqual(refereeCalls(end), end.calls);
  assert.deepEqual(refereeCalls(null), []);
  setLanguage("ru");
  assert.deepEqual(refereeCalls(r), ["НАРУШЕНИЕ, ШТРАФ 5", "ПРОМАХ",
    "ПРЕДУПРЕЖДЕНИЕ: ТРЕТИЙ ПРОМАХ — ПАРТИЯ ПРОИГРАНА", "СВОБОДНЫЙ ШАР",
    "СОПРИКАСАЮЩИЕСЯ ШАРЫ"]);
});

test("a foul names its clause of the rule book", () => {
  const entry = {
    version: 3, kind: "stroke", seat: "B", request: {},
    ruling: ruling({ foul: true, penalty: 4, fouls: [{ kind: "push", clause: "§23.2.3" }] }),
    shot: { first_contact: ["red4"], potted: [] }, scores: { A: 4, B: 0 }, break: 0,
  };
  const words = describe(entry, players, { frame: 1 });
  assert.equal(words.head, "Foul by bob");
  assert.ok(words.details.includes("foul: a push stroke (§23.2.3)"));
  assert.ok(words.details.includes("penalty 4 to alice"));
  setLanguage("ru");
  const ru = describe(entry, players, { frame: 1 });
  assert.ok(ru.details.includes("нарушение: пропих (п. 23.2.3)"), ru.details.join(" | "));
  assert.ok(ru.details.includes("штраф 4 — очки получает alice"));
  assert.ok(ru.details.includes("первое касание: красный"));
});

test("results read as sentences, whoever is a he or a she", () => {
  const end = (termination, winner = "A") => ({ termination, winner });
  const scores = { A: 0, B: 35 };
  assert.equal(frameResult(2, end("potted_black", "B"), scores, players), "Frame 2 to bob, 35–0");
  assert.equal(frameResult(2, end("conceded"), scores, players),
    "Frame 2 to alice, 0–35: bob conceded");
  assert.equal(frameResult(2, end("claimed"), scores, players),
    "Frame 2 to alice, 0–35: claimed, bob had left the table");
  assert.equal(frameResult(2, end("three_misses"), scores, players),
    "Frame 2 to alice, 0–35: bob missed three times");
  assert.equal(matchResult(end("frames", "B"), { A: 1, B: 2 }, players), "bob wins the match 2–1");
  assert.equal(matchResult(end("conceded", "B"), { A: 1, B: 1 }, players),
    "bob wins the match, alice conceded: 1–1 in frames");
  assert.equal(matchResult(null, { A: 0, B: 0 }, players), "The match is over");
  setLanguage("ru");
  assert.equal(frameResult(1, end("conceded"), { A: 0, B: 0 }, players),
    "Партия 1: победитель — alice, 0–0; bob сдаёт партию");
});

test("a decision's options say what they do; nobody is a 'him'", () => {
  const entry = { version: 4, kind: "choice", seat: "A", request: { option: "put_back" },
    ruling: ruling({}), shot: null, scores: { A: 4, B: 0 }, break: 0 };
  assert.equal(describe(entry, players).head, "alice puts bob back in");
});

const snapshot = (fields = {}) => ({
  version: 5, status: "live", best_of: 3, result: null, frames: [],
  frame: { balls: {}, in_hand: false, free_ball: false, pending: null, striker: "A",
    scores: { A: 0, B: 0 }, opening: false },
  turn: { balls_on: [], nominate: [] },
  scoreboard: { scores: { A: 12, B: 4 }, frames: { A: 0, B: 0 }, frame_number: 1,
    striker: "A", to_act: "A", on: "red", break: 12 },
  ...fields,
});

test("a live event makes the entry the server keeps (the frame's own score and break)", () => {
  const before = snapshot();
  const event = {
    type: "event", version: 6, kind: "stroke", seat: "A", request: { speed: 2 },
    ruling: ruling({ points: 7, frame_over: true, winner: "A" }),
    shot: { first_contact: ["black"], potted: ["black"], trajectories: {}, events: [] },
    frame_end: { termination: "potted_black", winner: "A" }, match_end: null,
    snapshot: snapshot({
      version: 6,
      frames: [{ number: 1, breaker: "A", winner: "A", scores: { A: 67, B: 4 },
        termination: "potted_black" }],
      scoreboard: { ...before.scoreboard, scores: { A: 0, B: 0 }, frame_number: 2, break: 0 },
    }),
  };
  const entry = entryOf(event, before);
  assert.deepEqual(entry, {
    version: 6, kind: "stroke", seat: "A", request: { speed: 2 }, ruling: event.ruling,
    shot: { first_contact: ["black"], potted: ["black"] }, scores: { A: 67, B: 4 },
    break: 19, frame_end: event.frame_end, match_end: null,
  });
  const words = describe(entry, players, { frame: 1 });
  assert.equal(words.result, "Frame 1 to alice, 67–4");
  assert.ok(words.details.includes("7 points to alice (break 19)"));
});

test("the story: logs loaded, live entries added once, a new frame opened, gaps dropped", () => {
  const story = new Story();
  const entry = (version, more = {}) => ({ version, kind: "stroke", seat: "A", scores: {},
    break: 0, ...more });
  story.load({ frame: 1, breaker: "A", entries: [entry(1, { kind: "start" }), entry(2)],
    omitted: 0 });
  const before = snapshot({ version: 2 });
  const event = { version: 3, kind: "concede", seat: "B", request: { scope: "frame" },
    ruling: ruling({ frame_over: true }), shot: null,
    frame_end: { termination: "conceded", winner: "A" }, match_end: null,
    snapshot: snapshot({ version: 3,
      frames: [{ number: 1, winner: "A", scores: { A: 0, B: 0 } }],
      frame: { ...before.frame, striker: "B" },
      scoreboard: { ...before.scoreboard, frame_number: 2 } }) };
  story.add(event, before);
  story.add(event, before); // shown twice by mistake: kept once
  assert.deepEqual(story.frame(1).entries.map((e) => e.version), [1, 2, 3]);
  assert.deepEqual(story.frame(2), { number: 2, breaker: "B", entries: [], omitted: 0 });
  assert.ok(story.holds(1) && story.holds(2) && !story.holds(3));
  story.reset(); // frame 2 has no end yet: it may have gaps
  assert.ok(story.holds(1) && !story.holds(2));
});

test("breaks: each scoring visit once, with its last value", () => {
  const e = (seat, brk, kind = "stroke") => ({ seat, break: brk, kind });
  const entries = [e(null, 0, "start"), e("A", 1), e("A", 8), e("A", 0), e("B", 1), e("B", 7),
    e("A", 0, "choice"), e("B", 0), e("A", 1)];
  assert.deepEqual(breaksOf(entries), [
    { seat: "A", points: 8 }, { seat: "B", points: 7 }, { seat: "A", points: 1 },
  ]);
});

test("whose turn and what is on", () => {
  const snap = snapshot();
  assert.deepEqual(turnOf(snap, "A", players),
    { kind: "mine", text: "Your turn", on: "red on", hand: "" });
  assert.equal(turnOf(snap, "B", players).text, "alice to play");
  const free = snapshot({ frame: { ...snap.frame, free_ball: true, in_hand: true } });
  assert.equal(turnOf(free, null, players).on, "free ball (red on)");
  assert.equal(turnOf(free, null, players).hand, "ball in hand");
  // While the balls run it is nobody's turn, and the cue ball is no longer in hand.
  assert.deepEqual(turnOf(free, "A", players, true),
    { kind: "moving", text: "Balls running", on: "free ball (red on)", hand: "" });
  const pending = snapshot({ frame: { ...snap.frame,
    pending: { holder: "B", options: ["play"], offender: "A" } } });
  assert.equal(turnOf(pending, "B", players).kind, "decide");
  assert.equal(turnOf(pending, "A", players).text, "bob is deciding");
  setLanguage("ru");
  assert.equal(turnOf(snap, "A", players).on, "на очереди красный");
});

test("spin reads as top or screw and side, and placements say the real reason", () => {
  assert.equal(spinLabel(0, 0), "centre");
  assert.equal(spinLabel(-0.2, 0.3), "top 0.3, left 0.2");
  assert.equal(spinLabel(0.35, -0.1), "screw 0.1, right 0.35");
  assert.equal(refusalText({ code: "cue_ball_overlaps", ball: "brown" }), "it touches the brown");
  assert.equal(refusalText({ code: "cue_ball_overlaps", ball: "red7" }), "it touches a red");
  assert.equal(refusalText({ code: "cue_ball_outside_d" }), "outside the D");
  assert.equal(refusalText({ code: "cue_ball_outside_d", ball: "brown" }),
    "outside the D, and against the brown");
  setLanguage("ru");
  assert.equal(spinLabel(-0.2, 0.3), "накат 0,3, левый винт 0,2");
  assert.equal(refusalText({ code: "cue_ball_overlaps", ball: "brown" }),
    "он касается коричневого");
});

test("a stroke is read out once, in one sentence: the pots, the foul and penalty, the choice", () => {
  const event = (fields, snapshot = {}) => ({
    version: 5, kind: "stroke", seat: "B", request: {},
    shot: { first_contact: ["red4"], potted: ["red4", "white"] },
    snapshot: { scoreboard: { scores: { A: 4, B: 0 }, break: 0, frames: { A: 0, B: 0 } },
      frames: [], ...snapshot },
    ...fields,
  });
  const foul = event({ ruling: ruling({ foul: true, penalty: 4, miss: true,
    fouls: [{ kind: "in_off", clause: "§23.1.6" }], choices: ["play", "put_back"] }) });
  const said = spokenEvent(foul, null, players);
  assert.equal(said.split(". ").length, 1, said); // one sentence
  for (const part of ["Foul by bob", "potted: red", "the cue ball went in-off", "foul:",
    "(§23.1.6)", "penalty 4 to alice", "miss"]) {
    assert.ok(said.includes(part), `${part} in ${said}`);
  }
  assert.ok(said.includes("options: Play on"), said);
  // A frame's end: its result after the sentence, with the frame's score, not the new 0–0.
  const end = event({ ruling: ruling({ points: 7, frame_over: true }),
    shot: { first_contact: ["black"], potted: ["black"] }, frame_end: { termination:
      "potted_black", winner: "B" } }, { frames: [{ number: 1, scores: { A: 30, B: 67 },
    winner: "B", termination: "potted_black" }] });
  const over = spokenEvent(end, null, players);
  assert.ok(over.endsWith(frameResult(1, end.frame_end, { A: 30, B: 67 }, players)), over);
  assert.ok(!over.includes("0–0"), over);
  setLanguage("ru");
  assert.ok(spokenEvent(foul, null, players).includes("штраф 4 — очки получает alice"));
});

test("a refusal is shown in words, never as its code", () => {
  const error = { code: "not_your_turn", message: "Words from the server." };
  assert.equal(refusalWords(error), "Words from the server.");
  assert.equal(refusalWords({ code: "not_your_turn", message: "" }), "It is not your turn.");
  assert.equal(refusalWords({ code: "weird", message: "" }), "That was refused");
  setLanguage("ru");
  assert.equal(refusalWords({ code: "not_your_turn" }), "Сейчас не ваш удар.");
  assert.ok(!refusalWords({ code: "weird" }).includes("weird"));
});

test("a guest's name is marked in the page's language, in every sentence", () => {
  const guests = { A: "alice", B: "Боб (guest)" };
  assert.equal(playerName("Боб (guest)"), "Боб (guest)");
  assert.equal(playerName("alice"), "alice");
  setLanguage("ru");
  assert.equal(playerName("Боб (guest)"), "Боб (гость)");
  assert.equal(playerName("Боб (guest 12)"), "Боб 12 (гость)");
  assert.equal(playerName("alice"), "alice");
  assert.equal(t("turn.plays", { name: guests.B }), "Бьёт Боб (гость)");
  assert.equal(frameResult(1, { termination: "conceded", winner: "A" }, { A: 0, B: 0 }, guests),
    "Партия 1: победитель — alice, 0–0; Боб (гость) сдаёт партию");
});

test("a stroke's line says what happened, as a referee would: the pot, the safety, the foul", () => {
  setLanguage("en");
  const stroke = (shot, r = {}) => describe({ version: 4, kind: "stroke", seat: "A", request: {},
    ruling: ruling(r), shot, scores: { A: 1, B: 0 }, break: 1 }, players, { frame: 1 });
  const pot = stroke({ first_contact: ["red3"], potted: ["red3"] }, { points: 1 });
  assert.equal(pot.head, "alice pots the red");
  assert.ok(!pot.details.some((d) => d.startsWith("first contact")), pot.details.join(" | "));
  assert.equal(stroke({ first_contact: ["red3"], potted: [] }).head, "alice plays the red, nothing potted");
  const foul = stroke({ first_contact: [], potted: [] },
    { foul: true, penalty: 4, fouls: [{ kind: "no_contact", clause: "§23.1.1" }] });
  assert.equal(foul.head, "Foul by alice");
  setLanguage("ru");
  assert.equal(stroke({ first_contact: ["red3"], potted: ["red3"] }, { points: 1 }).head, "alice забивает: красный");
  assert.equal(stroke({ first_contact: ["red3"], potted: [] }).head, "alice играет красный, ничего не забито");
  setLanguage("en");
});
