// The lobby as its socket tells it: live matches and open challenges, each kept at the newest
// version seen (a welcome, then coalesced updates). Pure (tests/lobbystate.test.js).

// Abandoning a match (never started in time) changes its status, not its version: at one
// version, the abandoned row is the newer word.
function newer(a, b) {
  return a.version > b.version || (a.version === b.version && a.status === "abandoned");
}

function newest(map, row) {
  const known = map.get(row.id);
  if (known && known !== row && newer(known, row)) return false;
  map.set(row.id, row);
  return true;
}

function replaced(known, rows) {
  const fresh = new Map();
  for (const row of rows) {
    const old = known.get(row.id);
    newest(fresh, old && newer(old, row) ? old : row);
  }
  return fresh;
}

// The most members online the lobby lists; the rest are counted ("and N more").
export const ONLINE_SHOWN = 50;

export class LobbyState {
  constructor(me) {
    this.me = me;
    this.matches = new Map(); // id -> row, live or finished
    this.challenges = new Map(); // open challenges by anyone: id -> row
    this.updates = 0;
    this.finished = 0; // matches seen to finish: the recent results are read again after each
    this.computerLive = 0; // matches against the computer: counted, never listed
    this.online = []; // members online now, sorted (the server's first 200)
    this.onlineCount = 0; // how many
  }

  /** A whole new picture (after every connection): what it lists, each row at the newest
   * version known; what it does not list has gone. */
  welcome(msg) {
    this.matches = replaced(this.matches, [...msg.matches, ...msg.my_matches]);
    this.challenges = replaced(this.challenges, msg.open);
    this.computerLive = msg.computer_live || 0;
    this.online = msg.online || [];
    this.onlineCount = msg.online_count || 0;
  }

  /** Merge an update; returns how many rows changed. */
  update(msg) {
    this.updates += 1;
    let changed = 0;
    for (const row of msg.matches) {
      const was = this.matches.get(row.id);
      if (!newest(this.matches, row)) continue;
      changed += 1;
      if (row.status === "finished" && !row.practice && (!was || was.status !== "finished")) {
        this.finished += 1;
      }
    }
    for (const row of msg.challenges) changed += newest(this.challenges, row) ? 1 : 0;
    if (msg.computer_live !== undefined && msg.computer_live !== this.computerLive) {
      this.computerLive = msg.computer_live;
      changed += 1;
    }
    if (msg.online != null) {
      this.online = msg.online;
      this.onlineCount = msg.online_count ?? msg.online.length;
      changed += 1;
    }
    return changed;
  }

  /** An open challenge told by a notice (ours): the list follows it too. */
  notice(row) {
    if (row.kind === "open") newest(this.challenges, row);
  }

  live() {
    return [...this.matches.values()]
      .filter((m) => m.status === "live" && !m.practice && !m.computer)
      .sort((a, b) => b.id - a.id);
  }

  mine() {
    return [...this.matches.values()]
      .filter((m) => m.status === "live" && (m.players.A === this.me || m.players.B === this.me))
      .sort((a, b) => b.id - a.id);
  }

  /** The members online to list for this viewer: not themselves, the first `cap`, and how many
   * more there are. */
  others(cap = ONLINE_SHOWN) {
    const others = this.online.filter((name) => name !== this.me);
    const names = others.slice(0, cap);
    const self = this.online.includes(this.me) ? 1 : 0;
    return { names, more: Math.max(0, this.onlineCount - self - names.length) };
  }

  open(now) {
    return [...this.challenges.values()]
      .filter((c) => c.status === "open" && Date.parse(c.expires) > now)
      .sort((a, b) => b.id - a.id);
  }
}
