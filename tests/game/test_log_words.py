"""One wording of the referee's log: the live table (static/js/story.js `describe`, in the
browser) and a finished match's record and replay (game/words.py, on the server) word the same
event in the same words, in English and in Russian, from the same catalogue
(static/js/lang/). Run on the golden matches (fouls with their clauses, misses, decisions,
re-spotted balls, breaks), with a guest among the players.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from game import logs, words
from game.models import Match
from game.protocol import server_out
from game.text import player_name
from members.archive import archive
from tests.members.helpers import store
from tests.node import node_path

pytestmark = pytest.mark.django_db

JS = Path(__file__).resolve().parents[2] / "static" / "js"
GOLDEN = ("stats_century", "stats_misses")  # played from the rack

# The table's own words for each entry: story.js, in each language.
DESCRIBE_JS = """
import { readFileSync } from "node:fs";
const { setLanguage } = await import(%s);
const { describe } = await import(%s);
const { players, entries } = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const lang of ["en", "ru"]) {
  setLanguage(lang);
  out[lang] = entries.map((e) => {
    const w = describe(e, players);
    return { head: w.head, calls: w.calls, details: w.details };
  });
}
console.log(JSON.stringify(out));
"""


def table_words(players: dict[str, str], entries: list[dict[str, Any]]) -> dict[str, Any]:
    script = DESCRIBE_JS % (
        json.dumps((JS / "i18n.js").as_uri()),
        json.dumps((JS / "story.js").as_uri()),
    )
    answer = subprocess.run(
        [node_path(), "--input-type=module", "-e", script],
        input=json.dumps({"players": players, "entries": entries}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: dict[str, Any] = json.loads(answer.stdout)
    return found


def live_log(row: Match, frame: int) -> list[server_out.LogEntry]:
    """The frame's log as the live table is sent it (the `log` message)."""
    text = logs.frame_log(row.pk, frame, row.version, "A", final=True)
    return server_out.Log.model_validate_json(text).entries


@pytest.mark.parametrize("golden", GOLDEN)
def test_the_table_and_the_record_word_every_event_alike(golden: str) -> None:
    users = get_user_model().objects
    alisa, guest = users.create_user("Алиса"), users.create_user("Гоша (guest)")
    row = store(golden, alisa, guest)
    record = archive(row)
    entries = [e.log for f in record.frames for e in f.log]
    assert entries, golden
    # The record's entries are the live log's, event for event.
    live = {e.version: e for f in record.frames for e in live_log(row, f.number)}
    for entry in entries:
        assert entry == live[entry.version], entry.version
    raw = {"A": alisa.get_username(), "B": guest.get_username()}
    dumped = [e.model_dump(mode="json", by_alias=True) for e in entries]
    table = table_words(raw, dumped)
    for lang in ("en", "ru"):
        with translation.override(lang):
            shown = {seat: player_name(name) for seat, name in raw.items()}
            server = [asdict(words.describe(e, shown)) for e in entries]
        pairs = zip(entries, table[lang], server, strict=True)
        differ = [(e.version, t, s) for e, t, s in pairs if t != s]
        assert not differ, (lang, differ[:3])
        said = " ".join(" ".join([w["head"], *w["calls"], *w["details"]]) for w in server)
        if lang == "ru":
            assert "(гость)" in said and "(guest)" not in said


def test_the_record_keeps_the_fouls_reason_and_clause() -> None:
    users = get_user_model().objects
    row = store("stats_misses", users.create_user("Алиса"), users.create_user("Борис"))
    fouls = [
        (f.kind, f.clause)
        for frame in archive(row).frames
        for e in frame.log
        if e.log.ruling
        for f in e.log.ruling.fouls
    ]
    assert fouls
    for lang, client in (("ru", Client(HTTP_ACCEPT_LANGUAGE="ru")), ("en", Client())):
        page = client.get(f"/match/{row.pk}/").content.decode()
        with translation.override(lang):
            for kind, clause in set(fouls):
                assert escape(words.foul_text(kind, clause)) in page, (lang, kind, clause)
        if lang == "ru":
            assert re.search(r"нарушение: [^(<]+ \(п\. \d+(\.\d+)*\)", page)
            assert "НАРУШЕНИЕ, ШТРАФ" in page and "ФОЛ" not in page


def test_the_server_reads_the_tables_catalogue() -> None:
    assert words.t("call.frame_over") == "FRAME OVER"
    with translation.override("ru"):
        assert words.t("call.foul", n=4) == "НАРУШЕНИЕ, ШТРАФ 4"
        assert words.t("log.points", n=1, name="Алиса", brk=1) == "1 очко — Алиса (серия 1)"
        assert words.t("log.points", n=3, name="Алиса", brk=4) == "3 очка — Алиса (серия 4)"
        assert words.t("log.points", n=5, name="Алиса", brk=9) == "5 очков — Алиса (серия 9)"
        assert words.t("log.points", n=21, name="Алиса", brk=21) == "21 очко — Алиса (серия 21)"
        assert words.t("log.points", n=12, name="Алиса", brk=12) == "12 очков — Алиса (серия 12)"
        assert words.t("no.such.key") == "no.such.key"
    assert set(words.catalogue("ru")) == set(words.catalogue("en"))


def test_the_start_event_names_the_handicap_alike() -> None:
    """RULES.md §10: the log's first entry says who has the start, on the table and in the
    record, in both languages; a match without one says nothing more than the draw."""
    players = {"A": "alice", "B": "bob"}
    entries = [
        server_out.LogEntry.model_validate(
            {"version": 1, "kind": "start", "seat": None,
             "request": {"draw": "A", "start": start}, "ruling": None, "shot": None,
             "scores": {"A": 0, "B": 28}, "break": 0, "frame_end": None, "match_end": None}
        )
        for start in ({"A": 0, "B": 28}, {"A": 0, "B": 0})
    ]  # fmt: skip
    dumped = [e.model_dump(mode="json", by_alias=True) for e in entries]
    table = table_words(players, dumped)
    for lang, said in (
        ("en", "Handicap: bob begins every frame on 28"),
        ("ru", "Фора: bob начинает каждую партию с 28"),
    ):
        with translation.override(lang):
            server = [asdict(words.describe(e, players)) for e in entries]
        assert table[lang] == server
        assert server[0]["details"] == [said] and server[1]["details"] == []
