// The aiming aids' words and verdicts beyond the guide's physics (guide.js): whether the first
// contact the guide shows would be a foul, from what the server says of the turn (its
// `turn.balls_on`, the frame's `free_ball`, the striker's nomination), never from rules of
// the page's own; and the match's guide (`full` or `short`, a setting of the match the server
// renders into the page). Pure: no DOM (tests/aids.test.js).

import { t } from "./i18n.js";
import { ballName, onName } from "./story.js";

/** The match's guide from the page's `data-guide` (game.models.Match.guide): full unless the
 * server says short. */
export function guideOf(value) {
  return value === "short" ? "short" : "full";
}

/** What the server says of the turn, for the ghost ball: {ballsOn, freeBall, on, nominated}
 * from a snapshot and the striker's nomination (null for a watcher or none). */
export function turnRules(snap, nominated = null) {
  if (!snap) return null;
  return {
    ballsOn: snap.turn.balls_on,
    freeBall: Boolean(snap.frame.free_ball),
    on: snap.scoreboard.on,
    nominated,
  };
}

/** Would a first contact with `target` be a foul? {ball, nominated?} if so, else null.
 * The balls on are the server's: any of them may be hit first, and with a free ball any ball
 * (the first hit is taken as nominated); a ball nominated is the one ball that may. No target
 * (the guide sees no contact) is no verdict: a miss is for the referee to call. */
export function firstContactFoul(target, rules) {
  if (!target || !rules) return null;
  if (rules.nominated) {
    if (target === rules.nominated) return null;
    // A free ball nominated, or the ball on: either may be hit first.
    if (rules.freeBall && rules.ballsOn.includes(target)) return null;
    return { ball: target, nominated: rules.nominated };
  }
  if (rules.freeBall || rules.ballsOn.includes(target)) return null;
  return { ball: target };
}

/** The foul in words, for the label by the ghost ball. */
export function foulWords(foul, rules) {
  const ball = ballName(foul.ball, "the");
  if (foul.nominated) {
    return t("aid.foul_nominated", { ball, nominated: ballName(foul.nominated, "name") });
  }
  return t("aid.foul", { ball, on: onName(rules.on) });
}
