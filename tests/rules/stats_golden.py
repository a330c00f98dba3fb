"""The golden matches of the statistics' tests (tests/rules/golden/stats_*.json): the format
tests/rules/stats_bot.py writes, read back as a start and the commands to fold over it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules import commands
from rules.commands import Command
from rules.match import Match, new_match
from rules.state import FrameState, Player, is_player

GOLDEN = Path(__file__).resolve().parent / "golden"


def golden(name: str) -> tuple[Match, list[tuple[Player | None, Command]]]:
    """The match a golden file starts from (a new match, or one whose first frame is set up)
    and its commands, each with the seat that gave it (None: the server's draw)."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    start = new_match(data["best_of"], data["draw"])
    if "start" in data:
        start = replace(start, frame=FrameState.from_json(data["start"]))
    played = [
        (seat if is_player(seat) else None, commands.from_json(kind, command))
        for seat, kind, command in data["commands"]
    ]
    return start, played
