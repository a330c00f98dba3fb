// The browser's zone is told to the server once, and again only when it changes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { zoneCookie } from "../zonecookie.js";

test("the zone is written when the cookie lacks it or says another", () => {
  assert.equal(zoneCookie("", "Europe/Moscow", false), "tz=Europe/Moscow; path=/; max-age=31536000; samesite=lax");
  assert.equal(zoneCookie("a=1; tz=UTC", "Etc/GMT+3", true), "tz=Etc/GMT+3; path=/; max-age=31536000; samesite=lax; secure");
});

test("nothing is written when the cookie already says it, or the browser names no zone", () => {
  assert.equal(zoneCookie("a=1; tz=Europe/Moscow", "Europe/Moscow", false), null);
  assert.equal(zoneCookie("", undefined, false), null);
  assert.equal(zoneCookie("", "Bad; zone", false), null);
});
