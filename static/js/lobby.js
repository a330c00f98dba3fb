// The lobby page: live over its websocket (/ws/lobby/), no reload. The welcome gives the whole
// picture; coalesced updates follow (matches, open challenges); the member's own challenges
// come as notices (notices.js). Rows are drawn from the page's <template>s, whose words the
// server translated; figures are filled in by clubtext.js. The lobby's chat room rides on the
// same socket (chatpanel.js, the match page's panel with one room; its words from i18n.js).

import { ChatPanel } from "./chatpanel.js";
import { ClubSocket, readPage } from "./clubsocket.js";
import {
  Words, challengeWho, connectionText, countdown, describeFormat, matchFigures,
} from "./clubtext.js";
import { translatePage } from "./i18n.js";
import { LobbyState } from "./lobbystate.js";
import { Notices, setSound, soundOn } from "./notices.js";

const root = document.getElementById("lobby");
const page = readPage();
const words = new Words(page.text);
const me = page.me;
const state = new LobbyState(me);
const notices = me ? new Notices({ page, words }) : null;
const $ = (id) => root.querySelector(`[data-testid="${id}"]`);
let connection = "connecting";
let socket = null;

// --- the lobby's chat room ----------------------------------------------------------------
const chatBox = $("chat");
translatePage(chatBox);
const chatEl = (id) => chatBox.querySelector(`[data-testid="${id}"]`);
const chat = new ChatPanel({
  el: chatEl,
  send: (message) => socket && socket.send(message),
  announce: (text) => {
    chatEl("chat-announce").textContent = text;
  },
  seat: null,
  kind: chatBox.dataset.chat,
  chat: JSON.parse(document.getElementById("chat-limits").textContent),
  me,
  rooms: ["lobby"],
  mild: chatBox.dataset.mild === "1",
});

/** A field's words: a string, or pieces with the players' names apart (clubtext.js
 * `formatParts`), each name drawn as the server's `player` filter draws it. */
function fill(el, field, text) {
  const target = el.querySelector(`[data-field="${field}"]`);
  if (target) target.replaceChildren(...(Array.isArray(text) ? text.map(draw) : [text]));
  return target;
}

/** A name in a `name` span (site.css: shortened when long, whole in its title and to screen
 * readers); text as it is. */
function draw(piece) {
  if (typeof piece === "string") return piece;
  const span = document.createElement("span");
  span.className = "name";
  span.title = piece.name;
  span.textContent = piece.name;
  return span;
}

function matchRow(row) {
  const el = document.getElementById("tpl-match").content.firstElementChild.cloneNode(true);
  el.dataset.id = String(row.id);
  el.classList.toggle("practice", row.practice);
  const figures = matchFigures(row, words);
  for (const [field, text] of Object.entries(figures)) fill(el, field, text);
  el.querySelector('[data-field="link"]').href = `/match/${row.id}/`;
  return el;
}

function challengeRow(row, role) {
  const el = document.getElementById("tpl-challenge").content.firstElementChild.cloneNode(true);
  el.dataset.id = String(row.id);
  el.dataset.kind = row.kind;
  const who = fill(el, "who", challengeWho(row, role, words, "parts"));
  who.href = `/challenges/${row.id}/`;
  fill(el, "format", describeFormat(row, words));
  el.querySelector('[data-field="expires"]').dataset.expires = row.expires;
  const show = {
    accept: role === "incoming" || (role === "open" && row.challenger !== me && Boolean(me)),
    decline: role === "incoming",
    withdraw: role === "outgoing" || (role === "open" && row.challenger === me),
  };
  for (const [action, visible] of Object.entries(show)) {
    const form = el.querySelector(`[data-action="${action}"]`);
    form.hidden = !visible;
    form.action = `/challenges/${row.id}/${action}/`;
    const next = form.querySelector('[name="next"]');
    if (next) next.value = location.pathname;
  }
  return el;
}

/** A member online: their name, and a Challenge link for a member viewing (not a guest, not a
 * visitor). */
function onlineRow(name) {
  const el = document.getElementById("tpl-online").content.firstElementChild.cloneNode(true);
  const shown = el.querySelector('[data-field="name"]');
  shown.textContent = name;
  shown.title = name;
  const challenge = el.querySelector('[data-field="challenge"]');
  const to = $("online").dataset.challenge;
  if (to) {
    challenge.hidden = false;
    challenge.href = `${to}?${new URLSearchParams({ opponent: name })}`;
    challenge.setAttribute("aria-label", words.t("challenge_name", { name }));
  }
  return el;
}

/** A list drawn again only when its rows changed: a redraw for another list's sake (someone
 * came online) would take the keyboard's focus off an Accept button, or the text being
 * selected. */
function list(id, rows, make) {
  const ul = $(id);
  if (!ul) return;
  const drawn = JSON.stringify(rows);
  if (ul.dataset.drawn === drawn) return;
  ul.dataset.drawn = drawn;
  ul.replaceChildren(...rows.map(make));
  const empty = root.querySelector(`[data-empty="${id}"]`);
  if (empty) empty.hidden = rows.length > 0;
}

function render() {
  const now = Date.now();
  list("live-matches", state.live(), matchRow);
  const computers = root.querySelector('[data-testid="computer-live"]');
  if (computers) {
    computers.hidden = state.computerLive === 0;
    computers.textContent = words.t("computer_live", { n: state.computerLive });
  }
  const online = state.others();
  list("online", online.names, onlineRow);
  const more = $("online-more");
  more.hidden = online.more === 0;
  more.textContent = words.t("online_more", { n: online.more });
  list("open-challenges", state.open(now), (r) => challengeRow(r, "open"));
  if (me) {
    list("my-matches", state.mine(), matchRow);
    list("incoming", notices.board.waitingFor(now), (r) => challengeRow(r, "incoming"));
    list("outgoing", notices.board.sentBy(now), (r) => challengeRow(r, "outgoing"));
  }
  ticking();
}

/** The countdowns of waiting challenges; a challenge past its time leaves the lists. */
function ticking() {
  const now = Date.now();
  let gone = false;
  for (const el of root.querySelectorAll("[data-expires]")) {
    const left = (Date.parse(el.dataset.expires) - now) / 1000;
    if (!el.dataset.expires) continue;
    if (left <= 0) gone = true;
    el.textContent = words.t("expires_in", { time: countdown(left) });
  }
  return gone;
}

// --- the recent results: rendered by the server, read again when a match is seen to end ---
let recentReads = 0;
let reading = Promise.resolve();
let welcomed = false;

function readRecent() {
  // One read at a time, in order: the last to land is the newest.
  reading = reading.then(async () => {
    try {
      const answer = await fetch(root.dataset.recent, { credentials: "same-origin" });
      if (answer.status !== 200) return;
      const box = document.createElement("template");
      box.innerHTML = await answer.text();
      const fresh = box.content.querySelector('[data-testid="recent-matches"]');
      const shown = $("recent-matches");
      if (fresh && shown) shown.replaceWith(fresh);
      recentReads += 1;
    } catch {
      /* offline: the next finish, or welcome, reads them again */
    }
  });
}

function receive(msg) {
  if (["line", "lines", "deleted", "struck", "timed_out"].includes(msg.type)) {
    chat.receive(msg);
    return;
  }
  if (msg.type === "error" && String(msg.code).startsWith("chat_")) {
    chat.refused(msg.message, msg.code);
    return;
  }
  if (notices) notices.handle(msg);
  const finished = state.finished;
  if (msg.type === "welcome") {
    state.welcome(msg);
    if (welcomed) readRecent(); // back after a break: a match may have ended meanwhile
    welcomed = true;
  } else if (msg.type === "update") {
    state.update(msg);
    if (state.finished !== finished) readRecent();
  } else if (msg.type === "notice") {
    state.notice(msg.challenge);
  } else {
    return;
  }
  render();
}

function setConnection(stateName, why) {
  connection = stateName;
  const el = $("lobby-connection");
  el.dataset.state = stateName;
  el.textContent = connectionText(stateName, why, words);
}

// --- the member's alerts: sound and desktop notifications -----------------------------------
const sound = $("sound");
if (sound) {
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
}
const allow = $("allow-notifications");
if (allow && "Notification" in window && Notification.permission === "default") {
  allow.hidden = false;
  allow.addEventListener("click", async () => {
    await Notification.requestPermission();
    allow.hidden = Notification.permission !== "default";
  });
}

// --- the test hook (read-only) ----------------------------------------------------------------
window.clubLobby = () => {
  const now = Date.now();
  const ids = (rows) => rows.map((r) => r.id);
  return JSON.parse(
    JSON.stringify({
      connection,
      updates: state.updates,
      recentReads,
      live: state.live(),
      open: ids(state.open(now)),
      mine: ids(state.mine()),
      online: state.others(),
      incoming: me ? ids(notices.board.waitingFor(now)) : [],
      outgoing: me ? ids(notices.board.sentBy(now)) : [],
      chat: chat.rooms.lines("lobby").map((l) => ({ id: l.id, author: l.author, text: l.text })),
    }),
  );
};
if (notices) window.clubNotices = () => notices.snapshot();

setInterval(() => {
  if (ticking()) render();
}, 1000);
socket = new ClubSocket({ path: "/ws/lobby/", page, onMessage: receive, onState: setConnection });
socket.open();
