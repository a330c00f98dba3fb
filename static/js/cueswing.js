// The cue at the strike, as a player's arm moves it: from where it stands at the address
// (drawn back with the power), back a little further, then through the cue ball, which moves
// only once the tip has reached it, and on through where the ball was before it is put away.
// The swing's times are the server's (page constants `cue_swing`: `back`, `through`,
// `follow`, seconds), which reckons the table still that much later (game/turns.py). Pure
// (tests/cueswing.test.js): the playback's time comes in.

/** The tip's distance behind the cue ball's surface at the address (mm), for `speed` (m/s):
 * the harder the stroke, the further back the cue stands. */
export function addressPull(speed) {
  return 12 + speed * 14;
}

/** How much further back the swing goes before it comes through (mm). */
export function backswing(speed) {
  return 30 + speed * 16;
}

/** How far past the cue ball's place the tip goes through (mm). */
export function followThrough(speed) {
  return 25 + speed * 12;
}

/** Seconds of a stroke's playback before its balls move. */
export function lead(swing) {
  return swing ? swing.back + swing.through : 0;
}

const easeOut = (x) => 1 - (1 - x) * (1 - x);
const easeIn = (x) => x * x;

/** The tip's distance behind the cue ball's first place (mm; negative: through it) at `t`
 * seconds into the stroke's playback (the balls move from `lead(swing)`), or null once the
 * cue is put away. */
export function cuePull(t, speed, swing) {
  if (!swing || t < 0) return addressPull(speed);
  const { back, through, follow } = swing;
  const address = addressPull(speed);
  const top = address + backswing(speed);
  if (t < back) return address + (top - address) * easeOut(t / back);
  if (t < back + through) return top * (1 - easeIn((t - back) / through));
  const after = t - back - through;
  if (after < follow) return -followThrough(speed) * easeOut(after / follow);
  return null;
}
