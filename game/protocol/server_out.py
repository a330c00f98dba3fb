"""Messages the server sends. Built here and nowhere else, so the schemas below are the truth.

An event's body is serialised once and the same text goes to every player and spectator.
The pydantic models document each message and let the tests check every message sent.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from game.protocol import PROTOCOL_VERSION


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Welcome(_Out):
    """Answer to hello. `snapshot` is null when the events the browser missed follow instead."""

    type: Literal["welcome"]
    protocol: int
    match: int
    seat: Literal["A", "B"] | None
    players: dict[str, str]
    snapshot: dict[str, Any] | None


class Event(_Out):
    """One state change. `snapshot` is the whole public state at `version`."""

    type: Literal["event"]
    version: int
    kind: Literal["start", "stroke", "choice", "toss", "concede", "claim", "shot_clock"]
    seat: Literal["A", "B"] | None
    request: dict[str, Any]
    ruling: dict[str, Any] | None
    shot: dict[str, Any] | None
    snapshot: dict[str, Any]


class Ack(_Out):
    type: Literal["ack"]
    client_id: str
    version: int
    duplicate: bool


class Error(_Out):
    type: Literal["error"]
    code: str
    message: str
    client_id: str | None


class Presence(_Out):
    type: Literal["presence"]
    players: dict[str, dict[str, Any]]
    spectators: int


class AimOut(_Out):
    type: Literal["aim"]
    seat: Literal["A", "B"]
    angle: float
    speed: float
    side: float
    height: float
    cue_ball: tuple[float, float] | None


class Pong(_Out):
    type: Literal["pong"]
    version: int


SCHEMAS: dict[str, type[_Out]] = {
    "welcome": Welcome, "event": Event, "ack": Ack, "error": Error, "presence": Presence,
    "aim": AimOut, "pong": Pong,
}  # fmt: skip


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def welcome(
    match: int, seat: str | None, players: dict[str, str], snapshot: dict[str, Any] | None
) -> str:
    return dumps(
        {"type": "welcome", "protocol": PROTOCOL_VERSION, "match": match, "seat": seat,
         "players": players, "snapshot": snapshot}
    )  # fmt: skip


def ack(client_id: str, version: int, duplicate: bool) -> str:
    return dumps(
        {"type": "ack", "client_id": client_id, "version": version, "duplicate": duplicate}
    )


def error(code: str, message: str, client_id: str | None = None) -> str:
    return dumps({"type": "error", "code": code, "message": message, "client_id": client_id})


def pong(version: int) -> str:
    return dumps({"type": "pong", "version": version})


def aim(seat: str, cue: dict[str, Any]) -> str:
    return dumps({"type": "aim", "seat": seat, **cue})


def presence(players: dict[str, dict[str, Any]], spectators: int) -> str:
    return dumps({"type": "presence", "players": players, "spectators": spectators})
