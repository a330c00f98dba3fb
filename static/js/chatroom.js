// The chat rooms as a page holds them (docs/chat.md): the lines of each room it reads, kept
// from the server's `lines` (after every welcome: they replace what was held), `line`,
// `deleted` (a moderator's: the lines go) and `struck` (a member marked a troll: their lines
// go) messages; which of a match's rooms this visitor reads and writes (the lobby's page has
// one room, everyone's); a draft checked as the server checks it (the limit comes from the
// page, rules/chat.py). No DOM: chatpanel.js shows it; tests/chatroom.test.js.

/** Rooms this visitor reads: a player the players' room (and the spectators' once the match
 * is over); anyone else the spectators' room, and the players' room, read only, when the
 * server sends it (`playersShown`: the club and both players let spectators read it). */
export function roomsRead(seat, finished, playersShown = false) {
  if (!seat) return playersShown ? ["spectators", "players"] : ["spectators"];
  return finished ? ["players", "spectators"] : ["players"];
}

/** Whether this visitor writes in `room` (the server decides; the page offers no more). */
export function writes(room, seat, finished) {
  if (room === "players") return Boolean(seat);
  return !seat || finished;
}

/** What the visitor may type: `member` (their own words) or `guest` (preset phrases only)
 * or `none` (a stranger: read only). */
export function voice(kind) {
  return kind === "member" || kind === "guest" ? kind : "none";
}

/** Collapse whitespace and trim, as the server's clean() does for spaces: what counts. */
export function trimmed(text) {
  return String(text).split(/\s+/u).filter(Boolean).join(" ");
}

/** Why a draft would be refused before it is sent ("chat_empty", "chat_too_long"), or null. */
export function draftRefusal(text, maxLength) {
  const line = trimmed(text);
  if (!line) return "chat_empty";
  if ([...line].length > maxLength) return "chat_too_long";
  return null;
}

/** The words a line shows: a preset in the reader's language, else the author's own as the
 * server masked them (chat/words.py): `mild` for a reader who shows mild words. */
export function lineWords(line, t, mild = false) {
  if (line.preset) return t(`chat.preset.${line.preset}`);
  return mild && line.mild ? line.mild : line.text;
}

export class ChatRooms {
  constructor(most = 100) {
    this.most = most;
    this.rooms = new Map(); // room -> lines, oldest first
  }

  lines(room) {
    return this.rooms.get(room) || [];
  }

  /** Whether the server sent anything of `room` (a spectator's page: the players' room). */
  has(room) {
    return this.rooms.has(room);
  }

  /** Let go of `room` until the server sends it again. */
  forget(room) {
    this.rooms.delete(room);
  }

  /** Take a server message; the room it changed (and the new line, for `line`), or null. */
  receive(msg) {
    if (msg.type === "deleted" || msg.type === "struck") {
      const gone = msg.type === "deleted" ? ((l) => msg.ids.includes(l.id)) : ((l) => l.author === msg.author);
      const held = this.lines(msg.room);
      if (!held.some(gone)) return null;
      this.rooms.set(msg.room, held.filter((l) => !gone(l)));
      return { room: msg.room, line: null };
    }
    if (msg.type === "lines") {
      this.rooms.set(msg.room, msg.lines.slice(-this.most));
      return { room: msg.room, line: null };
    }
    if (msg.type !== "line") return null;
    const held = this.lines(msg.room);
    if (held.some((l) => l.id === msg.line.id)) return null; // sent twice: once shown
    const next = [...held, msg.line].sort((a, b) => a.id - b.id).slice(-this.most);
    this.rooms.set(msg.room, next);
    return { room: msg.room, line: msg.line };
  }
}

/** Another's new lines held while a stroke's balls run (docs/chat.md, "At the table"): not
 * shown, nor read out, until the balls stop, then in the order they came; the reader's own
 * lines, and every other message, at once. A room's `lines` (after a welcome) hold the room
 * as stored, so its held lines go (they are in it, or were deleted meanwhile); a deletion
 * takes its lines from those held too. */
export class LineHold {
  constructor(me) {
    this.me = me; // the reader's name: their own lines are never held
    this.moving = false; // a stroke's balls are running
    this.held = []; // `line` messages, in the order they came
  }

  /** A server message: the messages to show now, in order (none while its line is held). */
  take(msg) {
    if (msg.type === "line" && this.moving && msg.line.author !== this.me) {
      this.held.push(msg);
      return [];
    }
    if (msg.type === "lines") {
      this.held = this.held.filter((m) => m.room !== msg.room);
    } else if (msg.type === "deleted") {
      const gone = new Set(msg.ids);
      this.held = this.held.filter((m) => m.room !== msg.room || !gone.has(m.line.id));
    } else if (msg.type === "struck") {
      this.held = this.held.filter((m) => m.room !== msg.room || m.line.author !== msg.author);
    }
    return [msg];
  }

  /** The balls run, or have stopped: once they stop, the messages held, in order. */
  move(moving) {
    this.moving = moving;
    if (moving || !this.held.length) return [];
    const out = this.held;
    this.held = [];
    return out;
  }
}
