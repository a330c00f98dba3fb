// The fine-aim strip (a vernier under the turn buttons, templates/match.html): the cue turns by
// a small fraction of the finger's travel along it, so that a touch screen aims as finely as a
// keyboard. A long pot's window (object ball 1 m from the pocket, cue ball 1 m behind it) is
// about 0.1° of cue angle; the strip's step is a tenth of that
// (static/js/tests/vernier.test.js measures it).

/** Degrees the cue turns for each CSS pixel the finger slides (1° over 100 px); an arrow key
 * on the strip turns it by as much. */
export const VERNIER = 0.01;

/** The turn (degrees, positive anticlockwise) for a slide of `dx` CSS pixels along the strip:
 * sliding right turns the cue clockwise, as the right-hand turn buttons do. */
export function vernierTurn(dx) {
  return -dx * VERNIER;
}
