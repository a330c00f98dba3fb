"""What a match can be asked to do: the commands `rules.match.apply` takes.

A player's request (stroke, choice, concession, claim) or the server's own (the draw for the
re-spotted black, the shot clock running out). Each has a stored form: the service stores the
command with the event it made, and rebuilding a match is a fold of `apply` over them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, get_args

from rules.errors import StateFormatError
from rules.state import Player, load_player, load_point
from rules.table import Point

Scope = Literal["frame", "match"]


@dataclass(frozen=True, slots=True)
class Stroke:
    """What the striker's browser sends: aim, power, spin, nomination, placement from hand."""

    angle: float  # radians, 0 = +x, π/2 = towards the top cushion
    speed: float  # cue-ball speed in m/s
    side: float = 0.0  # tip offset, fraction of the ball radius, + = right
    height: float = 0.0  # tip offset, + = top spin, - = screw
    nominated: str | None = None
    cue_ball: Point | None = None  # only when in hand


@dataclass(frozen=True, slots=True)
class Choose:
    """The holder of a decision takes one of the options offered."""

    option: str


@dataclass(frozen=True, slots=True)
class Concede:
    scope: Scope


@dataclass(frozen=True, slots=True)
class Claim:
    """The opponent has been away past the grace (the service checks it) and loses by claim."""

    scope: Scope


@dataclass(frozen=True, slots=True)
class Toss:
    """The server's draw for the re-spotted black (§7)."""

    winner: Player


@dataclass(frozen=True, slots=True)
class ShotClockExpired:
    """The striker's time ran out (RULES.md §4)."""


Command = Stroke | Choose | Concede | Claim | Toss | ShotClockExpired

# The stored name of each command (the event's `kind`).
KINDS: dict[type[Command], str] = {
    Stroke: "stroke", Choose: "choice", Concede: "concede", Claim: "claim", Toss: "toss",
    ShotClockExpired: "shot_clock",
}  # fmt: skip
_BY_KIND = {kind: cls for cls, kind in KINDS.items()}


def kind(command: Command) -> str:
    return KINDS[type(command)]


def to_json(command: Command) -> dict[str, Any]:
    """The stored form (without the kind, which is stored beside it)."""
    if isinstance(command, Stroke):
        return {
            "angle": command.angle, "speed": command.speed, "side": command.side,
            "height": command.height, "nominated": command.nominated,
            "cue_ball": list(command.cue_ball) if command.cue_ball is not None else None,
        }  # fmt: skip
    if isinstance(command, Choose):
        return {"option": command.option}
    if isinstance(command, Concede | Claim):
        return {"scope": command.scope}
    if isinstance(command, Toss):
        return {"winner": command.winner}
    return {}


def from_json(kind: str, data: object) -> Command:
    """Read a stored command back; a bad one raises `StateFormatError` naming the field."""
    cls = _BY_KIND.get(kind)
    if cls is None:
        raise StateFormatError("command.kind", f"unknown command {kind!r}")
    if not isinstance(data, dict):
        raise StateFormatError(kind, "expected an object")
    if cls is Stroke:
        cue = data.get("cue_ball")
        nominated = data.get("nominated")
        if nominated is not None and not isinstance(nominated, str):
            raise StateFormatError("stroke.nominated", "expected a ball id or null")
        return Stroke(
            angle=_number(data, "angle"), speed=_number(data, "speed"),
            side=_number(data, "side"), height=_number(data, "height"), nominated=nominated,
            cue_ball=None if cue is None else load_point(cue, "stroke.cue_ball"),
        )  # fmt: skip
    if cls is Choose:
        option = data.get("option")
        if not isinstance(option, str):
            raise StateFormatError("choice.option", "expected an option name")
        return Choose(option)
    if cls is Concede or cls is Claim:
        raw = data.get("scope")
        if raw not in get_args(Scope):
            raise StateFormatError(f"{kind}.scope", f"expected frame or match, got {raw!r}")
        scope: Scope = "frame" if raw == "frame" else "match"
        return Concede(scope) if cls is Concede else Claim(scope)
    if cls is Toss:
        winner = load_player(data.get("winner"), "toss.winner")
        assert winner is not None
        return Toss(winner)
    return ShotClockExpired()


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise StateFormatError(f"stroke.{key}", f"expected a finite number, got {value!r}")
    return float(value)
