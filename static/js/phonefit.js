// A phone held upright: the table as tall as the screen leaves it once the scoreboard and the
// turn bar above and the stroke's controls below are in view, so that a player aims with the
// whole table, power, spin and Strike on one screen, the page unscrolled (the help, the
// concessions, the log and the settings lie below). The height goes to the CSS variable
// --table-height (static/css/match.css); elsewhere the layout is the stylesheet's alone.

export const UPRIGHT_PHONE = "(max-width: 700px) and (orientation: portrait)";
const AIR = 6; // px under the controls
const DEFAULT_BELOW = 118; // px: the stroke's controls on a 390 px phone, until measured

/** The table's height: what the screen leaves, never less than `least`. Pure. */
export function tableHeight({ viewport, above, below, least = 256 }) {
  return Math.max(least, Math.floor(viewport - above - below - AIR));
}

/** Keep the table's height fitted: on resizing, and when the controls change size. The
 * controls' height is kept from when they were last shown, so the table does not jump when
 * the turn passes; a spectator's page keeps no room for them. */
export function fitTable({ root, win = window, player }) {
  const wrap = root.querySelector(".table-wrap");
  const controls = root.querySelector('[data-testid="controls"]');
  const stroke = root.querySelector('[data-testid="stroke-controls"]');
  const upright = win.matchMedia(UPRIGHT_PHONE);
  let below = player ? DEFAULT_BELOW : 0;

  const fit = () => {
    if (!upright.matches) {
      wrap.style.removeProperty("--table-height");
      return;
    }
    if (player && !controls.hidden && stroke.offsetHeight) {
      // From the table's bottom edge to the stroke controls' bottom edge.
      below = stroke.getBoundingClientRect().bottom - wrap.getBoundingClientRect().bottom;
    }
    const above = wrap.getBoundingClientRect().top + win.scrollY;
    const height = tableHeight({ viewport: win.innerHeight, above, below });
    wrap.style.setProperty("--table-height", `${height}px`);
  };
  win.addEventListener("resize", fit);
  upright.addEventListener("change", fit);
  if (win.ResizeObserver) {
    // The scoreboard or the turn bar taking another line moves the table: fitted again.
    const watch = new win.ResizeObserver(fit);
    for (const part of [stroke, root.querySelector(".scoreboard"), root.querySelector(".turn")]) {
      watch.observe(part);
    }
  }
  fit();
  return fit;
}
