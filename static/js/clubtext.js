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

// The computer's users, one a level (computer/migrations/0001_initial.py): names no member
// can take, since those users hold them; game/text.py `player_name` words them the same.
const COMPUTER = /^computer-(novice|club|pro)$/;

/** The computer's level if `name` is one of its users ("computer-pro" → "pro"), else null. */
export function computerLevel(name) {
  const found = typeof name === "string" ? COMPUTER.exec(name) : null;
  return found ? found[1] : null;
}

/** A player's name as a person reads it: a guest's marker in words (`guest`: the catalogue's
 * "%(name)s (guest)"), the computer's as "Computer · Pro" (`computers`: its name by level);
 * any other name as it is. */
export function shownName(name, guest, computers = null) {
  const level = computers ? computerLevel(name) : null;
  if (level && computers[level]) return computers[level];
  const found = typeof name === "string" && guest ? GUEST.exec(name) : null;
  return found ? format(guest, { name: found[1] + (found[2] || "") }) : name;
}

/** The placeholders' values with every guest's and the computer's name worded (names are
 * ids elsewhere: only the words shown change). */
export function shownNames(params, guest, computers = null) {
  if (!params || (!guest && !computers)) return params;
  const out = {};
  for (const [key, value] of Object.entries(params)) out[key] = shownName(value, guest, computers);
  return out;
}

// The placeholders that hold a player's name (in "%(name)s challenges you", "%(a)s v %(b)s").
const NAME_KEYS = new Set(["name", "a", "b"]);

/** `format` in pieces, for a page to draw: text as strings, each player's name as `{ name }`
 * (drawn shortened when long: lobby.js `draw`, the `name` class of site.css). */
export function formatParts(template, params = {}) {
  const parts = [];
  let at = 0;
  for (const found of template.matchAll(/%\((\w+)\)s/g)) {
    const key = found[1];
    if (!(key in params)) continue;
    if (found.index > at) parts.push(template.slice(at, found.index));
    const value = String(params[key]);
    parts.push(NAME_KEYS.has(key) ? { name: value } : value);
    at = found.index + found[0].length;
  }
  if (at < template.length) parts.push(template.slice(at));
  return parts;
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
    return template === undefined ? key : format(
      template, shownNames(params, this.catalog.guest_name, this.catalog.computer_names),
    );
  }

  /** `t` in pieces, the players' names apart (`formatParts`). */
  parts(key, params) {
    let template = this.catalog[key];
    if (template !== null && typeof template === "object") {
      template = template[String(params && params.n)];
    }
    if (template === undefined) return [key];
    return formatParts(template, shownNames(params, this.catalog.guest_name) || {});
  }
}

/** "best of 3 · 30 s shot clock · rated" (and "short aim guide" when the challenge chose
 * it), as club.text.describe_format words it. */
export function describeFormat(row, words) {
  const parts = [words.t("best_of", { n: row.best_of })];
  if (row.shot_clock) parts.push(words.t("shot_clock", { n: row.shot_clock }));
  parts.push(words.t(row.rated ? "rated" : "friendly"));
  if (row.guide === "short") parts.push(words.t("short_guide"));
  const handicap = handicapText(row, words);
  if (handicap) parts.push(handicap);
  return parts.join(" · ");
}

/** A row's handicap, as club.text.describe_handicap words it: "handicap: bob receives 28"
 * from its `start` (a match row's players, or a challenge's challenger as A and target as
 * B); "handicap" when a challenge asked for one not worked out yet (`start` null),
 * "handicap: no start" when it came to none; "" for no handicap. */
export function handicapText(row, words) {
  const start = row.start;
  if (start && (start.A || start.B)) {
    const names = row.players || { A: row.challenger, B: row.target };
    const seat = start.A ? "A" : "B";
    return words.t("handicap_receives", { name: names[seat], n: start[seat] });
  }
  if (!row.handicap) return "";
  return words.t(start ? "handicap_even" : "handicap");
}

/** How a challenge reads in a list: `role` is incoming, outgoing or open. */
export function challengeWho(row, role, words, say = "t") {
  if (role === "incoming") {
    return words[say](row.kind === "rematch" ? "offers_rematch" : "challenges_you", {
      name: row.challenger,
    });
  }
  if (role === "outgoing") {
    const name = row.target || words.t(row.kind === "invitation" ? "invitation" : "anyone");
    return words[say]("you_challenge", { name });
  }
  return words[say]("open_by", { name: row.challenger });
}

/** "9:05" for 545 seconds, "47:59:59" for a ladder challenge's two days; "0:00" once past. */
// The lobby's connection states, and the reasons a close code gives (clubsocket.js), as the
// catalog's keys.
const STATES = { open: "live", reconnecting: "reconnecting", connecting: "connecting" };
const WHY = { unavailable: "why_unavailable", moved: "why_moved", flood: "why_flood",
  full: "why_full" };

/** The lobby's connection in words: "Live", "Connecting…", or "Reconnecting…" with the
 * reason in brackets when the server gave one ("the server is briefly unavailable" for a
 * socket it closed during an outage of the database or Redis). */
export function connectionText(state, why, words) {
  const key = STATES[state] || "reconnecting";
  const reason = key === "live" ? undefined : WHY[why];
  return reason ? `${words.t(key)} (${words.t(reason)})` : words.t(key);
}

export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

/** The figures of a match row as the lobby shows them, each named ("frames 1–0", "points
 * 24–8"); a practice table (one member plays both seats) by its owner's name. */
export function matchFigures(row, words) {
  return {
    link: row.practice
      ? words.parts("practice_table", { name: row.players.A })
      : words.parts("versus", { a: row.players.A, b: row.players.B }),
    frames: words.t("frames_score", { score: `${row.frames.A}–${row.frames.B}` }),
    scores: words.t("points_score", { score: `${row.scores.A}–${row.scores.B}` }),
    break: row.break ? words.t("break", { n: row.break }) : "",
    watching: words.t("watching", { n: row.watching }),
    format: describeFormat(row, words),
  };
}

/** A ladder match's reminder (`reminder` message): "Your ladder match with bob starts at
 * 18:30 MSK", the time in the page's language and the viewer's zone (the server's `zone` of
 * the page: the member's choice or the browser's; the browser's when not given), named. */
export function reminderText({ opponent, at }, words, lang, zone) {
  const time = new Date(at).toLocaleTimeString(lang, {
    hour: "2-digit", minute: "2-digit", timeZoneName: "short", ...(zone ? { timeZone: zone } : {}),
  });
  return words.t("reminder", { name: opponent, time });
}

/** A competition's news for one of its players (`competition_notice`): "Winter cup: your next
 * match is against bob", the competition named in the page's language (`name_ru` in Russian,
 * when given), a proposed start's time in the viewer's zone as a reminder's. */
export function competitionText(msg, words, lang, zone, me) {
  const competition = lang && lang.startsWith("ru") && msg.name_ru ? msg.name_ru : msg.name;
  const name = msg.opponent;
  if (msg.news === "drawn") return words.t("competition_drawn", { competition });
  if (msg.news === "opponent") return words.t("competition_opponent", { competition, name });
  if (msg.news === "champion") return words.t("competition_champion", { competition });
  if (msg.news === "through") {
    return name
      ? words.t("competition_through", { competition, name })
      : words.t("competition_through_alone", { competition });
  }
  if (msg.news === "out") {
    return name
      ? words.t("competition_out", { competition, name })
      : words.t("competition_out_alone", { competition });
  }
  const time = new Date(msg.at).toLocaleString(lang, {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
    ...(zone ? { timeZone: zone } : {}),
  });
  return msg.by === me
    ? words.t("competition_proposed_mine", { competition, name, time })
    : words.t("competition_proposed", { competition, by: msg.by, time });
}
