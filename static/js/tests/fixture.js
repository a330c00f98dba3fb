// The page constants the server renders (game/protocol/constants.py), as a file:
// tests/test_js_constants.py fails if it differs from `page_constants()`. Regenerate with
// `.venv/bin/python -m game.protocol.constants > static/js/tests/fixtures/constants.json`.

import { readFileSync } from "node:fs";

export const CONSTANTS = JSON.parse(
  readFileSync(new URL("./fixtures/constants.json", import.meta.url), "utf8"),
);
