// The club's words in the browser: the server renders them, translated, into every page (the
// `text` of the `club-page` JSON block, club/text.py); this module only fills placeholders.
// Pure (tests/clubtext.test.js): no DOM.

/** "%(name)s challenges you" with {name: "alice"} → "alice challenges you". */
export function format(template, params = {}) {
  return template.replace(/%\((\w+)\)s/g, (whole, key) =>
    key in params ? String(params[key]) : whole,
  );
}

// A guest's user is "Name (guest)" ("Name (guest 12)" when that was taken: club/service.py),
// a marker no member's name carries; the word is the page's (game/text.py `player_name`).
const GUEST = /^(.+) \(guest( \d+)?\)$/;

/** A player's name as a person reads it: a guest's marker in words (`guest`: the catalogue's
 * "%(name)s (guest)"); any other name as it is. */
export function shownName(name, guest) {
  const found = typeof name === "string" && guest ? GUEST.exec(name) : null;
  return found ? format(guest, { name: found[1] + (found[2] || "") }) : name;
}

/** The placeholders' values with every guest's name worded (names are ids elsewhere: only
 * the words shown change). */
export function shownNames(params, guest) {
  if (!params || !guest) return params;
  const out = {};
  for (const [key, value] of Object.entries(params)) out[key] = shownName(value, guest);
  return out;
}

export class Words {
  constructor(catalog) {
    this.catalog = catalog || {};
  }

  /** A counted entry (an object: one text per value of `n`, as club/text.py sends
   * `best_of`) takes the text for `params.n`. */
  t(key, params) {
    let template = this.catalog[key];
    if (template !== null && typeof template === "object") {
      template = template[String(params && params.n)];
    }
    return template === undefined ? key : format(template, shownNames(params, this.catalog.guest_name));
  }
}

/** "best of 3 · 30 s shot clock · rated", as club.text.describe_format words it. */
export function describeFormat(row, words) {
  const parts = [words.t("best_of", { n: row.best_of })];
  if (row.shot_clock) parts.push(words.t("shot_clock", { n: row.shot_clock }));
  parts.push(words.t(row.rated ? "rated" : "friendly"));
  return parts.join(" · ");
}

/** How a challenge reads in a list: `role` is incoming, outgoing or open. */
export function challengeWho(row, role, words) {
  if (role === "incoming") {
    return words.t(row.kind === "rematch" ? "offers_rematch" : "challenges_you", {
      name: row.challenger,
    });
  }
  if (role === "outgoing") {
    const name = row.target || words.t(row.kind === "invitation" ? "invitation" : "anyone");
    return words.t("you_challenge", { name });
  }
  return words.t("open_by", { name: row.challenger });
}

/** "9:05" for 545 seconds, "47:59:59" for a ladder challenge's two days; "0:00" once past. */
export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

/** The figures of a match row as the lobby shows them. */
export function matchFigures(row, words) {
  return {
    link: words.t("versus", { a: row.players.A, b: row.players.B }),
    frames: `${row.frames.A}–${row.frames.B}`,
    scores: `${row.scores.A}–${row.scores.B}`,
    break: row.break ? words.t("break", { n: row.break }) : "",
    watching: words.t("watching", { n: row.watching }),
    format: describeFormat(row, words),
  };
}

/** A ladder match's reminder (`reminder` message): "Your ladder match with bob starts at
 * 18:30", the time in the page's language and the browser's time zone. */
export function reminderText({ opponent, at }, words, lang) {
  const time = new Date(at).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  return words.t("reminder", { name: opponent, time });
}
