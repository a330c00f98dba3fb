// The table's zoom, beyond the whole-table view: a pinch (two fingers) or the wheel zooms about
// the point under them and pans with them; the zoom button frames the shot, the cue ball and
// the ball the cue is aimed at with some cloth around them, chosen when the cue ball comes to
// rest (not while the aim sweeps, which would move the table under the finger). Pure but for
// the table view it is given (table.js: toTable, toScreen, view, fit, the canvas's size).

export const MAX_ZOOM = 4;
const AROUND = 230; // mm of cloth kept around the cue ball and its target when framing

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

/** The zoom and focus that frame the segment from `cue` to `target` (table mm) in a view of
 * `width` × `height` CSS px whose whole-table scale is `fit` px/mm, `upright` or lying. */
export function frameShot(cue, target, { width, height, fit, upright }) {
  const to = target || cue;
  const across = Math.abs(to[0] - cue[0]) + 2 * AROUND; // table x
  const along = Math.abs(to[1] - cue[1]) + 2 * AROUND; // table y
  const [w, h] = upright ? [width, height] : [height, width]; // screen px across and along
  const zoom = clamp(Math.min(w / (across * fit), h / (along * fit)), 1, MAX_ZOOM);
  return { zoom, focus: [(cue[0] + to[0]) / 2, (cue[1] + to[1]) / 2] };
}

/** The zoom `factor` times the table view's, about the screen point `at` (CSS px in the
 * canvas): the table point under it stays under it. Returns {zoom, focus}, or null for the
 * whole table. */
export function zoomAbout(tableView, factor, at) {
  const zoom = clamp(tableView.zoom * factor, 1, MAX_ZOOM);
  if (zoom <= 1.01) return null;
  return { zoom, focus: keepUnder(tableView, zoom, tableView.toTable(at), at) };
}

/** The focus at which table point `p` lies at screen point `at` at this zoom. */
export function keepUnder(tableView, zoom, p, at) {
  const s = tableView.fit * zoom;
  const [dx, dy] = [at[0] - tableView.cssWidth / 2, at[1] - tableView.cssHeight / 2];
  // toScreen's inverse about the centre: upright x right, y up; lying y right, x down.
  return tableView.upright ? [p[0] - dx / s, p[1] + dy / s] : [p[0] - dy / s, p[1] - dx / s];
}

/** Two fingers: the distance between them and their midpoint. */
export function pinchOf(a, b) {
  return { span: Math.hypot(b[0] - a[0], b[1] - a[1]), mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
}

/** The zoom a pinch gives: `from` the pinch when it began (and the view then), `now` the
 * pinch now; the table point under the first midpoint follows the fingers' midpoint. */
export function pinchZoom(start, now) {
  const { view, pinch } = start;
  const zoom = clamp(view.zoom * (now.span / Math.max(1, pinch.span)), 1, MAX_ZOOM);
  if (zoom <= 1.01) return null;
  const geometry = { ...view, zoom };
  return { zoom, focus: keepUnder(geometry, zoom, view.under, now.mid) };
}
