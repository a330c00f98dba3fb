"""The referee's log in words, for the server's pages (a finished match's record, a replay),
from the very catalogue the live table words it from: static/js/lang/<lang>.js.

One wording, the browser's: the table words every event the moment it happens, with no round
trip, and its catalogue already holds the log's sentences with their plural forms and the rule
book's clause numbers. The server's pages are read without scripts too, so the server reads
the same files (plain object literals: keys, strings and plural objects) and words the same
`LogEntry` (game/protocol/server_out.py, what the live `log` message carries) as
static/js/story.js `describe` does, key for key. tests/game/test_log_words.py runs
story.js on the same entries and fails if the two say anything differently.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import translation

from game.protocol import server_out

LANG_DIR = Path(settings.BASE_DIR) / "static" / "js" / "lang"
Entry = dict[str, Any]  # a catalogue's value: a text, or a text per plural form


@cache
def catalogue(lang: str) -> dict[str, str | dict[str, str]]:
    """The browser's catalogue of `lang` (en, ru), read from its module."""
    code = (LANG_DIR / f"{lang}.js").read_text(encoding="utf-8")
    code = re.sub(r"^\s*//.*$", "", code, flags=re.M)  # comment lines
    body = code[code.index("{") : code.rindex("}") + 1]
    body = re.sub(r"([{,]\s*)(zero|one|two|few|many|other)\s*:", r'\1"\2":', body)
    body = re.sub(r",(\s*[}\]])", r"\1", body)  # trailing commas
    found: dict[str, str | dict[str, str]] = json.loads(body)
    return found


def _language() -> str:
    lang = (translation.get_language() or "en").split("-")[0]
    return lang if (LANG_DIR / f"{lang}.js").exists() else "en"


def plural_form(lang: str, n: float) -> str:
    """The CLDR plural category of `n`, as Intl.PluralRules(lang) answers it for the club's
    languages."""
    if n != int(n):
        return "other"
    i = abs(int(n))
    if lang == "ru":
        if i % 10 == 1 and i % 100 != 11:
            return "one"
        if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
            return "few"
        return "many"
    return "one" if i == 1 else "other"


def t(key: str, **params: Any) -> str:
    """As static/js/i18n.js `t`: the text for `key` in the active language (English if that
    lacks it; the key if neither has it), placeholders filled, the plural form by `n`."""
    lang = _language()
    words = catalogue(lang)
    entry = words.get(key, catalogue("en").get(key))
    if entry is None:
        return key
    if isinstance(entry, dict):
        entry = entry.get(plural_form(lang, float(params.get("n", 0))), entry["other"])
    return re.sub(r"%\((\w+)\)s", lambda m: str(params[m[1]]) if m[1] in params else m[0], entry)


# --- as static/js/story.js ---------------------------------------------------------------------
def ball_name(ball_id: str, form: str = "name") -> str:
    base = "red" if ball_id.startswith("red") else ball_id
    return t(f"ball.{form}.{base}")


def _list(items: list[str]) -> str:
    return t("list.sep").join(items)


def calls(r: server_out.RulingOut | None) -> list[str]:
    """story.js `refereeCalls`: the referee's calls, each from its field."""
    if r is None:
        return []
    words: list[str] = []
    if r.foul:
        words.append(t("call.foul", n=r.penalty))
    if r.miss:
        words.append(t("call.miss"))
    if r.warning:
        words.append(t("call.warning"))
    if r.free_ball:
        words.append(t("call.free_ball"))
    if r.touching:
        words.append(t("call.touching"))
    if r.respotted_black:
        words.append(t("call.respotted_black"))
    if r.frame_over:
        words.append(t("call.frame_over"))
    return words


def clause_text(clause: str) -> str:
    if clause.startswith("§"):
        return t("clause.section", n=clause[1:])
    return t("clause.club")


def foul_text(kind: str, clause: str) -> str:
    return t("log.foul", what=t(f"foul.{kind}"), clause=clause_text(clause))


def _option(option: str, toss: bool) -> str:
    return t(f"option.{'toss_play' if toss and option == 'play' else option}")


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


@dataclass(frozen=True)
class Words:
    head: str  # who did what
    calls: list[str]  # the referee's calls
    details: list[str]  # what the stroke did, the fouls with their clauses, the penalty, ...


def describe(entry: server_out.LogEntry, players: dict[str, str]) -> Words:
    """story.js `describe`: the words for one entry of the log."""
    seat = entry.seat
    who = players.get(seat, "") if seat else t("log.referee")
    r, shot, request = entry.ruling, entry.shot, entry.request
    details: list[str] = []
    kind = entry.kind
    if kind == "start":
        draw = getattr(request, "draw", None)
        head = t("log.draw", name=players.get(draw, "?") if draw else "?")
        start = getattr(request, "start", None)  # the handicap start (RULES.md §10)
        if start is not None:
            for side, points in (("A", start.A), ("B", start.B)):
                if points:
                    details.append(t("log.start", name=players.get(side, "?"), n=points))
    elif kind == "stroke":
        # Said as a referee would: who potted what, whose foul, or what was played (a safety).
        potted = [ball_name(b) for b in shot.potted if b != "white"] if shot else []
        first = [ball_name(b) for b in shot.first_contact] if shot else []
        foul = r is not None and r.foul
        if foul:
            head = t("log.foul_by", name=who)
        elif potted:
            head = t("log.pots", name=who, balls=_list(potted))
        elif first:
            head = t("log.plays_ball", name=who, balls=_list(first))
        else:
            head = t("log.plays", name=who)
        if r is not None and r.nominated:
            details.append(t("log.nominated", ball=ball_name(r.nominated)))
        if foul and first:
            details.append(t("log.first", balls=_list(first)))
        if foul and potted:
            details.append(t("log.potted", balls=_list(potted)))
        if r is not None and not r.foul and r.points:
            details.append(t("log.points", n=r.points, name=who, brk=entry.brk))
    elif kind == "choice":
        option = getattr(request, "option", "")
        head = t(f"log.choice.{option}", name=who, other=players.get(_other(seat or "A"), ""))
    elif kind == "toss":
        winner = getattr(request, "winner", None)
        head = t("log.toss", name=players.get(winner, "") if winner else "")
    elif kind in ("concede", "claim"):
        scope = "match" if getattr(request, "scope", "") == "match" else "frame"
        head = t(f"log.{kind}.{scope}", name=who)
    elif kind == "shot_clock":
        head = t("log.shot_clock", name=who)
    else:
        head = kind
    if r is not None:
        details.extend(foul_text(f.kind, f.clause) for f in r.fouls)
        if r.foul:
            details.append(t("log.penalty", n=r.penalty, name=players.get(_other(seat or "A"), "")))
        if r.touching:
            details.append(t("log.touching", ball=ball_name(r.touching)))
        if r.respotted:
            details.append(t("log.respotted", balls=_list([ball_name(b) for b in r.respotted])))
        if r.choices and not r.frame_over:
            options = [_option(o, kind == "toss") for o in r.choices]
            details.append(t("log.options", options=_list(options)))
    return Words(head, calls(r), details)
