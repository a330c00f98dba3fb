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
