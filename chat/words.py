"""Words in the club's chat (issue 41; docs/chat.md, "Words"): slurs, obscenities and insults
masked, in English and Russian, at two strengths.

- **Strong** (obscenities, slurs): always masked.
- **Mild** (damn, crap, idiot; хрен, жопа, дебил): masked unless the reader turned that off
  for themselves.

English is glin-profanity's (MIT, maintained; its English list is LDNOOBW's), which also folds
leetspeak, accents and look-alike letters ("sh1t", "fück", "f u c k"). Its list would mask
words a snooker club uses every day, so those are taken out (`SNOOKER`: the cue's butt, a
cocked hat double, suck back).

Russian is not the package's: its Russian list (checked in 4.1.0) is half Latin
transliteration, misses the commonest Cyrillic forms ("пизда" is there only as "pizda") and
masks ordinary words ("какая разница", "голый", "мент", "бардак"). Russian obscenity grows from
a handful of roots with prefixes and endings (хуй, пизд, еб/ёб, бляд, муд(ак), манд, залуп,
дроч), so it is matched here by root, with look-alike Latin letters and digits read as
Cyrillic, letters repeated for emphasis read once, and letters spaced apart read together.
Each root is anchored where a word's innocent neighbours would differ: "сукно" (the table's
cloth), "мудрый", "мандарин", "пиджак", "тебе", "хлеб" and "хуже" stay as they are.

A masked word becomes `MASK`; the stored line keeps what was written (for the moderators).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from glin_profanity import Filter

Strength = Literal["strong", "mild"]
MASK: Final = "***"

# Words glin-profanity's English list holds that a snooker club says in their snooker sense.
SNOOKER: Final = ("butt", "cock", "cocked", "suck", "snatch", "balls", "screw", "kiss")

# Mild English words (glin-profanity's list is of the strong ones): mild swearing and the
# commonest insults.
_MILD_EN: Final = re.compile(
    r"\b(?:damn(?:ed|it)?|dammit|crap(?:py)?|bloody|bugger(?:ed)?|bollocks|arse|sod|"
    r"piss(?:ed)?|idiot(?:s|ic)?|moron(?:s|ic)?|stupid|loser(?:s)?|dumbass|jerk(?:s)?)\b",
    re.IGNORECASE,
)

# Russian roots, matched against a whole word read as Cyrillic (see the module's docstring).
_PREFIX: Final = (
    r"(?:на|по|от|отъ|за|об|объ|обо|рас|разъ|раз|до|при|про|пере|недо|вы|у|съ|въ|ох|о|ни|под|"
    r"подъ|из|изъ|долбо)?"
)
_STRONG_RU: Final = (
    re.compile(rf"^{_PREFIX}ху[йеёяию]"),  # хуй, нахуя, охуеть, хуёвый (not "хуже", "худой")
    re.compile(r"п[ие]зд"),  # пизда, спиздить
    re.compile(rf"^{_PREFIX}[её]б(?:[аиуёоеынлкт]|$)"),  # ебать, заебал, долбоёб ("тебе": no)
    re.compile(r"^бля(?:д|т|$)"),  # бля, блядь, блять
    re.compile(r"^муд(?:а[кч]|ил|оз|е$|и$)"),  # мудак, мудила (not "мудрый")
    re.compile(r"^манд(?:а$|ы$|е$|у$|ой$|ав|[её]ж)"),  # манда (not "мандарин", "мандат")
    re.compile(r"залуп"),
    re.compile(rf"^{_PREFIX}дроч"),
    re.compile(r"^(?:пид(?:[оа])?р|педик)"),  # slurs (not "пиджак")
    re.compile(r"^(?:жид(?:$|ы|ов|ам|ом|а$|у$)|хач(?:$|и|ей|ам|ик))"),  # slurs ("хачапури": no)
    re.compile(r"шлюх"),
    re.compile(r"^г[ао]нд[оа]н"),
    re.compile(r"^сук(?:а|и$|е$|у$|ой$|ин)"),  # сука, сукин (not "сукно")
    re.compile(r"^(?:мраз|твар[ьи]|чмо)"),
)
_MILD_RU: Final = (
    re.compile(r"^(?:хрен|хер(?:$|ня|ов|а$)|жоп|говн|дерьм|срат|сран|засран)"),
    re.compile(r"^(?:дебил|идиот|кретин|придур|урод|лох(?:$|и$|ам|ов)|козё?е?л(?:$|ы))"),
    re.compile(r"^(?:тупиц|дура(?:к|$|ч))"),
)

# Latin look-alikes and digits read as Cyrillic in a word that holds Cyrillic.
_AS_CYRILLIC: Final = str.maketrans("aeopcxykmhtbu3064", "аеорсхукмнтвизоба")
_CYRILLIC: Final = re.compile(r"[а-яё]", re.IGNORECASE)
_WORD: Final = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Masked:
    """A line as readers see it: `text` with every strong and mild word masked, `strong` with
    only the strong ones (for a reader who turned mild masking off)."""

    text: str
    strong: str


@cache
def _english() -> Filter:
    return Filter(
        {
            "languages": ["english"],
            "replace_with": MASK,
            "detect_leetspeak": True,
            "normalize_unicode": True,
            "ignore_words": list(SNOOKER),
        }
    )


def _russian(word: str) -> Strength | None:
    """How strong a Russian word is, or None: read as Cyrillic, letters repeated for emphasis
    read once."""
    plain = word.lower().translate(_AS_CYRILLIC)
    plain = re.sub(r"(.)\1+", r"\1", plain)
    if any(r.search(plain) for r in _STRONG_RU):
        return "strong"
    if any(r.search(plain) for r in _MILD_RU):
        return "mild"
    return None


def _spans(text: str) -> list[tuple[int, int]]:
    """Each word's span, letters spaced apart ("х у й", "х.у.й") read as one word."""
    words = [m.span() for m in _WORD.finditer(text)]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        start, end = words[i]
        j = i
        while (
            j + 1 < len(words)
            and words[j][1] - words[j][0] == 1
            and words[j + 1][1] - words[j + 1][0] == 1
            and words[j + 1][0] - words[j][1] <= 2
        ):
            j += 1
        if j > i:
            out.append((start, words[j][1]))
            i = j + 1
        else:
            out.append((start, end))
            i += 1
    return out


def _mask_russian(text: str, strengths: tuple[Strength, ...]) -> str:
    pieces: list[str] = []
    last = 0
    for start, end in _spans(text):
        word = re.sub(r"\W", "", text[start:end])
        if not _CYRILLIC.search(word):
            continue
        if _russian(word) in strengths:
            pieces += [text[last:start], MASK]
            last = end
    return "".join(pieces) + text[last:]


def _ours(text: str, strengths: tuple[Strength, ...]) -> str:
    """`text` with our own words masked (the Russian, the mild English)."""
    text = _mask_russian(text, strengths)
    if "mild" in strengths:
        text = _MILD_EN.sub(MASK, text)
    return text


def _theirs(text: str) -> str:
    """`text` with glin-profanity's English words masked (its costliest part, a few ms)."""
    found = _english().check_profanity(text)
    return found.get("processed_text") or text if found.get("contains_profanity") else text


def mask(text: str) -> Masked:
    """`text` as readers see it (a line already cleaned by `rules.chat.clean`); the English
    list read once when no mild word differs the two (a line with none: nearly all)."""
    both, strong = _ours(text, ("strong", "mild")), _ours(text, ("strong",))
    shown = _theirs(both)
    return Masked(text=shown, strong=shown if strong == both else _theirs(strong))


def strength(text: str) -> Strength | None:
    """The strongest word in `text`, or None (the moderators' reports and the tests)."""
    masked = mask(text)
    if masked.strong != text:
        return "strong"
    return "mild" if masked.text != text else None
