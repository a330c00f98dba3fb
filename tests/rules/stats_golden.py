"""The golden matches of the statistics' tests (tests/rules/golden/stats_*.json): the format
tests/rules/stats_bot.py writes, read back as a start and the commands to fold over it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules import commands
from rules.commands import Command
from rules.match import Match, apply, new_match
from rules.state import FrameState, Player, is_player

GOLDEN = Path(__file__).resolve().parent / "golden"


REGENERATE = (
    "the physics or the referee plays this golden match differently now: regenerate it with"
    " `.venv/bin/python -m tests.rules.stats_bot` and update the figures tests/rules/"
    "test_stats.py and tests/members/ expect (the bot prints the referee's breaks)"
)


def data(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return found


def golden(name: str) -> tuple[Match, list[tuple[Player | None, Command]]]:
    """The match a golden file starts from (a new match, or one whose first frame is set up)
    and its commands, each with the seat that gave it (None: the server's draw)."""
    data_ = data(name)
    start = new_match(data_["best_of"], data_["draw"])
    if "start" in data_:
        start = replace(start, frame=FrameState.from_json(data_["start"]))
    played = [
        (seat if is_player(seat) else None, commands.from_json(kind, command))
        for seat, kind, command in data_["commands"]
    ]
    return start, played


def check(name: str) -> None:
    """The golden match still plays as it was recorded: each command's points, penalty and
    the break after it."""
    start, played = golden(name)
    match, seen = start, []
    for seat, command in played:
        match, outcome = apply(match, seat, command)
        seen.append([outcome.ruling.points, outcome.ruling.penalty, outcome.settled.brk])
    assert seen == data(name)["outcomes"], REGENERATE
