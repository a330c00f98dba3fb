// The position editor's page and a saved position's page (templates/club/position_editor.html,
// position.html; docs/coach.md "The position editor"). The editor's state is position_editor.js;
// this module draws it, takes the mouse, the finger and the keys, and saves. Words come from
// the template and the catalogues (lang/en.js, ru.js).

import { CONSTANTS } from "./constants.js";
import { t, translatePage } from "./i18n.js";
import { PositionEditor, SHIFT_STEP_MM, STEP_MM, WHITE, ballsOf } from "./position_editor.js";
import { TableView } from "./table.js";

const FINGER_PX = 16;
const canvas = document.getElementById("table");
const tableView = new TableView(canvas, CONSTANTS.table);
const editorRoot = document.getElementById("position-editor");

/** "red 3", "the cue ball", "yellow": a ball as the list names it. */
function ballName(id) {
  if (id.startsWith("red")) return t("editor.red_n", { n: id.slice("red".length) });
  return t(`ball.name.${id}`);
}

function drawWith(balls, overlay) {
  tableView.resize();
  tableView.draw(balls, overlay);
}

if (editorRoot) {
  startEditor(editorRoot);
} else {
  // A saved position's page: the table drawn, nothing to move.
  const state = JSON.parse(document.getElementById("position-data").textContent);
  const balls = ballsOf(state);
  const draw = () => drawWith(balls);
  draw();
  window.addEventListener("resize", draw);
}

function startEditor(root) {
  translatePage(root);
  const data = JSON.parse(document.getElementById("editor-data").textContent);
  const $ = (id) => root.querySelector(`[data-testid="${id}"]`);
  const editor = new PositionEditor(CONSTANTS.table, ballsOf(data.start || data.rack));
  const R = CONSTANTS.table.ball_radius;

  function setFacts(state) {
    if (!state) return;
    $("on").value = state.on || "red";
    const striker = state.striker === "B" ? "B" : "A";
    $(striker === "A" ? "striker-a" : "striker-b").checked = true;
    const scores = state.scores || {};
    $("score-a").value = String(scores.A || 0);
    $("score-b").value = String(scores.B || 0);
    $("in-hand").checked = Boolean(state.in_hand);
  }
  setFacts(data.start || data.rack);

  const overlay = {
    over(ctx) {
      const at = editor.selected && editor.balls[editor.selected];
      if (!at) return;
      ctx.beginPath();
      ctx.arc(at[0], at[1], R * 1.6, 0, 2 * Math.PI);
      ctx.lineWidth = R / 3;
      ctx.strokeStyle = "rgba(255,255,255,0.9)";
      ctx.stroke();
    },
  };

  function fillList(select, ids, chosen) {
    select.replaceChildren(
      ...ids.map((id) => {
        const option = document.createElement("option");
        option.value = id;
        option.textContent = ballName(id);
        option.selected = id === chosen;
        return option;
      }),
    );
  }

  function say() {
    const id = editor.selected;
    const overlaps = editor.overlaps();
    let text = id
      ? t("editor.at", { ball: ballName(id), x: Math.round(editor.balls[id][0]), y: Math.round(editor.balls[id][1]) })
      : t("editor.none");
    if (overlaps.length) {
      const [a, b] = overlaps[0];
      text += ` ${t("editor.overlap", { a: ballName(a), b: ballName(b) })}`;
    }
    $("editor-status").textContent = text;
  }

  function render({ lists = true } = {}) {
    if (lists) {
      fillList($("ball-list"), editor.onTable(), editor.selected);
      fillList($("add-list"), editor.missing(), null);
    } else {
      $("ball-list").value = editor.selected || "";
    }
    $("remove-ball").disabled = !editor.selected;
    $("add-ball").disabled = editor.missing().length === 0;
    drawWith(editor.balls, overlay);
    say();
  }

  $("start-rack").addEventListener("click", () => {
    editor.load(ballsOf(data.rack));
    setFacts(data.rack);
    render();
  });
  $("start-empty").addEventListener("click", () => {
    editor.load({});
    render();
  });
  $("ball-list").addEventListener("change", () => {
    editor.select($("ball-list").value);
    render({ lists: false });
  });
  $("remove-ball").addEventListener("click", () => {
    editor.remove();
    render();
  });
  $("add-ball").addEventListener("click", () => {
    const id = $("add-list").value;
    if (id === WHITE) $("in-hand").checked = false;
    editor.add(id);
    render();
  });

  // The arrow keys move the selected ball on the screen's axes (the table lies across a wide
  // screen and stands up on a narrow one: TableView.screenOffset turns them round).
  canvas.addEventListener("keydown", (e) => {
    const dirs = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      editor.remove();
      render();
      return;
    }
    const dir = dirs[e.key];
    if (!dir || !editor.selected) return;
    e.preventDefault();
    const step = e.shiftKey ? SHIFT_STEP_MM : STEP_MM;
    const [dx, dy] = tableView.screenOffset(dir[0] * step, dir[1] * step);
    editor.nudge(dx, dy);
    render({ lists: false });
  });

  // A drag (mouse, finger or pen): pick up the ball under the pointer, or the selected ball
  // if the pointer is on the cloth, and drop it where the pointer leaves.
  let dragging = null;
  const point = (e) => {
    const rect = canvas.getBoundingClientRect();
    return tableView.toTable([e.clientX - rect.left, e.clientY - rect.top]);
  };
  canvas.addEventListener("pointerdown", (e) => {
    const p = point(e);
    // A finger's width (CSS px) reaches a ball drawn smaller than it.
    const id = editor.hit(p, FINGER_PX / tableView.scale) || editor.selected;
    if (!id) return;
    e.preventDefault();
    dragging = id;
    canvas.setPointerCapture(e.pointerId);
    canvas.focus();
    editor.place(id, p);
    render({ lists: false });
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!dragging) return;
    editor.place(dragging, point(e));
    render({ lists: false });
  });
  const drop = () => {
    dragging = null;
  };
  canvas.addEventListener("pointerup", drop);
  canvas.addEventListener("pointercancel", drop);
  window.addEventListener("resize", () => render({ lists: false }));

  $("save-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const facts = {
      on: $("on").value,
      striker: $("striker-b").checked ? "B" : "A",
      scores: [Number($("score-a").value) || 0, Number($("score-b").value) || 0],
      in_hand: $("in-hand").checked,
    };
    const body = JSON.stringify({ name: $("position-name").value, position: editor.payload(facts) });
    const token = root.querySelector("[name=csrfmiddlewaretoken]");
    $("save-error").hidden = true;
    $("save-done").hidden = true;
    let answer;
    let ok = false;
    try {
      const response = await fetch(data.save, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
        credentials: "same-origin",
      });
      ok = response.ok;
      answer = await response.json();
    } catch {
      answer = { message: t("editor.offline") };
    }
    if (ok) {
      const link = $("saved-link");
      link.href = answer.url;
      link.textContent = new URL(answer.url, location.href).href;
      $("save-done").hidden = false;
    } else {
      $("save-error").textContent = answer.message || t("editor.offline");
      $("save-error").dataset.code = answer.code || "";
      $("save-error").hidden = false;
    }
  });

  render();
  // The browser tests read the editor's state here (never written to).
  window.positionEditor = {
    balls: () => structuredClone(editor.balls),
    selected: () => editor.selected,
    toScreen: (p) => tableView.toScreen(p),
  };
}
