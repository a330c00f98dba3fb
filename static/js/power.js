// Power in a player's terms: a word on a scale from "touch" to "full", and how far the cue
// ball would roll on its own (on an open cloth, nothing in its way, no cushion) in lengths of
// the table, from the aim guide's model of the strike and the cloth (guide.js `reach`: the
// server's figures). The words' bands are in those lengths, so that "medium" means the same
// run of the ball on any cloth the server describes. Pure: no DOM (tests/power.test.js).

import { num, t } from "./i18n.js";

// Each word up to the lengths of the table a centre-ball stroke would roll: a touch dies
// within half a table, a soft stroke within two, a medium one within eight (the page's
// neutral 3 m/s rolls about seven), firm within twenty, hard within forty; beyond is full.
export const BANDS = [
  ["touch", 0.5],
  ["soft", 2],
  ["medium", 8],
  ["firm", 20],
  ["hard", 40],
  ["full", Infinity],
];

/** {word, lengths}: the word for `speed` (m/s) and the lengths of the table the cue ball
 * would roll struck so, the tip at `height` (the word from a centre-ball strike, so that spin
 * does not rename the power). */
export function powerScale(guide, speed, height = 0) {
  const length = 2 * guide.table.half_length;
  const centre = guide.reach(speed) / length;
  const word = BANDS.find(([, upTo]) => centre < upTo)[0];
  return { word, lengths: guide.reach(speed, height) / length };
}

/** The scale in words: "medium pace · rolls 6.9 table lengths". Under ten lengths with one
 * decimal, then whole. */
export function powerWords({ word, lengths }) {
  const n = lengths < 10 ? Math.round(lengths * 10) / 10 : Math.round(lengths);
  return t("power.rolls", { word: t(`power.${word}`), v: num(n, 1), n });
}
