// The words of the match page, in the page's language. Every string the match page's scripts
// show comes from here: `t(key, params)` looks the key up in the catalogue of the language of
// `<html lang>` (static/js/lang/en.js, ru.js; English for any other), fills its `%(name)s`
// placeholders as Django's gettext does (clubtext.js `format`: one syntax for the club's
// server-rendered words and these), and picks a plural form by `params.n` with the
// language's own plural rules. The template's elements carry keys (`data-i18n`,
// `data-i18n-label` for aria-label, `data-i18n-title`) that `translatePage` fills.
//
// Pure apart from reading `<html lang>` once, when there is a document (node tests: English;
// `setLanguage` switches, for tests).

import { format, shownName, shownNames } from "./clubtext.js";
import en from "./lang/en.js";
import ru from "./lang/ru.js";

export const CATALOGUES = { en, ru };

/** "ru-RU" → "ru"; a language without a catalogue → "en". */
export function languageOf(tag) {
  const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(CATALOGUES, base) ? base : "en";
}

export class Translator {
  constructor(tag) {
    this.lang = languageOf(tag);
    this.catalogue = CATALOGUES[this.lang];
    this.plural = new Intl.PluralRules(this.lang);
  }

  /** The text for `key`, its placeholders filled; the key itself if no catalogue has it. */
  t(key, params = {}) {
    let entry = Object.hasOwn(this.catalogue, key) ? this.catalogue[key] : en[key];
    if (entry === undefined) return key;
    if (typeof entry === "object") {
      const form = this.plural.select(Number(params.n));
      entry = Object.hasOwn(entry, form) ? entry[form] : entry.other;
    }
    if (key.startsWith("player.")) return format(entry, params); // the names' own words
    return format(entry, shownNames(params, this.t("player.guest"), this.computers()));
  }

  /** The computer's name at each level: "Computer · Pro". */
  computers() {
    return Object.fromEntries(
      ["novice", "club", "pro"].map((level) => [level, this.t(`player.computer.${level}`)]),
    );
  }

  /** A number as this language writes it, with `digits` decimals at most (at least `min`). */
  number(value, digits = 2, min = 0) {
    return new Intl.NumberFormat(this.lang, {
      maximumFractionDigits: digits,
      minimumFractionDigits: min,
    }).format(value);
  }
}

let current = new Translator(
  typeof document !== "undefined" ? document.documentElement.lang : "en",
);

export function t(key, params) {
  return current.t(key, params);
}

/** A player's name as the page shows it (a guest's marker in words: "alice (гость)"). */
export function playerName(name) {
  return shownName(name, current.t("player.guest"), current.computers());
}

export function num(value, digits = 2, min = 0) {
  return current.number(value, digits, min);
}

export function language() {
  return current.lang;
}

/** Switch the language (the page never does; tests do). */
export function setLanguage(tag) {
  current = new Translator(tag);
  return current.lang;
}

/** Fill the template's words: text, aria-label and title, from their keys. */
export function translatePage(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}
