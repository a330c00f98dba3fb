// The figures of the rules, the table and the protocol, as the server renders them into the
// page (game/protocol/constants.py, the `club-constants` block of templates/match.html). Read
// once; the browser writes none of them itself. Only the pages' own modules (match.js,
// archive.js, replay_page.js) import this one and pass the figures to the modules they make
// (the table, the aim, the controls, the socket), so that the unit tests make those from the
// same figures (static/js/tests/fixtures/constants.json) without a page.

import { Geometry } from "./geometry.js";
import { Guide } from "./guide.js";

export const CONSTANTS = JSON.parse(document.getElementById("club-constants").textContent);
export const GEOMETRY = new Geometry(CONSTANTS.table);
export const GUIDE = new Guide(CONSTANTS.table, CONSTANTS.physics);
