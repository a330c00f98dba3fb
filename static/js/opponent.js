// What the page holds of the striker's aim and the computer's thinking, as relayed to us, and
// when it is drawn. Pure (tests/opponent.test.js): no DOM, no clock.
//
// An aim (or the computer's "thinking") belongs to the position it was made at: its
// `version`, the event version the striker was looking at. It may arrive while this page is
// still playing back the stroke that made that position (the computer lines up as soon as
// its table is still on the server's clock, a moment before ours), so it is kept, and drawn
// once that position is on screen and nothing moves; a newer position drops it.

/** The held message for `msg` (an `aim` or `thinking`): its own version, or, from a server
 * that sent none, the newest event version received (`received`). */
export function held(msg, received) {
  const version = Number.isInteger(msg.version) ? msg.version : received;
  return { ...msg, version };
}

/** Whether `message` (held) is for a position older than the one shown: then it goes. */
export function stale(message, shown) {
  return Boolean(message && shown && message.version < shown.version);
}

/** `message` if it is for the position on screen and nothing moves; else null. */
export function forShown(message, shown, moving) {
  if (!message || !shown || moving) return null;
  return message.version === shown.version ? message : null;
}

/** The computer's "thinking", drawn while it is for the position shown, its seat is to act
 * and no aim of its has come for that position yet. */
export function thinkingShown(thinking, aim, shown, moving) {
  const now = forShown(thinking, shown, moving);
  if (!now || shown.scoreboard.to_act !== now.seat) return null;
  return forShown(aim, shown, moving) ? null : now;
}
