// Every page of a member or guest but the lobby (which has its own socket): their notices.

import { ClubSocket, readPage } from "./clubsocket.js";
import { Words } from "./clubtext.js";
import { Notices } from "./notices.js";

const page = readPage();
if (page && page.me) {
  const notices = new Notices({ page, words: new Words(page.text) });
  const socket = new ClubSocket({
    path: "/ws/notices/",
    page,
    onMessage: (msg) => notices.handle(msg),
    onState: (state) => {
      document.body.dataset.notices = state;
    },
  });
  socket.open();
  window.clubNotices = () => notices.snapshot();
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
// lies over it (notices.js); the challenger whose offer is accepted goes to the table.
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
}
