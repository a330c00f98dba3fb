"""One Russian: every catalogue a player reads from (the table's static/js/lang/ru.js, the
Django catalogues of the site and of the ladder) uses the club's rule book's terms, and writes
ё wherever it belongs (docs/words.md).

A banned word is matched as a word's beginning, in any case: «фрейм» also bans «ФРЕЙМ
ОКОНЧЕН» and «по фреймам»; «фол» bans «ФОЛ» and «фолы» but not «фольга»-like words, which
no catalogue has reason to hold.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from tests.i18n.catalogue import ROOT

PO_FILES = (
    ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po",
    ROOT / "ladder" / "locale" / "ru" / "LC_MESSAGES" / "django.po",
    ROOT / "ratings" / "locale" / "ru" / "LC_MESSAGES" / "django.po",
    ROOT / "fixtures" / "locale" / "ru" / "LC_MESSAGES" / "django.po",
    ROOT / "competitions" / "locale" / "ru" / "LC_MESSAGES" / "django.po",
)
JS_CATALOGUE = ROOT / "static" / "js" / "lang" / "ru.js"

# banned (a pattern on whole words, case-insensitive) -> the rule book's term
BANNED: dict[str, str] = {
    r"фрейм\w*": "партия",
    r"фол(|а|у|ом|е|ы|ов|ам|ами|ах)": "нарушение",
    r"брейк\w*": "серия",
    r"кий-бол\w*|белый шар|белого шара|биток-шар": "биток",
    r"фри-?бол\w*": "свободный шар",
    r"мисс": "промах",
    r"пенальти": "штраф",
    r"гандикап\w*": "фора",
    r"\(guest\)": "(гость)",
    r"до %\(n\)s парти\w*": "матч из n партий (best of n is not first to n)",
    r"в пользу %\(\w+\)s": "a sentence keeping the name in the nominative",
    r"победа %\(\w+\)s": "«Победитель — name» (the name in the nominative)",
}
# Words whose ё the catalogues must write: the ё-less spelling is banned.
WITHOUT_YO = (
    "еще",
    "черный",
    "черного",
    "черном",
    "черному",
    "желтый",
    "зеленый",
    "счет",
    "счета",
    "идет",
    "бьет",
    "сдает",
    "сдается",
    "ждем",
    "ждет",
    "вперед",
    "учетной",
    "ее",
    "истек",
    "начнется",
    "перейдете",
    "завершенного",
    "запрещен",
    "отклонен",
    "изменен",
    "все равно",
)


def _po_texts(path: Path) -> list[str]:
    texts: list[str] = []
    for entry in polib.pofile(str(path)):
        texts.extend(entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr])
    return texts


def _js_texts(path: Path) -> list[str]:
    """The catalogue's strings (its comments and keys are not read by players)."""
    code = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
    return [m for m in re.findall(r':\s*"((?:[^"\\]|\\.)*)"', code)]


CATALOGUES = {str(p.relative_to(ROOT)): _po_texts for p in PO_FILES} | {
    str(JS_CATALOGUE.relative_to(ROOT)): _js_texts
}


def _offending(texts: list[str], pattern: str) -> list[str]:
    found = re.compile(rf"(?<![\wё]){pattern}(?![\wё])", re.IGNORECASE)
    return [t for t in texts if found.search(t)]


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_the_rule_books_terms_only(name: str) -> None:
    texts = CATALOGUES[name](ROOT / name)
    assert len(texts) > 10, "the catalogue was not read"  # the fixtures' has 19
    wrong = {
        f"{pattern} (say «{term}»)": hits
        for pattern, term in BANNED.items()
        if (hits := _offending(texts, pattern))
    }
    assert not wrong, wrong


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_yo_is_written_where_it_belongs(name: str) -> None:
    texts = CATALOGUES[name](ROOT / name)
    wrong = {word: hits for word in WITHOUT_YO if (hits := _offending(texts, re.escape(word)))}
    assert not wrong, wrong


def test_the_check_catches_what_the_table_once_said() -> None:
    said = ["ФОЛ, ШТРАФ 4", "ФРЕЙМ ОКОНЧЕН", "по фреймам 2–0", "Еще одна тренировка"]
    assert _offending(said, r"фрейм\w*") == said[1:3]
    assert _offending(said, r"фол(|а|у|ом|е|ы|ов|ам|ами|ах)") == said[:1]
    assert _offending(said, "еще") == said[3:]
    assert not _offending(["НАРУШЕНИЕ, ШТРАФ 4", "ПАРТИЯ ОКОНЧЕНА", "ещё"], r"фрейм\w*|еще")
    once = ["Матч до %(n)s партий", "штраф 4 очка в пользу %(name)s", "победа %(name)s, 2–1"]
    assert _offending(once, r"до %\(n\)s парти\w*") == once[:1]
    assert _offending(once, r"в пользу %\(\w+\)s") == once[1:2]
    assert _offending(once, r"победа %\(\w+\)s") == once[2:]
    assert not _offending(["Матч из %(n)s партий", "Победитель — %(name)s"], r"победа %\(\w+\)s")
