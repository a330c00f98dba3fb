// A member's challenges as their notices tell them: which are waiting for them (the badge and
// the tab's title), and what each new notice means for the page (a toast, a sound, the table).
// Pure (tests/noticeboard.test.js): rows and times come in, effects go out; no DOM.
//
// Rows carry a version (club/protocol/server_out.py): the newest word on a challenge wins, so
// a notice older than the welcome (or crossing another) never turns the clock back.

export class NoticeBoard {
  constructor(me) {
    this.me = me;
    this.rows = new Map(); // challenge id -> its newest row
  }

  /** The challenges of `me` waiting now, as a welcome lists them, and those of theirs just
   * accepted whose table they have not come to (the notice may have been missed between two
   * sockets). Returns what the news among them means, as `notice` does: [{kind: "accepted",
   * row, go}] for each acceptance not known before. */
  welcome(rows) {
    const fresh = new Map();
    const news = [];
    for (const row of rows) {
      const known = this.rows.get(row.id);
      const newer = !known || known.version < row.version;
      fresh.set(row.id, newer ? row : known);
      if (newer && row.status === "accepted" && row.challenger === this.me && row.match != null) {
        news.push({ kind: "accepted", row, go: row.match });
      }
    }
    this.rows = fresh;
    return news;
  }

  /** A notice's row. Returns what it means, or null if it is old news:
   * {kind: "challenged" | "accepted" | "declined" | "withdrawn" | "expired" | "sent" | "taken",
   *  row, go: the match to go to (the challenger's challenge was accepted)}. */
  notice(row) {
    const known = this.rows.get(row.id);
    if (known && known.version >= row.version) return null;
    this.rows.set(row.id, row);
    const mine = row.challenger === this.me;
    if (row.status === "open") return { kind: mine ? "sent" : "challenged", row, go: null };
    if (row.status === "accepted") {
      return { kind: mine ? "accepted" : "taken", row, go: mine ? row.match : null };
    }
    return { kind: row.status, row, go: null };
  }

  waitingFor(now) {
    return [...this.rows.values()].filter(
      (r) => r.status === "open" && r.target === this.me && Date.parse(r.expires) > now,
    );
  }

  sentBy(now) {
    return [...this.rows.values()].filter(
      (r) => r.status === "open" && r.challenger === this.me && Date.parse(r.expires) > now,
    );
  }

  count(now) {
    return this.waitingFor(now).length;
  }

  /** "(2) Snooker Club" while two challenges wait. */
  title(base, now) {
    const n = this.count(now);
    return n ? `(${n}) ${base}` : base;
  }
}

/** Whether the page answers this challenge itself: a rematch of the match whose end panel
 * the page shows (`endOf`, body[data-end-of], set by matchend.js) is offered, declined and
 * withdrawn in that panel, so a toast would only lie over the panel's own buttons. */
export function answeredOnPage(row, endOf) {
  return row.rematch_of != null && endOf != null && String(row.rematch_of) === String(endOf);
}
