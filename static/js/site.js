// Every page of a member or guest but the lobby (which has its own socket): their notices;
// and a competition's or a ladder's page, a visitor's too, its chat room, carried on the same
// socket (named in its hello: docs/chat.md), in the lobby's panel (chatpanel.js, one room).

import { ChatPanel } from "./chatpanel.js";
import { ClubSocket, readPage } from "./clubsocket.js";
import { Words } from "./clubtext.js";
import { translatePage } from "./i18n.js";
import { Notices } from "./notices.js";

const CHAT_MESSAGES = ["line", "lines", "deleted", "struck", "timed_out"];

/** The page's room (`templates/chat/_page_room.html`), if it has one: its panel, and the
 * room the socket names. */
function pageRoom(send) {
  const box = document.querySelector('[data-testid="chat"][data-room-kind]');
  if (!box) return null;
  translatePage(box);
  const el = (id) => box.querySelector(`[data-testid="${id}"]`);
  const kind = box.dataset.roomKind;
  const panel = new ChatPanel({
    el,
    send,
    announce: (text) => {
      el("chat-announce").textContent = text;
    },
    seat: null,
    kind: box.dataset.chat,
    chat: JSON.parse(document.getElementById("chat-limits").textContent),
    me: page ? page.me : null,
    rooms: [kind],
    mild: box.dataset.mild === "1",
    writer: box.dataset.writes === "1",
  });
  return { panel, room: { kind, key: Number(box.dataset.roomKey) } };
}

const page = readPage();
let socket = null;
const chat = page ? pageRoom((message) => socket && socket.send(message)) : null;
if (page && (page.me || chat)) {
  const notices = page.me ? new Notices({ page, words: new Words(page.text) }) : null;
  socket = new ClubSocket({
    path: "/ws/notices/",
    page,
    room: chat ? chat.room : null,
    onMessage: (msg) => {
      if (chat && CHAT_MESSAGES.includes(msg.type)) {
        chat.panel.receive(msg);
      } else if (chat && msg.type === "error" && String(msg.code).startsWith("chat_")) {
        chat.panel.refused(msg.message, msg.code);
      } else if (notices) {
        notices.handle(msg);
      }
    },
    onState: (state) => {
      document.body.dataset.notices = state;
    },
  });
  socket.open();
  if (notices) window.clubNotices = () => notices.snapshot();
  if (chat) {
    window.pageChat = () => chat.panel.rooms.lines(chat.room.kind)
      .map((l) => ({ id: l.id, author: l.author, text: l.text }));
  }
}

// A challenge's own page shows the state the server rendered: when a notice says it changed
// (declined, withdrawn, expired, taken by someone else), the page is rendered again. (Its
// challenger goes to the table on an acceptance: notices.js.)
const shown = document.querySelector('[data-testid="challenge-page"]');
if (shown) {
  document.addEventListener("club:notice", (e) => {
    const row = e.detail;
    if (String(row.id) !== shown.dataset.challenge || row.status === shown.dataset.status) return;
    if (row.status === "accepted" && shown.dataset.role === "challenger") return;
    location.reload();
  });
}

// A finished match's record offers its players the rematch (club/_end_actions.html), as the
// table's end panel does: offered, declined, withdrawn or expired, it is rendered again (it
// said "waiting…" after the offer was declined). The offer is answered there, so no toast
// lies over it (notices.js); the challenger whose offer is accepted goes to the table. An
// answer given before the socket was there is not told: its welcome, which lists the waiting
// challenges, no longer lists the offer this page shows waiting.
const ending = document.querySelector("[data-rematch-of]");
if (ending && page && page.me) {
  document.body.dataset.endOf = ending.dataset.rematchOf;
  document.addEventListener("club:notice", (e) => {
    const row = e.detail;
    if (String(row.rematch_of) !== ending.dataset.rematchOf) return;
    if (String(row.id) === ending.dataset.offer && row.status === ending.dataset.status) return;
    if (row.status === "accepted" && row.challenger === page.me) return;
    location.reload();
  });
  document.addEventListener("club:welcome", (e) => {
    const mine = e.detail.mine || [];
    // A full list (club/lobby.py lists 50 at most) may leave a waiting offer out.
    if (ending.dataset.waiting !== "true" || mine.length >= 50) return;
    const listed = mine.find((row) => String(row.id) === ending.dataset.offer);
    if (!listed || listed.status !== "open") location.reload();
  });
}

// A ladder's page, a ladder match's start-time panel and a competition's page follow what
// they show: when the socket says it changed (a ladder's join, challenge, result or start
// time; a competition's draw, start time, match begun, result, next fixture or champion), and
// at each welcome (it may have changed before the socket was there), the changing part is read
// again from the server (ladder/views.py: `ladder_live`, `start_panel`; competitions/views.py:
// `competition_live`), never drawn here. Each part says which it follows: `data-ladder-id`
// (told by `ladder` messages) or `data-competition-id` (`competition` messages).
const FOLLOWED = [
  { attribute: "ladderId", event: "club:ladder", ids: "ladders" },
  { attribute: "competitionId", event: "club:competition", ids: "competitions" },
];
for (const live of document.querySelectorAll("[data-live]")) {
  if (!page || !page.me) break;
  const followed = FOLLOWED.find((f) => live.dataset[f.attribute] !== undefined);
  if (!followed) continue;
  let reading = Promise.resolve();
  let reads = 0;
  const read = () => {
    // One read at a time, in order: the last to land is the newest.
    reading = reading.then(async () => {
      try {
        const answer = await fetch(live.dataset.live, { credentials: "same-origin" });
        if (answer.status !== 200) return;
        const html = await answer.text();
        // What the reader is doing is kept across the read: the field being typed in (a start
        // time, a member's name), and the sections opened (an organiser's "Record a result").
        const named = (el) => el && el.dataset && el.dataset.testid;
        const typing = live.contains(document.activeElement) ? document.activeElement : null;
        const kept = named(typing) && "value" in typing ? [named(typing), typing.value] : null;
        const detailsKey = (d) => named(d.querySelector("[data-testid]"));
        const open = [...live.querySelectorAll("details[open]")];
        const opened = new Set(open.map(detailsKey).filter(Boolean));
        live.innerHTML = html; // no wait between what was kept and the change: nothing lost
        for (const d of live.querySelectorAll("details")) {
          if (opened.has(detailsKey(d))) d.open = true;
        }
        const field = kept && live.querySelector(`[data-testid="${kept[0]}"]`);
        if (field) {
          field.value = kept[1];
          field.focus();
        }
        reads += 1;
        live.dataset.reads = String(reads);
      } catch {
        /* offline: the next change, or welcome, reads it again */
      }
    });
  };
  document.addEventListener("club:welcome", read);
  document.addEventListener(followed.event, (e) => {
    if (e.detail[followed.ids].includes(Number(live.dataset[followed.attribute]))) read();
  });
}
