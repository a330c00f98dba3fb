// What a player chooses for this browser, kept in localStorage: sound at the table (on by
// default, quiet, switched off in one tap by the turn bar's speaker), whether power and spin stay after a stroke (off: they go back to neutral) and the
// table's zoom. Pure but for the storage handed in (tests pass a Map-like object).

const KEY = "snooker.table";
export const DEFAULTS = Object.freeze({ sound: true, keepStroke: false, zoom: false });

export class Settings {
  constructor(storage) {
    this.storage = storage;
    this.values = { ...DEFAULTS };
    try {
      const saved = JSON.parse((storage && storage.getItem(KEY)) || "{}");
      for (const name of Object.keys(DEFAULTS)) {
        if (typeof saved[name] === "boolean") this.values[name] = saved[name];
      }
    } catch {
      /* nothing saved, or storage refused: the defaults */
    }
  }

  get(name) {
    return this.values[name];
  }

  set(name, value) {
    this.values[name] = Boolean(value);
    try {
      if (this.storage) this.storage.setItem(KEY, JSON.stringify(this.values));
    } catch {
      /* storage refused: kept for this page only */
    }
  }
}
