"""Which names may join the club.

A new name is refused when it looks the same as a member's name: compared after NFKC,
case folding and Unicode's confusable skeleton (UTS #39), so `аlice` with a Cyrillic `а`,
`ALICE`, `aIice` with a capital I and a full-width `ａｌｉｃｅ` all meet `alice`. A name that mixes
alphabets with letters that pass for another alphabet's (`аlice`, `Ivan_Иван`) is refused even
when nobody has the look-alike yet, so that nobody can hold a name in wait for a member who has
not joined. A name in one alphabet is welcome: `Алиса` joins, and `Aлиса` with a Latin `A` then
meets it. The confusables are Unicode's (confusables.txt, scripts from Scripts.txt) as the
confusable_homoglyphs package ships them.

confusables.txt leaves out the phonetic letters: Latin small capitals (`ᴀlice`, `ʙᴏʙ`) and the
letters with hooks and strokes of the Phonetic Extensions and IPA Extensions pass for the plain
letter in a lobby row, so they are folded to it first (`_PHONETIC`). A name with a
default-ignorable character (zero-width spaces and joiners, Hangul fillers, variation selectors,
bidirectional controls) or with nothing visible is refused outright: such a name shows blank,
or the same as another that differs only by what cannot be seen.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy


def _node(text: str) -> str:
    # The package writes right-to-left characters between left-to-right marks.
    return text.replace("\u200e", "") if len(text) > 1 else text


@cache
def _prototypes() -> dict[str, str]:
    """Each character of confusables.txt → the prototype it is confused with.

    The package stores every line `source → prototype` in both directions; the prototypes are
    never sources themselves, so each group is a star around its prototype: the node of
    several characters (prototypes only can be sequences), else the one with several
    neighbours. A group of two is one line, and either end serves: both map to it."""
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    neighbours: dict[str, set[str]] = {}
    for key, glyphs in data.items():
        for glyph in glyphs:
            a, b = _node(key), _node(glyph["c"])
            neighbours.setdefault(a, set()).add(b)
            neighbours.setdefault(b, set()).add(a)
    prototype: dict[str, str] = {}
    for start in neighbours:
        if start in prototype:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in neighbours[todo.pop()] - group:
                group.add(other)
                todo.append(other)
        centre = min(group, key=lambda n: (len(n) == 1, len(neighbours[n]) == 1, n))
        for member in group:
            prototype[member] = centre
    return {char: proto for char, proto in prototype.items() if len(char) == 1}


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again (repeated
    so that the characters of a prototype sequence are prototypes too)."""
    table = _prototypes()
    out = unicodedata.normalize("NFD", text)
    for _ in range(3):
        mapped = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in out))
        if mapped == out:
            break
        out = mapped
    return out


# The letters confusables.txt does not map, by their Unicode names: "LATIN LETTER SMALL CAPITAL
# A" → a, "LATIN SMALL LETTER B WITH HOOK" → b, "GREEK LETTER SMALL CAPITAL GAMMA" → γ,
# "LATIN SUBSCRIPT SMALL LETTER X" → x. Turned and reversed letters (ɐ, ɘ) are left alone: they
# do not read as the letter they turn.
_PHONETIC_BLOCKS = ((0x0250, 0x02AF), (0x1D00, 0x1D7F), (0x1D80, 0x1DBF))
_LETTER = re.compile(
    r"^(?P<script>LATIN|GREEK|CYRILLIC) (?:LETTER SMALL CAPITAL|SMALL LETTER|SMALL CAPITAL"
    r"|SUBSCRIPT SMALL LETTER|LETTER) (?:DOTLESS )?(?P<letter>[A-Z]+)(?: WITH .*)?$"
)


@cache
def _phonetic() -> dict[int, str]:
    table: dict[int, str] = {}
    for first, last in _PHONETIC_BLOCKS:
        for code in range(first, last + 1):
            found = _LETTER.match(unicodedata.name(chr(code), ""))
            if found is None:
                continue
            script, letter = found["script"], found["letter"]
            try:
                plain = unicodedata.lookup(f"{script} SMALL LETTER {letter}")
            except KeyError:
                continue
            if plain != chr(code):
                table[code] = plain
    return table


def fold_phonetic(text: str) -> str:
    """Small capitals and hooked letters as the plain small letter they pass for."""
    return text.translate(_phonetic())


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt; unicodedata does not
# carry it), with the blanks that are not ignorable but show nothing either: the Braille blank
# and the spaces (a member's name has none; a guest's single spaces are checked apart).
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_BLANK = {0x2800}


def is_ignorable(char: str) -> bool:
    code = ord(char)
    return any(first <= code <= last for first, last in _IGNORABLE)


def invisible(name: str) -> bool:
    """A name that holds a default-ignorable character, or shows nothing: only spaces, marks
    without a letter to sit on, format characters or blanks."""
    if any(is_ignorable(c) for c in name):
        return True
    return all(
        c.isspace() or ord(c) in _BLANK or unicodedata.category(c) in {"Mn", "Me", "Cf", "Cc"}
        for c in name
    )


def likeness(name: str) -> frozenset[str]:
    """The skeletons of a name as typed, in lower case and in upper case; two names look the
    same when they share one. UTS #39 skeletons keep case, so `aIice` meets `alice` as typed
    (a capital I passes for an l), and `ALlCE` meets it in upper case (`ALICE`). The marks a
    member's name may hold besides letters and digits (`@.+-_`) are left out: `alice.` and
    `bob_` pass for `alice` and `bob` in a lobby row at a glance."""
    name = fold_phonetic(unicodedata.normalize("NFKC", name))
    name = name.translate(_MARKS) or name
    return frozenset(skeleton(form) for form in (name, name.casefold(), name.upper()))


_MARKS = str.maketrans("", "", "@.+-_")


def mixes_lookalike_scripts(name: str) -> bool:
    """Several alphabets, one of them with letters that pass for another's."""
    return bool(confusables.is_dangerous(name))


def lookalike_of(name: str, members: Iterable[str]) -> str | None:
    """The first of `members` whose name looks the same as `name`, if any."""
    forms = likeness(name)
    for member in members:
        if forms & likeness(member):
            return member
    return None


def validate_new_username(name: str) -> None:
    """The rule for a new member's name (the sign-up form calls it). Compares against every
    member's name: a club's membership, not a social network's."""
    if invisible(name):
        raise ValidationError(
            gettext_lazy("This name holds characters that cannot be seen; type it plainly."),
            code="invisible",
        )
    if mixes_lookalike_scripts(name):
        raise ValidationError(
            gettext_lazy(
                "This name mixes alphabets with letters that look alike; write it in one alphabet."
            ),
            code="mixed_scripts",
        )
    # Read whole: a server-side cursor left half-read (the first look-alike ends the search)
    # would be closed later by the collector, in whatever transaction is open then.
    names = list(get_user_model().objects.values_list("username", flat=True))
    if lookalike_of(name, names) is not None:
        raise ValidationError(
            gettext_lazy("A member's name looks the same as this one; please pick another."),
            code="lookalike",
        )
