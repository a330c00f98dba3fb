"""The Russian catalogue: complete, in step with the sources, and compiled.

A visible string without a translation fails here: every msgid the templates and the Python
code ask for is in locale/ru/LC_MESSAGES/django.po, translated (not empty, not fuzzy), with
the same placeholders and markup; and the committed django.mo says what the .po says.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib

from tests.i18n.catalogue import MO, PO, PYTHON_DIRS, ROOT, TEMPLATE_DIRS, catalogue, extract
from tests.needs import missing

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
TAG = re.compile(r"</?\w+[^>]*>")


def _texts(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


def test_every_message_is_translated() -> None:
    po = catalogue()
    assert po.metadata["Language"] == "ru"
    assert po.metadata["Plural-Forms"].startswith("nplurals=3;")
    assert len(po) > 300
    untranslated = [e.msgid for e in po if not all(t.strip() for t in _texts(e))]
    assert not untranslated, untranslated
    fuzzy = [e.msgid for e in po if "fuzzy" in e.flags]
    assert not fuzzy, fuzzy
    assert not po.obsolete_entries(), "obsolete entries: run `make messages`"
    for entry in po:
        if entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == [0, 1, 2], entry.msgid  # one, few, many


def test_translations_keep_the_placeholders_and_the_markup() -> None:
    for entry in catalogue():
        wanted = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        tags = sorted(TAG.findall(entry.msgid))
        for text in _texts(entry):
            assert set(PLACEHOLDER.findall(text)) == wanted, (entry.msgid, text)
            assert sorted(TAG.findall(text)) == tags, (entry.msgid, text)
            assert text.count("%") == entry.msgid.count("%"), (entry.msgid, text)


def test_the_sources_ask_for_exactly_the_catalogues_messages() -> None:
    """What makemessages would extract (tests/i18n/catalogue.py) is in the .po, and the .po
    holds nothing the sources no longer ask for."""
    found = extract()
    assert len(found) > 300
    po = catalogue()
    known = {(e.msgctxt, e.msgid): e for e in po}
    missing = sorted({m.where + ": " + m.msgid for m in found if m.key not in known})
    assert not missing, "not in the catalogue (run `make messages`):\n" + "\n".join(missing)
    plurals = {m.key: m.plural for m in found}
    wrong = [k for k, e in known.items() if k in plurals and plurals[k] != (e.msgid_plural or None)]
    assert not wrong, wrong
    stale = sorted(set(known) - {m.key for m in found})
    assert not stale, stale


def test_the_compiled_catalogue_says_what_the_po_says() -> None:
    """django.mo is committed (no GNU gettext needed to run the club); it must be the .po
    compiled: `make messages` writes both."""
    po = {(e.msgctxt, e.msgid): e for e in catalogue()}
    mo = {(e.msgctxt, e.msgid): e for e in polib.mofile(str(MO))}
    assert set(mo) == set(po), set(mo) ^ set(po)
    for key, entry in po.items():
        compiled = mo[key]
        assert compiled.msgid_plural == entry.msgid_plural, key
        assert _texts(compiled) == _texts(entry), key
    assert polib.mofile(str(MO)).metadata["Plural-Forms"] == catalogue().metadata["Plural-Forms"]


def test_makemessages_finds_nothing_new(tmp_path: Path) -> None:
    """Django's makemessages itself, on a copy of the sources, changes no msgid and leaves
    nothing untranslated (CI installs gettext for this; .ci/run)."""
    if shutil.which("xgettext") is None or shutil.which("msgfmt") is None:
        missing("needs GNU gettext (apt install gettext)")
    # The ladder, the ratings, the fixtures and the competitions keep their own catalogues
    # (ladder/locale, ratings/locale, fixtures/locale, competitions/locale), where makemessages
    # writes their words; they are copied so that the settings import. (An app's own
    # templates/ come with the app: dirs_exist_ok.)
    apps = ("ladder", "ratings", "fixtures", "competitions")
    for folder in (*PYTHON_DIRS, *TEMPLATE_DIRS, "rules", "locale", *apps):
        shutil.copytree(
            ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("*.pyc"),
            dirs_exist_ok=True,
        )  # fmt: skip
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ru", "-e", "html,txt,py",
         "--add-location=file", "--no-obsolete"],
        cwd=tmp_path, check=True, capture_output=True,
    )  # fmt: skip
    remade = polib.pofile(str(tmp_path / PO.relative_to(ROOT)))
    assert {(e.msgctxt, e.msgid) for e in remade} == {(e.msgctxt, e.msgid) for e in catalogue()}
    assert remade.percent_translated() == 100
    assert not [e.msgid for e in remade if "fuzzy" in e.flags]
