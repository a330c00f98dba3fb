// The hint at a practice table: the stroke the Pro would play from the position shown
// (POST /computer/hint/<match>/, docs/protocol.md "The hint"), drawn as its aim line with the
// cue ball's planned stop. It belongs to the position it was asked at and goes with it.

// Pure (tested with node --test); aiming.js draws it (`drawHint`).

import { t } from "./i18n.js";
import { powerText } from "./panels.js";
import { spinLabel } from "./story.js";

// The refusals the page words itself (lang/*.js "advice.<code>"); any other: "advice.failed".
const REFUSALS = new Set([
  "rate_limited", "no_stroke", "not_yours", "not_logged_in", "playing", "live_position",
]);

const finite = (x) => typeof x === "number" && Number.isFinite(x);
const point = (p) => Array.isArray(p) && p.length === 2 && p.every(finite);

/** The server's answer checked: a hint, or null if it is not one. */
export function parseHint(data) {
  if (!data || !Number.isInteger(data.version) || !data.aim) return null;
  const { angle, speed, side, height, cue_ball: cueBall } = data.aim;
  if (![angle, speed, side, height].every(finite)) return null;
  if (cueBall != null && !point(cueBall)) return null;
  return {
    version: data.version,
    seat: data.seat,
    kind: String(data.kind || ""),
    aim: { angle, speed, side, height, cue_ball: cueBall ?? null },
    leave: point(data.leave) ? data.leave : null,
  };
}

/** What the hint says: the kind of stroke, then its power and spin, in the controls' words. */
export function hintText(hint) {
  const { speed, side, height } = hint.aim;
  return `${t(`advice.kind.${hint.kind}`)} ${t("advice.stroke", {
    power: powerText(speed), spin: spinLabel(side, height),
  })}`;
}

/** The catalogue key for a refusal's code. */
export function refusalKey(code) {
  return REFUSALS.has(code) ? `advice.${code}` : "advice.failed";
}

/** Whether the hint is for the position shown (a stroke played since makes it stale). */
export function hintShown(hint, snap) {
  return Boolean(hint && snap && snap.status === "live" && snap.version === hint.version);
}

/** Where the hint's stroke starts: the cue ball as it lies, or where it places it in hand. */
export function hintCue(hint, balls) {
  return hint.aim.cue_ball || balls.white || null;
}

/** Ask the server (`post` as fetch: tests pass their own): {hint} or {code}. */
export async function askHint(url, csrf, post = fetch) {
  let response;
  try {
    response = await post(url, {
      method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf },
    });
  } catch {
    return { code: "offline" };
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) return { code: (body && body.code) || "failed" };
  const hint = parseHint(body);
  return hint ? { hint } : { code: "failed" };
}
