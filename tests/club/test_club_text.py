"""The club's scripts write no sentence of their own: every key they ask the catalog for is
in `club.text.catalog()`, which the server renders translated into every page."""

from __future__ import annotations

import re
from pathlib import Path

from club.text import ERRORS, catalog, describe_format, error_text
from rules.challenges import Format

JS = Path(__file__).resolve().parents[2] / "static" / "js"
SCRIPTS = ["clubtext.js", "notices.js", "lobby.js", "site.js", "matchend.js"]


def test_every_key_the_scripts_use_is_in_the_catalog() -> None:
    used: set[str] = set()
    for name in SCRIPTS:
        source = (JS / name).read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\s*\"(\w+)\"", source))
        # Keys chosen in an expression: words.t(cond ? "a" : "b") and { open: "live", ... }.
        for call in re.findall(r"\bt\(\s*([^,()]*\?[^,()]*)", source):
            used |= set(re.findall(r"[?:]\s*\"(\w+)\"", call))
    assert used, "the scan found nothing"
    used |= {"live", "reconnecting", "connecting"}  # lobby.js's connection words
    used |= {"why_unavailable", "why_moved", "why_flood", "why_full"}  # clubtext.js's WHY
    assert used <= set(catalog()), used - set(catalog())


def test_the_servers_words_for_a_format() -> None:
    assert describe_format(Format(3)) == "best of 3 · friendly"
    assert describe_format(Format(5, 30, True)) == "best of 5 · 30 s shot clock · rated"


def test_every_refusal_has_words() -> None:
    assert error_text("expired") == str(ERRORS["expired"])
    assert error_text("weird") == "That cannot be done."  # words, never the code
