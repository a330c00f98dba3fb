// The power by a finger on a touch screen, as phone games set it: a press on the cue drawn
// behind the cue ball, then a drag back along it, pulls the cue back (harder) and a drag
// towards the ball lets it forward (softer). What the drag is worth is in the screen's pixels,
// so a phone's small table gives the finger the same room as a big one. Pure
// (tests/powerdrag.test.js).

import { addressPull } from "./cueswing.js";

// CSS px of a finger's pull that sweep the power from the slider's least to its most.
export const PULL_PX = 240;
// How near the cue drawn a press must be (CSS px either side of its line) to take it.
export const GRIP_PX = 22;
// The cue's length drawn (mm, aiming.js), and as far behind it as a press still takes it.
const CUE_LENGTH = 1450;

/** Whether a press at `p` (table mm) takes the cue drawn behind the cue ball at `cue`, aimed
 * along `angle` at `speed` (its tip `addressPull` behind the ball), the table drawn `scale`
 * CSS px to the mm; `R` the ball's radius. */
export function onCue(p, cue, angle, speed, R, scale) {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const rx = p[0] - cue[0];
  const ry = p[1] - cue[1];
  const behind = -(rx * dx + ry * dy); // mm behind the cue ball's centre, along the cue
  const aside = Math.abs(rx * -dy + ry * dx); // mm off the cue's line
  const tip = R + addressPull(speed);
  const grip = GRIP_PX / scale;
  return behind >= tip - grip && behind <= tip + CUE_LENGTH && aside <= grip;
}

/** The power after a drag from `from` to `to` (table mm) of a press that took the cue aimed
 * along `angle` when the power was `start` (m/s), the table drawn `scale` CSS px to the mm:
 * back along the cue raises it, towards the ball lowers it, within the stroke's limits
 * (`stroke`: min_speed, max_speed) to the slider's step (0.1 m/s). */
export function draggedPower(from, to, angle, start, scale, stroke) {
  const { min_speed: least, max_speed: most } = stroke;
  const pulled = -((to[0] - from[0]) * Math.cos(angle) + (to[1] - from[1]) * Math.sin(angle));
  const speed = start + ((pulled * scale) / PULL_PX) * (most - least);
  return Number(Math.min(most, Math.max(least, speed)).toFixed(1));
}
