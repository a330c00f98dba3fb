"""Messages a browser sends. Parsed with `parse()`; anything else is a `BadMessage`."""

from __future__ import annotations

import json
import math
import re
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from rules.chat import MAX_LENGTH
from rules.errors import Refused
from rules.table import BALL_IDS, OBJECT_BALLS, WHITE

M = TypeVar("M")

MAX_MESSAGE_BYTES = 8192
MAX_SPEED = 10.0  # m/s
MISCUE_LIMIT = 0.5  # tip offset, fraction of the ball radius
MAX_FRAMES = 1000  # no match is longer: a frame number above is refused unread
# A chat line's characters before trimming and cleaning (rules.chat.MAX_LENGTH after): room
# for spaces and invisible characters around a full line, not for a page of them.
MAX_SAY = 4 * MAX_LENGTH

BallId = Literal[*OBJECT_BALLS]  # type: ignore[valid-type]
ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Coordinate = Annotated[float, Field(ge=-2000.0, le=2000.0, allow_inf_nan=False)]


class _Message(BaseModel):
    # Strict: "5" is not a number and 1.0 is not a version; JSON arrays are read as tuples.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Message):
    """First message: the protocol spoken and the last event version this browser has."""

    type: Literal["hello"]
    protocol: int
    last_version: Annotated[int, Field(ge=0)] | None = None


class _Cue(_Message):
    angle: Annotated[float, Field(ge=-2 * math.pi, le=2 * math.pi, allow_inf_nan=False)]
    speed: Annotated[float, Field(gt=0.0, le=MAX_SPEED, allow_inf_nan=False)]
    side: Annotated[float, Field(ge=-MISCUE_LIMIT, le=MISCUE_LIMIT, allow_inf_nan=False)] = 0.0
    height: Annotated[float, Field(ge=-MISCUE_LIMIT, le=MISCUE_LIMIT, allow_inf_nan=False)] = 0.0
    cue_ball: tuple[Coordinate, Coordinate] | None = None

    @field_validator("height")
    @classmethod
    def _within_miscue(cls, height: float, info: object) -> float:
        side = getattr(info, "data", {}).get("side", 0.0)
        if math.hypot(side, height) > MISCUE_LIMIT + 1e-9:
            raise ValueError(f"tip offset beyond the miscue limit ({MISCUE_LIMIT} R)")
        return height


class Stroke(_Cue):
    """Play a stroke. `version` is the event version the striker saw when aiming."""

    type: Literal["stroke"]
    client_id: ClientId
    version: Annotated[int, Field(ge=0)]
    nominated: BallId | None = None


class Aim(_Cue):
    """The striker's aim as it moves; relayed (throttled) to everyone watching."""

    type: Literal["aim"]


class Choose(_Message):
    type: Literal["choose"]
    client_id: ClientId
    version: Annotated[int, Field(ge=0)]
    option: Literal["play", "put_back", "replace", "from_d", "rebreak", "pass"]


class Concede(_Message):
    type: Literal["concede"]
    client_id: ClientId
    scope: Literal["frame", "match"]


class Claim(_Message):
    """Claim the frame or the match against an opponent away past the reconnect grace."""

    type: Literal["claim"]
    client_id: ClientId
    scope: Literal["frame", "match"]


class Ping(_Message):
    """Keep-alive; carries the last version seen so the server can fill any gap."""

    type: Literal["ping"]
    version: Annotated[int, Field(ge=0)]


class LogRequest(_Message):
    """Ask for the referee's log of a frame of this match (1 is the first); answered with a
    `log` message to this socket alone."""

    type: Literal["log"]
    frame: Annotated[int, Field(ge=1, le=MAX_FRAMES)]


class Say(_Message):
    """A line in one of the match's chat rooms (docs/chat.md): `text`, a member's own words
    (at most 140 characters once trimmed: rules/chat.py), or `preset`, one of the preset
    phrases' keys (rules.chat.PRESETS), the only thing a guest says. Answered by the `line`
    broadcast to the room's readers (the writer's own socket too), or by an `error`."""

    type: Literal["say"]
    room: Literal["players", "spectators"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_SAY)] | None = None
    preset: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    client_id: ClientId | None = None


ClientMessage = Annotated[
    Hello | Stroke | Aim | Choose | Concede | Claim | Ping | LogRequest | Say,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
TYPES = ("hello", "stroke", "aim", "choose", "concede", "claim", "ping", "log", "say")


class BadMessage(Refused, ValueError):
    """A message that does not parse, on any socket; with its client id if it had one."""

    def __init__(self, code: str, message: str, client_id: str | None = None) -> None:
        super().__init__(code, message)
        self.client_id = client_id


def parse(text: str | bytes | None) -> ClientMessage:
    return parse_with(_ADAPTER, MAX_MESSAGE_BYTES, text)


def parse_with(adapter: TypeAdapter[M], most: int, text: str | bytes | None) -> M:
    """One of `adapter`'s messages from a frame of at most `most` bytes, or `BadMessage`: the
    one parser of every socket's messages (the club's too)."""
    if text is None or isinstance(text, bytes):
        raise BadMessage("bad_json", "messages are JSON text frames")
    if len(text.encode("utf-8", "surrogatepass")) > most:
        raise BadMessage("too_large", f"messages are at most {most} bytes")
    try:
        message = adapter.validate_json(text, strict=True)
    except ValidationError as exc:
        raise _refusal(text, exc) from None
    # A NUL or a lone surrogate reaches a str only through a JSON escape (frames are UTF-8,
    # which holds no lone surrogate): PostgreSQL cannot store a NUL, nor UTF-8 a surrogate, so
    # such a message is refused here rather than where a client id or a name is written.
    if "\\u" in text and not _readable(json.loads(text)):
        client_id = getattr(message, "client_id", None)
        raise BadMessage("invalid", "text holds a NUL or a lone surrogate", client_id)
    return message


_UNREADABLE = re.compile("[\x00\ud800-\udfff]")


def _readable(value: object) -> bool:
    if isinstance(value, str):
        return _UNREADABLE.search(value) is None
    if isinstance(value, dict):
        return all(_readable(k) and _readable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(map(_readable, value))
    return True


def _refusal(text: str, exc: ValidationError) -> BadMessage:
    """The error answer for a message that did not validate, with its client id if it had one."""
    first = exc.errors(include_url=False, include_input=False)[0]
    if first["type"] == "json_invalid":
        return BadMessage("bad_json", f"not JSON: {first['msg']}")
    try:
        data = json.loads(text)  # it is JSON: validate_json said so
    except (ValueError, RecursionError):
        data = None  # e.g. an integer too long for Python's int conversion limit
    if not isinstance(data, dict):
        return BadMessage("bad_message", "a message is a JSON object with a type")
    client_id = data.get("client_id") if isinstance(data.get("client_id"), str) else None
    if client_id is not None and not _readable(client_id):
        client_id = None  # never echoed back: the answer would carry it
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return BadMessage("unknown_type", f"unknown message type {data.get('type')!r}", client_id)
    where = ".".join(str(p) for p in first["loc"][1:]) or "message"
    return BadMessage("invalid", f"{where}: {first['msg']}", client_id)


__all__ = [
    "BALL_IDS",
    "WHITE",
    "Aim",
    "BadMessage",
    "Choose",
    "Claim",
    "ClientMessage",
    "Concede",
    "Hello",
    "LogRequest",
    "Ping",
    "Say",
    "Stroke",
    "parse",
    "parse_with",
]
