// Power in a player's terms (power.js): the word from "touch" to "full" and the lengths of
// the table the cue ball would roll on its own, from the guide's model of the cloth.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Guide } from "../guide.js";
import { setLanguage } from "../i18n.js";
import { BANDS, powerScale, powerWords } from "../power.js";
import { CONSTANTS } from "./fixture.js";

const g = new Guide(CONSTANTS.table, CONSTANTS.physics);
const LENGTH = 2 * CONSTANTS.table.half_length;
const { slide_decel: fs, roll_decel: fr } = CONSTANTS.physics;
const { min_speed: MIN, max_speed: MAX } = CONSTANTS.stroke;

test("a centre-ball stroke rolls the physics' slide and roll: 12v²/49μs·g + (5v/7)²/2μr·g", () => {
  for (const speed of [0.5, 1, 3, 7]) {
    const v = speed * 1000;
    const want = (12 * v * v) / (49 * fs) + ((5 * v) / 7) ** 2 / (2 * fr);
    assert.ok(Math.abs(powerScale(g, speed).lengths * LENGTH - want) < 1e-6, String(speed));
  }
});

test("the words run from touch at the slider's slowest to full at its hardest, in order", () => {
  assert.equal(powerScale(g, MIN).word, "touch");
  assert.equal(powerScale(g, MAX).word, "full");
  const order = BANDS.map(([word]) => word);
  let last = -1;
  const seen = new Set();
  for (let speed = MIN; speed <= MAX; speed += 0.1) {
    const { word, lengths } = powerScale(g, speed);
    const at = order.indexOf(word);
    assert.ok(at >= last, `${speed}: ${word} after ${order[last]}`);
    last = at;
    seen.add(word);
    assert.ok(lengths > 0);
  }
  assert.deepEqual([...seen], order); // every word is reached by the slider
  assert.equal(powerScale(g, 3).word, "medium"); // the neutral stroke
});

test("screw makes the ball run less far, and keeps the power's word", () => {
  const centre = powerScale(g, 2);
  const screw = powerScale(g, 2, -0.4);
  assert.equal(screw.word, centre.word);
  assert.ok(screw.lengths < centre.lengths);
});

test("in words, English and Russian, with the lengths rounded as a player reads them", () => {
  assert.equal(powerWords({ word: "medium", lengths: 6.94 }),
    "medium pace · rolls 6.9 table lengths");
  assert.equal(powerWords({ word: "full", lengths: 73.4 }), "full power · rolls 73 table lengths");
  assert.equal(powerWords({ word: "touch", lengths: 1.02 }), "touch · rolls 1 table length");
  setLanguage("ru");
  try {
    assert.equal(powerWords({ word: "medium", lengths: 6.94 }),
      "средняя сила · прокатится на 6,9 длины стола");
    assert.equal(powerWords({ word: "hard", lengths: 21 }),
      "сильно · прокатится на 21 длину стола");
    assert.equal(powerWords({ word: "firm", lengths: 12 }), "плотно · прокатится на 12 длин стола");
  } finally {
    setLanguage("en");
  }
});
