// A page's chat panel (docs/chat.md), the match page's and the lobby's: a tab per room this
// visitor reads (a match's two; the lobby's one, `rooms`), the room's lines (shown as text,
// never as markup), a field and Send for a member, the preset phrases for a guest. It never
// takes the keyboard's focus (the table keeps it for aiming), and tells a screen reader each
// new line of another's, once, politely (not the room's history); at a table, not while a
// stroke's balls run (`moving`: held until they stop, then in order). A moderator's deletion
// takes the line away; a timeout is said to the member timed out (why and until when) and
// to the others. A member reports another's line (its flag button: a reason, then Send; the
// server's answer said in the panel). A spectator's page shows the players' room, read only
// and labelled so, once the server sends it (the club and both players allow it). Its state
// is chatroom.js's.

import {
  ChatRooms, LineHold, draftRefusal, lineWords, roomsRead, voice, writes,
} from "./chatroom.js";
import { language, playerName, t } from "./i18n.js";

const BUSY_HOLD_MS = 2000; // a room's rate refills a line a second (SNOOKER_CHAT_ROOM_RATE)

export class ChatPanel {
  /** `el(testid)`, `send(message)`, `announce(text)`, `seat`, `kind` (member, guest or ''),
   * `chat` (the page constants' limits and presets), `me` (this visitor's name), `rooms`
   * (a page of fixed rooms, everyone writing in them: the lobby's ["lobby"]; else a
   * match's, by `seat`); `mild`: the reader shows mild words, `off`: a player reads no
   * players' room (their chat settings); `heard()`, each line of another's shown;
   * `shown(there)`, whether the panel is there at all (it reads some room); `writer`: false
   * on a ladder's page for a member not on the ladder (only its members and the organisers
   * write there: they read it, with a note). */
  constructor({
    el, send, announce, seat, kind, chat, me, rooms = null, mild = false, off = false,
    heard = () => {}, shown = () => {}, writer = true,
  }) {
    this.el = el;
    this.send = send;
    this.announce = announce;
    this.seat = seat;
    this.voice = voice(kind);
    this.chat = chat;
    this.me = me;
    this.mild = mild;
    this.off = off;
    this.writer = writer;
    this.heard = heard;
    this.shown = shown;
    this.rooms = new ChatRooms();
    this.hold = new LineHold(me);
    this.fixed = rooms;
    this.finished = false;
    this.room = this.read()[0];
    this.el("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    const presets = this.el("chat-presets");
    for (const key of chat.presets) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.preset = key;
      button.textContent = t(`chat.preset.${key}`);
      button.addEventListener("click", () => this.say({ preset: key }));
      presets.append(button);
    }
    this.el("chat-text").maxLength = chat.max_length * 4; // trimmed by the server to the limit
    this.reportBox = this.reportForm(chat.report_reasons || []);
    this.render();
  }

  /** The one report form, shown under the lines for the line being reported. */
  reportForm(reasons) {
    const box = document.createElement("form");
    box.className = "chat-report";
    box.dataset.testid = "chat-report";
    box.hidden = true;
    const what = document.createElement("p");
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.dataset.testid = "chat-report-reason";
    for (const key of reasons) {
      const option = document.createElement("option");
      option.value = key;
      option.textContent = t(`chat.report.${key}`);
      select.append(option);
    }
    label.append(`${t("chat.report_reason")} `, select);
    const send = document.createElement("button");
    send.type = "submit";
    send.dataset.testid = "chat-report-send";
    send.textContent = t("chat.report_send");
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = t("chat.report_cancel");
    cancel.addEventListener("click", () => {
      box.hidden = true;
    });
    box.append(what, label, " ", send, " ", cancel);
    box.addEventListener("submit", async (e) => {
      e.preventDefault();
      box.hidden = true;
      const answer = await postReport(box.dataset.line, select.value);
      this.refused(answer.ok ? t("chat.reported") : answer.message);
    });
    this.el("chat-lines").after(box);
    return { box, what, select };
  }

  /** Open the report form for `line`. */
  reporting(line) {
    const { box, what, select } = this.reportBox;
    box.dataset.line = String(line.id);
    what.textContent = t("chat.report_line", { name: playerName(line.author) });
    box.hidden = false;
    select.focus();
  }

  /** A welcome: a spectator reads the players' room only if the server sends it again after
   * it (the players may have stopped letting spectators read it meanwhile). */
  welcomed() {
    if (this.seat || this.fixed || !this.rooms.has("players")) return;
    this.rooms.forget("players");
    this.render();
  }

  /** The match is over: the players read (and write in) the spectators' room too. */
  set over(finished) {
    if (finished === this.finished) return;
    this.finished = finished;
    this.render();
  }

  /** The rooms this visitor reads now. */
  read() {
    const read = this.fixed || roomsRead(this.seat, this.finished, this.rooms.has("players"));
    return this.off ? read.filter((room) => room !== "players") : read;
  }

  /** A room's name on its tab and heading: the players' room, to a spectator, read only. */
  roomName(room) {
    return t(room === "players" && !this.seat ? "chat.room.players_read_only" : `chat.room.${room}`);
  }

  /** A stroke's balls run (or have stopped: the lines held meanwhile are shown). */
  set moving(now) {
    for (const msg of this.hold.move(now)) this.show(msg);
  }

  receive(msg) {
    for (const taken of this.hold.take(msg)) this.show(taken);
  }

  show(msg) {
    if (msg.type === "timed_out") {
      this.timedOut(msg);
      return;
    }
    const before = this.read().length;
    const changed = this.rooms.receive(msg);
    if (!changed) return;
    if (this.read().length !== before) this.render(); // the players' room, shown to spectators
    else if (changed.room === this.room) this.renderLines();
    const line = changed.line;
    if (line && line.author !== this.me) {
      const room = this.roomName(changed.room);
      this.announce(`${room}. ${t("chat.said", { name: playerName(line.author), text: lineWords(line, t, this.mild) })}`);
      this.heard();
    }
  }

  submit() {
    const field = this.el("chat-text");
    const wrong = draftRefusal(field.value, this.chat.max_length);
    if (wrong === "chat_empty") return;
    if (wrong) {
      this.refused(t("chat.too_long", { n: this.chat.max_length }));
      return;
    }
    this.unsent = field.value; // back in the field if the room is too busy to take it
    this.say({ text: field.value });
    field.value = "";
  }

  say(what) {
    this.refused("");
    this.send({ type: "say", room: this.room, ...what });
  }

  /** A moderator timed a member out: they are told why and until when, the others who. */
  timedOut(msg) {
    const until = new Date(msg.until).toLocaleTimeString(language(), {
      hour: "2-digit",
      minute: "2-digit",
    });
    if (msg.member === this.me) {
      this.refused(t("chat.timed_out_you", { until, reason: msg.reason || "" }));
    } else {
      this.refused(t("chat.timed_out", { name: playerName(msg.member), until }));
    }
  }

  /** A `chat_*` refusal's words (the server's, in the page's language), or none. A busy
   * room's (`chat_busy`, past its rate: docs/chat.md) holds Send for `BUSY_HOLD_MS`, the
   * line back in the field: the page waits instead of sending what would be refused. */
  refused(words, code = null) {
    const p = this.el("chat-refusal");
    p.textContent = words;
    p.hidden = !words;
    if (code !== "chat_busy") return;
    const field = this.el("chat-text");
    if (this.unsent && !field.value) field.value = this.unsent;
    this.unsent = null;
    const send = this.el("chat-send");
    send.disabled = true;
    clearTimeout(this.holding);
    this.holding = setTimeout(() => {
      send.disabled = false;
    }, BUSY_HOLD_MS);
  }

  render() {
    const read = this.read();
    // Nothing to read (a player who turned the players' chat off, while the match is on).
    const box = this.el("chat"); // the match page's panel (the lobby's is the box itself)
    if (box) box.hidden = read.length === 0;
    this.shown(read.length > 0);
    if (read.length === 0) return;
    if (!read.includes(this.room)) this.room = read[0];
    const tabs = this.el("chat-tabs");
    tabs.replaceChildren();
    tabs.hidden = read.length < 2;
    for (const room of read) {
      const tab = document.createElement("button");
      tab.type = "button";
      tab.dataset.room = room;
      tab.textContent = this.roomName(room);
      tab.setAttribute("aria-pressed", String(room === this.room));
      tab.addEventListener("click", () => {
        this.room = room;
        this.render();
      });
      tabs.append(tab);
    }
    this.el("chat-room").textContent = this.roomName(this.room);
    const writing = this.fixed ? this.writer : writes(this.room, this.seat, this.finished);
    const outside = this.el("chat-ladder-only");
    if (outside) outside.hidden = !(this.fixed && !this.writer && this.voice !== "none");
    this.el("chat-form").hidden = !(writing && this.voice === "member");
    this.el("chat-presets").hidden = !(writing && this.voice !== "none");
    this.el("chat-guest").hidden = !(writing && this.voice === "guest");
    this.el("chat-read-only").hidden = !((writing || !this.writer) && this.voice === "none");
    const players = this.el("chat-players-only");
    if (players) players.hidden = !(this.room === "players" && !this.seat);
    this.renderLines();
  }

  renderLines() {
    const list = this.el("chat-lines");
    const lines = this.rooms.lines(this.room);
    list.replaceChildren(
      ...lines.map((line) => {
        const li = document.createElement("li");
        const who = document.createElement("b");
        who.textContent = playerName(line.author);
        li.append(who, document.createTextNode(` ${lineWords(line, t, this.mild)}`));
        if (this.voice === "member" && line.author !== this.me) {
          const flag = document.createElement("button");
          flag.type = "button";
          flag.className = "chat-flag";
          flag.dataset.testid = "chat-flag";
          // Its mark is the stylesheet's (site.css): the line's text stays the line's own.
          flag.title = t("chat.report_line", { name: playerName(line.author) });
          flag.setAttribute("aria-label", flag.title);
          flag.addEventListener("click", () => this.reporting(line));
          li.append(flag);
        }
        return li;
      }),
    );
    this.el("chat-empty").hidden = lines.length > 0;
    list.scrollTop = list.scrollHeight;
  }
}

/** Report a line (chat/views.py `report`, docs/chat.md): the server's answer, `{ok: true}` or
 * `{code, message}` in the page's language. */
async function postReport(id, reason) {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]");
  try {
    const answer = await fetch(`/chat/lines/${id}/report/`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": token ? token.value : "" },
      body: new URLSearchParams({ reason }),
    });
    return await answer.json();
  } catch {
    return { message: t("chat.report_failed") };
  }
}
