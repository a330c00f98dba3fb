// The end of a match on its page: the result, the frame scores, the breaks, the rematch offer
// and the way back to the lobby. The server renders the panel (club/_match_end.html, in the
// visitor's language); this loads it when the match is over and again whenever a notice
// concerns a rematch of this match (offered, declined, withdrawn, expired).

export class MatchEnd {
  constructor({ el, url, matchId }) {
    this.el = el;
    this.url = url;
    this.matchId = matchId;
    this.shown = false;
    this.loads = 0;
    this.loading = null;
    document.addEventListener("club:notice", (e) => {
      const row = e.detail;
      if (this.shown && row.rematch_of === this.matchId) this.show();
    });
  }

  show() {
    this.shown = true;
    // Its rematch offers are answered here: notices.js reads this and lays no toast over it.
    document.body.dataset.endOf = String(this.matchId);
    // One load at a time; a notice during a load loads again after it.
    const load = (this.loading || Promise.resolve()).then(() => this._load());
    this.loading = load;
    return load;
  }

  async _load() {
    const answer = await fetch(this.url, { credentials: "same-origin" });
    if (answer.status !== 200) return;
    this.el.innerHTML = await answer.text();
    this.el.hidden = false;
    this.loads += 1;
  }
}
