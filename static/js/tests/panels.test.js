// The figures the panels write: a countdown, the power with its unit in the page's language.
// (What results and turns say: tests/story.test.js.)

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../i18n.js";
import { clock, powerText, startText } from "../panels.js";

test("a countdown in minutes and seconds", () => {
  assert.equal(clock(65), "1:05");
  assert.equal(clock(9), "0:09");
});

test("the power with one decimal and its unit", () => {
  assert.equal(powerText(3), "3.0 m/s");
  setLanguage("ru");
  assert.equal(powerText(2.5), "2,5 м/с");
  setLanguage("en");
});

test("a handicap start beside the score, nothing without one", () => {
  assert.equal(startText(28), "+28 start");
  assert.equal(startText(0), "");
  assert.equal(startText(undefined), ""); // a snapshot stored before starts
  setLanguage("ru");
  assert.equal(startText(28), "фора +28");
  setLanguage("en");
});
