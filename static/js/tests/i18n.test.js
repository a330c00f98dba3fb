// The match page's words: both catalogues hold every key, with the same placeholders and the
// plural forms their language needs; every key the page uses exists; and no visible string
// in the match page's modules bypasses t() (a heuristic scan of their string literals).

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { CATALOGUES, Translator, languageOf } from "../i18n.js";
import { CONSTANTS } from "./fixture.js";

const JS = new URL("../", import.meta.url);
const read = (name) => readFileSync(new URL(name, JS), "utf8");
const TEMPLATE = readFileSync(new URL("../../../templates/match.html", import.meta.url), "utf8");

// The modules of the match page (match.js and what it imports, transitively).
function matchModules() {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const [, dep] of read(name).matchAll(/^import[^"]*"\.\/([\w/]+\.js)"/gm)) visit(dep);
  };
  visit("match.js");
  return [...seen].filter((name) => !name.startsWith("lang/")).sort();
}

const FORMS = { en: ["one", "other"], ru: ["one", "few", "many", "other"] };
const placeholders = (text) => [...String(text).matchAll(/%\((\w+)\)s/g)].map((m) => m[1]).sort();
const texts = (entry) => (typeof entry === "object" ? Object.values(entry) : [entry]);

test("both languages hold every key, with the same placeholders and their plural forms", () => {
  const { en, ru } = CATALOGUES;
  assert.deepEqual(Object.keys(ru).sort(), Object.keys(en).sort(), "ru and en differ in keys");
  for (const [lang, catalogue] of Object.entries(CATALOGUES)) {
    for (const [key, entry] of Object.entries(catalogue)) {
      for (const text of texts(entry)) assert.ok(String(text).trim(), `${lang} ${key} is empty`);
      if (typeof entry === "object") {
        assert.deepEqual(Object.keys(entry).sort(), [...FORMS[lang]].sort(), `${lang} ${key}`);
      }
      const want = placeholders(texts(en[key])[texts(en[key]).length - 1]);
      for (const text of texts(entry)) {
        assert.deepEqual(placeholders(text), want, `${lang} ${key}: placeholders`);
      }
    }
  }
});

test("the Russian catalogue is Russian: no English word left in it", () => {
  // Keyboard keys are printed in Latin letters on Russian keyboards too.
  const keys = /\b(Enter|Alt|Shift|Page Up|Page Down|Up|Down)\b/g;
  for (const [key, entry] of Object.entries(CATALOGUES.ru)) {
    for (const text of texts(entry)) {
      const bare = String(text).replace(/%\(\w+\)s/g, "").replace(keys, "");
      assert.doesNotMatch(bare, /[A-Za-z]{2,}/, `ru ${key}: ${text}`);
    }
  }
});

test("every key the page uses is in the catalogue", () => {
  const { en } = CATALOGUES;
  const used = new Set();
  // clubtext.js speaks the club's catalogue (club/text.py), rendered by the server.
  for (const name of matchModules().filter((m) => m !== "clubtext.js")) {
    for (const [, key] of read(name).matchAll(/\bt\(\s*"([\w.]+)"/g)) used.add(key);
    for (const [, a, b] of read(name).matchAll(/\bt\(\s*\w[^"]*\?\s*"([\w.]+)"\s*:\s*"([\w.]+)"/g)) {
      used.add(a);
      used.add(b);
    }
  }
  for (const [, key] of TEMPLATE.matchAll(/data-i18n(?:-label|-title)?="([\w.]+)"/g)) used.add(key);
  // Keys made from a code or an id: every value they can take.
  const each = (prefix, names, suffix = "") => names.forEach((n) => used.add(`${prefix}${n}${suffix}`));
  const balls = ["white", "red", "yellow", "green", "brown", "blue", "pink", "black"];
  each("ball.name.", balls);
  each("ball.the.", balls);
  each("on.", ["red", "colour", ...balls.slice(2)]);
  const fouls = ["no_contact", "in_off", "free_ball_snooker", "pot_not_on", "wrong_ball_first",
    "push", "off_table", "jump", "two_balls_first", "no_nomination", "red_when_colour_on",
    "shot_clock"];
  each("foul.", fouls);
  const options = ["play", "put_back", "replace", "from_d", "rebreak", "pass", "toss_play"];
  each("option.", options);
  each("option.", options, ".text");
  each("log.choice.", options.slice(0, 6));
  each("log.", ["concede.frame", "concede.match", "claim.frame", "claim.match"]);
  each("result.frame.", ["balls", "conceded", "claimed", "three_misses", "foul_on_black"]);
  each("result.match.", ["frames", "conceded", "claimed"]);
  for (const c of ["concede_frame", "concede_match", "claim_frame", "claim_match"]) {
    each("confirm.", [c, `${c}.text`, `${c}.yes`]);
  }
  each("confirm.", ["claim_frame.stalling", "claim_match.stalling"]);
  each("connection.", ["connecting", "reconnecting", "open", "gone"]);
  each("connection.why.", ["not_found", "flood", "full", "resync"]);
  each("presence.", ["online", "away", "offline"]);
  each("hint.", ["place", "aim_hand", "aim"], "_touch");
  each("spin.", ["top", "screw", "left", "right"]);
  const missing = [...used].filter((key) => !Object.hasOwn(en, key)).sort();
  assert.deepEqual(missing, []);
});

test("plural forms and placeholders, in each language", () => {
  const en = new Translator("en-GB");
  const ru = new Translator("ru");
  assert.equal(en.t("scoreboard.watching", { n: 1 }), "1 watching");
  assert.equal(en.t("log.points", { n: 2, name: "alice", brk: 9 }), "2 points to alice (break 9)");
  assert.equal(ru.t("scoreboard.watching", { n: 1 }), "1 зритель");
  assert.equal(ru.t("scoreboard.watching", { n: 3 }), "3 зрителя");
  assert.equal(ru.t("scoreboard.watching", { n: 5 }), "5 зрителей");
  assert.equal(ru.t("scoreboard.watching", { n: 21 }), "21 зритель");
  assert.equal(ru.number(0.35), "0,35");
  assert.equal(en.t("no.such.key"), "no.such.key");
  assert.equal(languageOf("ru-RU"), "ru");
  assert.equal(languageOf("de"), "en");
  assert.equal(languageOf(""), "en");
});

// --- no visible string bypasses t() -------------------------------------------------------------

/** The string literals of a source file, comments skipped: {text, line, before}, a template
 * literal's text without its ${...} parts; `before` is the code just before the literal. */
export function literals(source) {
  const out = [];
  let i = 0;
  let line = 1;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === "\n") line++;
    if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      line += (source.slice(i, end).match(/\n/g) || []).length;
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      const start = i;
      let text = "";
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === "\\") {
          text += source[i + 1];
          i += 2;
          continue;
        }
        if (c === "`" && source[i] === "$" && source[i + 1] === "{") {
          let depth = 1;
          i += 2;
          while (i < n && depth) {
            if (source[i] === "{") depth++;
            if (source[i] === "}") depth--;
            i++;
          }
          text += " ";
          continue;
        }
        if (source[i] === "\n") line++;
        text += source[i];
        i++;
      }
      out.push({ text, line, before: source.slice(Math.max(0, start - 40), start) });
      i++;
      continue;
    }
    i++;
  }
  return out;
}

// Literals with spaces between words that are code, not words for people: (file, text, why).
const NOT_WORDS = [
  ["match.js", "(pointer: coarse)", "a media query"],
  ["phonefit.js", "(max-width: 700px) and (orientation: portrait)", "a media query"],
  ["aiming.js", "600 12px system-ui, sans-serif", "a canvas font"],
];

/** Why a literal looks like words shown to a person, or null. */
export function visible({ text, before }) {
  const letters = /[A-Za-zА-Яа-яЁё]/;
  if (/(className\s*=|classList\.\w+\()\s*$/.test(before)) return null; // CSS classes
  if (/(textContent|innerText|title|placeholder)\s*=\s*$/.test(before) && letters.test(text)) {
    return "assigned to visible text";
  }
  if (/(notice|confirm|announce|calls|setAttribute\("aria-[\w-]+",)\s*\(?\s*$/.test(before) &&
      letters.test(text)) {
    return "shown as a notice or label";
  }
  if (/[A-Za-zА-Яа-яЁё]{2,}[,.:;!?…]*\s+[A-Za-zА-Яа-яЁё]{2,}/.test(text)) return "words with spaces";
  return null;
}

test("the scan finds words written in code, and leaves code alone", () => {
  const found = (code) => literals(code).filter((l) => visible(l)).map((l) => l.text);
  assert.deepEqual(found('el.textContent = "Strike";'), ["Strike"]);
  assert.deepEqual(found("panels.notice(`Place the ${what} first`);"), ["Place the   first"]);
  assert.deepEqual(found('const x = "the ball hit first"; // a comment with "words in it"'),
    ["the ball hit first"]);
  assert.deepEqual(found('el.textContent = t("controls.strike");'), []);
  assert.deepEqual(found('box.querySelector(`[data-testid="${id}"]`); ctx.fillStyle = "rgba(0,0,0,0.3)";'), []);
  assert.deepEqual(found('li.className = "log-result final"; score.textContent = `${a}–${b}`;'),
    []);
  assert.deepEqual(found("b.textContent = `${n}°`; el.title = \"shot clock\";"), ["shot clock"]);
});

test("no visible string in the match page's modules bypasses t()", () => {
  const allowed = (name, text) => NOT_WORDS.some(([file, words]) => file === name && words === text);
  const found = [];
  const modules = matchModules();
  assert.ok(modules.includes("view.js") && modules.includes("story.js"), modules.join(" "));
  for (const name of modules) {
    for (const lit of literals(read(name))) {
      const why = visible(lit);
      if (why && !allowed(name, lit.text)) {
        found.push(`${name}:${lit.line}: ${JSON.stringify(lit.text)} (${why})`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test("every match module is scanned, and none is left out of the page", () => {
  const modules = matchModules();
  const files = readdirSync(JS).filter((f) => f.endsWith(".js"));
  for (const name of ["i18n.js", "story.js", "sound.js", "settings.js", "decision.js", "logpanel.js"]) {
    assert.ok(files.includes(name) && modules.includes(name), name);
  }
});

test("every close code the match page hears has its reason in words, in each language", () => {
  for (const reason of Object.keys(CONSTANTS.close_codes)) {
    for (const lang of ["en", "ru"]) {
      assert.ok(CATALOGUES[lang][`connection.why.${reason}`], `${lang} connection.why.${reason}`);
    }
  }
  const ru = new Translator("ru");
  assert.equal(ru.t("connection.banner_lost") + ` (${ru.t("connection.why.unavailable")})`,
    "Связь потеряна — переподключаемся… (сервер ненадолго недоступен)");
  assert.equal(new Translator("en").t("connection.why.moved"), "moving to a less busy server");
});
