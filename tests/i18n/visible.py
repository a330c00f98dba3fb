"""What a person reads on a page: its text and the attributes a browser shows (titles, labels
for screen readers, placeholders, button values), without scripts, styles and data blocks.
Templates (<template>) count: the pages' scripts show clones of them.

A part marked in another language (`lang="en"`: the switch's "English") is left out, as a
screen reader would read it in that language, and so is a part marked as no language's to
translate (`translate="no"`: a time zone's name, Europe/Moscow, MSK).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

SHOWN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip
# Words that are no language's to translate.
ALLOWED = {"JavaScript"}
LATIN_WORD = re.compile(r"[A-Za-z]+")


class _Reader(HTMLParser):
    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[tuple[str, bool]] = []  # (tag, hidden: skipped with what it holds)
        self.texts: list[str] = []
        self.lang: str | None = None

    @property
    def hidden(self) -> bool:
        return any(hidden for _, hidden in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = values.get("lang")
        other = "lang" in values and not values["lang"].startswith(self.language)
        skip = tag in ("script", "style") or other or values.get("translate") == "no"
        if not (skip or self.hidden):
            self.texts.extend(values[a] for a in SHOWN_ATTRIBUTES if a in values)
            if tag == "input" and values.get("type") in ("submit", "button", "reset"):
                self.texts.append(values.get("value", ""))
        if tag not in VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.texts.append(data)


def read(html: str, language: str) -> tuple[str | None, str]:
    """The page's lang attribute and the text a person reads in it."""
    reader = _Reader(language)
    reader.feed(html)
    reader.close()
    return reader.lang, " ".join(" ".join(reader.texts).split())


def latin_words(text: str) -> list[str]:
    """Words in Latin letters: in a Russian page, English left untranslated."""
    return [w for w in LATIN_WORD.findall(text) if w not in ALLOWED]
