"""The project's catalogue and the msgids its sources ask for.

`extract()` finds what `makemessages` would: Python files read with `ast` for the gettext
family's calls (the keywords makemessages gives xgettext), and templates turned by Django's
own `templatize` (the very text makemessages hands to xgettext) and read with Python's
tokenizer. It needs no GNU gettext, so the check runs on any machine.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polib
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# What `make messages` scans (the project's own code and templates; apps with a catalogue of
# their own, such as ladder/, ratings/ and fixtures/, keep theirs).
PYTHON_DIRS = ("accounts", "chat", "club", "computer", "game", "members", "snooker_site")
TEMPLATE_DIRS = ("templates", "accounts/templates")

# keyword: (index of the context or None, index of the msgid, index of the plural or None)
KEYWORDS: dict[str, tuple[int | None, int, int | None]] = {
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "_": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}


@dataclass(frozen=True, order=True)
class Message:
    context: str | None
    msgid: str
    plural: str | None
    where: str = ""

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def _message(name: str, args: list[str | None], where: str) -> Message | None:
    context_at, msgid_at, plural_at = KEYWORDS[name]
    needed = [i for i in (context_at, msgid_at, plural_at) if i is not None]
    if len(args) <= max(needed) or any(args[i] is None for i in needed):
        return None  # not literal strings: xgettext cannot read it either
    return Message(
        args[context_at] if context_at is not None else None,
        args[msgid_at] or "",
        args[plural_at] if plural_at is not None else None,
        where,
    )


def _python(path: Path) -> Iterator[Message]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in KEYWORDS:
            continue
        args = [
            a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
            for a in node.args
        ]
        found = _message(name, args, f"{path.relative_to(ROOT)}:{node.lineno}")
        if found is not None:
            yield found


def _template(path: Path) -> Iterator[Message]:
    """Django's templatize output: template text masked, each translation a gettext call."""
    text = templatize(path.read_text(encoding="utf-8"), str(path))
    # Masked text keeps the template's indentation, which means nothing to the tokenizer.
    text = "\n".join(line.lstrip() for line in text.splitlines())
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(text).readline)
        if t.type in (tokenize.NAME, tokenize.STRING, tokenize.OP)
    ]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not (
            token.type == tokenize.NAME
            and token.string in KEYWORDS
            and i + 1 < len(tokens)
            and tokens[i + 1].string == "("
        ):
            i += 1
            continue
        args: list[str | None] = []
        current: str | None = ""
        i += 2
        while i < len(tokens) and tokens[i].string != ")":
            t = tokens[i]
            if t.string == ",":
                args.append(current)
                current = ""
            elif t.type == tokenize.STRING and current is not None:
                current += ast.literal_eval(t.string)
            else:
                current = None  # a variable (ngettext's count)
            i += 1
        args.append(current)
        found = _message(token.string, args, f"{path.relative_to(ROOT)}:{token.start[0]}")
        if found is not None:
            yield found


def extract() -> list[Message]:
    found: list[Message] = []
    for folder in PYTHON_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" not in path.parts:
                found.extend(_python(path))
    for folder in TEMPLATE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".html", ".txt"):
                found.extend(_template(path))
    return found


def catalogue() -> polib.POFile:
    return polib.pofile(str(PO))
