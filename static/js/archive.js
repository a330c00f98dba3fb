// A finished match's page (templates/members/match_record.html): each frame's final position,
// drawn small with the live table's drawing (table.js) from the stored positions.

import { CONSTANTS } from "./constants.js";
import { TableView } from "./table.js";

const positions = JSON.parse(document.getElementById("final-positions").textContent);
const tables = [...document.querySelectorAll("canvas.mini-table[data-frame]")].map((canvas) => ({
  view: new TableView(canvas, CONSTANTS.table),
  balls: positions[canvas.dataset.frame] || {},
}));

function draw() {
  for (const { view, balls } of tables) {
    view.resize();
    view.draw(balls);
  }
}

window.addEventListener("resize", draw);
draw();
