// The figures of the rules, the table and the protocol, as the server renders them into the
// page (game/protocol/constants.py, the `club-constants` block of templates/match.html). Read
// once; the browser writes none of them itself. Unit tests build the pure modules from the
// same figures (static/js/tests/fixtures/constants.json) instead of importing this one.

import { Geometry } from "./geometry.js";
import { Guide } from "./guide.js";

export const CONSTANTS = JSON.parse(document.getElementById("club-constants").textContent);
export const GEOMETRY = new Geometry(CONSTANTS.table);
export const GUIDE = new Guide(CONSTANTS.table, CONSTANTS.physics);
